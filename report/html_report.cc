#include "report/html_report.h"

#include <Eigen/Geometry>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>

#include "common/output_file.h"
#include "report/detail/page_assets.h"

namespace twinblocks::report {

static_assert(std::endian::native == std::endian::little,
              "the page reads its arrays as little-endian typed arrays");

namespace {

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendBase64(const unsigned char* bytes, size_t n, std::string* out) {
  out->reserve(out->size() + (n + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out->push_back(kBase64Alphabet[(v >> 18) & 63]);
    out->push_back(kBase64Alphabet[(v >> 12) & 63]);
    out->push_back(kBase64Alphabet[(v >> 6) & 63]);
    out->push_back(kBase64Alphabet[v & 63]);
  }
  if (i < n) {
    const uint32_t v = (bytes[i] << 16) | (i + 1 < n ? bytes[i + 1] << 8 : 0);
    out->push_back(kBase64Alphabet[(v >> 18) & 63]);
    out->push_back(kBase64Alphabet[(v >> 12) & 63]);
    out->push_back(i + 1 < n ? kBase64Alphabet[(v >> 6) & 63] : '=');
    out->push_back('=');
  }
}

/// A JSON string of base64 of the array's bytes.
template <typename T>
void AppendArray(const std::vector<T>& values, std::string* out) {
  out->push_back('"');
  AppendBase64(reinterpret_cast<const unsigned char*>(values.data()), values.size() * sizeof(T),
               out);
  out->push_back('"');
}

/// A JSON string; <, > and & escaped too, so that no text can close the <script> it is in.
void AppendString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (const char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      default:
        if (u < 0x20 || ch == '<' || ch == '>' || ch == '&') {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          *out += buf;
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

/// A JSON number (shortest round trip), null when not finite.
void AppendNumber(double v, std::string* out) {
  if (!std::isfinite(v)) {
    *out += "null";
    return;
  }
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, end);
}

void AppendVector(const double* v, int n, std::string* out) {
  out->push_back('[');
  for (int i = 0; i < n; ++i) {
    if (i > 0) out->push_back(',');
    AppendNumber(v[i], out);
  }
  out->push_back(']');
}

void AppendKey(const char* key, std::string* out) {
  out->push_back('"');
  *out += key;
  *out += "\":";
}

void AppendSignals(const graph::Recording& rec, const std::vector<int>& rows, std::string* out) {
  out->push_back('[');
  int column = 0;
  std::vector<float> data(rows.size());
  for (size_t s = 0; s < rec.signals().size(); ++s) {
    const graph::LoggedSignal& signal = rec.signals()[s];
    if (s > 0) out->push_back(',');
    *out += "{";
    AppendKey("name", out);
    AppendString(signal.name, out);
    *out += ",";
    AppendKey("columns", out);
    out->push_back('[');
    for (int k = 0; k < signal.width; ++k) {
      if (k > 0) out->push_back(',');
      AppendString(rec.columns()[column + k], out);
    }
    *out += "],";
    AppendKey("data", out);
    out->push_back('[');
    for (int k = 0; k < signal.width; ++k) {
      if (k > 0) out->push_back(',');
      for (size_t r = 0; r < rows.size(); ++r) {
        data[r] = static_cast<float>(rec.value(rows[r], column + k));
      }
      AppendArray(data, out);
    }
    *out += "]}";
    column += signal.width;
  }
  out->push_back(']');
}

const char* ShapeName(multibody::ShapeKind kind) { return multibody::ShapeKindName(kind); }

void AppendScene(const graph::Recording& rec, const SceneRecorder& scene, int max_frames,
                 std::string* out) {
  const std::vector<int> frames = SelectRows(rec.num_rows(), max_frames);
  std::vector<double> time(frames.size());
  for (size_t f = 0; f < frames.size(); ++f) time[f] = rec.time(frames[f]);
  *out += "{";
  AppendKey("frames", out);
  *out += std::to_string(frames.size()) + ",";
  AppendKey("time", out);
  AppendArray(time, out);

  *out += ",";
  AppendKey("bodies", out);
  out->push_back('[');
  for (size_t b = 0; b < scene.bodies().size(); ++b) {
    if (b > 0) out->push_back(',');
    *out += "{";
    const SceneBody& body = scene.bodies()[b];
    AppendKey("name", out);
    AppendString(body.name, out);
    *out += ",";
    AppendKey("parent", out);
    *out += std::to_string(body.parent) + ",";
    AppendKey("joint", out);
    AppendVector(body.p_PJ.data(), 3, out);
    *out += "}";
  }
  *out += "],";
  const size_t nb = scene.bodies().size();
  std::vector<float> poses;
  poses.reserve(frames.size() * nb * SceneRecorder::kPoseFloats);
  for (int row : frames) {
    const float* p =
        scene.pose_data().data() + static_cast<size_t>(row) * nb * SceneRecorder::kPoseFloats;
    poses.insert(poses.end(), p, p + nb * SceneRecorder::kPoseFloats);
  }
  AppendKey("poses", out);
  AppendArray(poses, out);

  // Meshes once each, however many Solids share one.
  std::map<const multibody::TriangleMesh*, int> mesh_index;
  std::vector<const multibody::TriangleMesh*> meshes;
  *out += ",";
  AppendKey("solids", out);
  out->push_back('[');
  for (size_t i = 0; i < scene.solids().size(); ++i) {
    const SceneSolid& s = scene.solids()[i];
    if (i > 0) out->push_back(',');
    *out += "{";
    AppendKey("name", out);
    AppendString(s.name, out);
    *out += ",";
    AppendKey("shape", out);
    AppendString(ShapeName(s.shape), out);
    *out += ",";
    AppendKey("body", out);
    *out += std::to_string(s.body) + ",";
    AppendKey("position", out);
    AppendVector(s.X_BS.translation.data(), 3, out);
    *out += ",";
    const Eigen::Quaterniond q(s.X_BS.rotation);
    const double wxyz[4] = {q.w(), q.x(), q.y(), q.z()};
    AppendKey("quaternion", out);
    AppendVector(wxyz, 4, out);
    *out += ",";
    AppendKey("color", out);
    AppendVector(s.color.data(), 3, out);
    *out += ",";
    AppendKey("radius", out);
    AppendNumber(s.radius, out);
    *out += ",";
    AppendKey("length", out);
    AppendNumber(s.length, out);
    *out += ",";
    AppendKey("size", out);
    AppendVector(s.size.data(), 3, out);
    if (s.shape == multibody::ShapeKind::kMesh && s.mesh) {
      auto [it, added] = mesh_index.emplace(s.mesh.get(), static_cast<int>(meshes.size()));
      if (added) meshes.push_back(s.mesh.get());
      *out += ",";
      AppendKey("mesh", out);
      *out += std::to_string(it->second);
    }
    *out += "}";
  }
  *out += "],";
  AppendKey("meshes", out);
  out->push_back('[');
  for (size_t m = 0; m < meshes.size(); ++m) {
    if (m > 0) out->push_back(',');
    std::vector<float> vertices;
    vertices.reserve(meshes[m]->vertices.size() * 3);
    for (const Eigen::Vector3d& v : meshes[m]->vertices) {
      for (int k = 0; k < 3; ++k) vertices.push_back(static_cast<float>(v[k]));
    }
    std::vector<uint32_t> triangles;
    triangles.reserve(meshes[m]->triangles.size() * 3);
    for (const std::array<int, 3>& t : meshes[m]->triangles) {
      for (int k = 0; k < 3; ++k) triangles.push_back(static_cast<uint32_t>(t[k]));
    }
    *out += "{";
    AppendKey("vertices", out);
    AppendArray(vertices, out);
    *out += ",";
    AppendKey("triangles", out);
    AppendArray(triangles, out);
    *out += "}";
  }
  *out += "],";

  AppendKey("contacts", out);
  out->push_back('[');
  for (size_t k = 0; k < scene.contacts().size(); ++k) {
    if (k > 0) out->push_back(',');
    *out += "{";
    AppendKey("name", out);
    AppendString(scene.contacts()[k].name, out);
    *out += "}";
  }
  *out += "],";
  const size_t nc = scene.contacts().size();
  std::vector<float> contacts;
  contacts.reserve(frames.size() * nc * SceneRecorder::kContactFloats);
  for (int row : frames) {
    const float* p =
        scene.contact_data().data() + static_cast<size_t>(row) * nc * SceneRecorder::kContactFloats;
    contacts.insert(contacts.end(), p, p + nc * SceneRecorder::kContactFloats);
  }
  AppendKey("contact_data", out);
  AppendArray(contacts, out);
  *out += "}";
}

}  // namespace

std::vector<int> SelectRows(int num_rows, int max_rows) {
  if (max_rows < 2) {
    throw std::invalid_argument("SelectRows: max_rows must be at least 2, got " +
                                std::to_string(max_rows));
  }
  std::vector<int> rows;
  if (num_rows <= max_rows) {
    for (int r = 0; r < num_rows; ++r) rows.push_back(r);
    return rows;
  }
  // Evenly spaced in row index, the last row always among them.
  const double stride = static_cast<double>(num_rows - 1) / (max_rows - 1);
  for (int i = 0; i < max_rows; ++i) {
    rows.push_back(i == max_rows - 1 ? num_rows - 1 : static_cast<int>(std::lround(i * stride)));
  }
  return rows;
}

std::string ReportDataJson(const std::vector<ReportRun>& runs, const ReportOptions& options) {
  if (options.max_plot_rows < 2 || options.max_frames < 2) {
    throw std::invalid_argument("ReportOptions: max_plot_rows and max_frames must be >= 2");
  }
  std::string out = "{";
  AppendKey("format", &out);
  out += "1,";
  AppendKey("title", &out);
  AppendString(options.title, &out);
  out += ",";
  AppendKey("runs", &out);
  out += "[";
  for (size_t i = 0; i < runs.size(); ++i) {
    const ReportRun& run = runs[i];
    if (run.recording == nullptr) {
      throw std::invalid_argument("report run '" + run.label + "' has no recording");
    }
    const graph::Recording& rec = *run.recording;
    if (run.scene != nullptr && run.scene->num_rows() < rec.num_rows()) {
      throw std::invalid_argument("report run '" + run.label + "': the scene has " +
                                  std::to_string(run.scene->num_rows()) + " rows, its recording " +
                                  std::to_string(rec.num_rows()));
    }
    const std::vector<int> rows = SelectRows(rec.num_rows(), options.max_plot_rows);
    std::vector<double> time(rows.size());
    for (size_t r = 0; r < rows.size(); ++r) time[r] = rec.time(rows[r]);
    if (i > 0) out += ",";
    out += "{";
    AppendKey("label", &out);
    AppendString(run.label, &out);
    out += ",";
    AppendKey("rows", &out);
    out += std::to_string(rec.num_rows()) + ",";
    AppendKey("kept", &out);
    out += std::to_string(rows.size()) + ",";
    AppendKey("time", &out);
    AppendArray(time, &out);
    out += ",";
    AppendKey("signals", &out);
    AppendSignals(rec, rows, &out);
    out += ",";
    AppendKey("scene", &out);
    if (run.scene != nullptr && !run.scene->empty()) {
      AppendScene(rec, *run.scene, options.max_frames, &out);
    } else {
      out += "null";
    }
    out += "}";
  }
  out += "]}";
  return out;
}

std::string HtmlReport(const std::vector<ReportRun>& runs, const ReportOptions& options) {
  const std::string data = ReportDataJson(runs, options);
  std::string title;
  for (const char ch : options.title) {
    switch (ch) {
      case '<':
        title += "&lt;";
        break;
      case '>':
        title += "&gt;";
        break;
      case '&':
        title += "&amp;";
        break;
      default:
        title.push_back(ch);
    }
  }
  const std::pair<std::string_view, std::string_view> parts[] = {
      {"@TB_TITLE@", title},
      {"@TB_STYLE@", internal::kPageStyle},
      {"@TB_DATA@", data},
      {"@TB_SCRIPT@", internal::kPageScript}};
  std::string page;
  page.reserve(internal::kPageTemplate.size() + internal::kPageStyle.size() +
               internal::kPageScript.size() + data.size() + title.size());
  std::string_view rest = internal::kPageTemplate;
  for (const auto& [marker, text] : parts) {
    const size_t at = rest.find(marker);
    if (at == std::string_view::npos) {
      throw std::logic_error("the report page template has no " + std::string(marker));
    }
    page.append(rest.substr(0, at));
    page.append(text);
    rest.remove_prefix(at + marker.size());
  }
  page.append(rest);
  return page;
}

void WriteHtmlReport(const std::vector<ReportRun>& runs, const ReportOptions& options,
                     const std::string& path) {
  const std::string page = HtmlReport(runs, options);
  graph::WriteWholeFile(path, page);
}

std::vector<unsigned char> DecodeBase64(const std::string& text) {
  std::vector<unsigned char> bytes;
  bytes.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  for (const char ch : text) {
    if (ch == '=') break;
    const char* at = std::strchr(kBase64Alphabet, ch);
    if (ch == '\0' || at == nullptr) {
      throw std::invalid_argument(std::string("base64: unexpected character '") + ch + "'");
    }
    acc = (acc << 6) | static_cast<uint32_t>(at - kBase64Alphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<unsigned char>((acc >> bits) & 0xFF));
    }
  }
  return bytes;
}

}  // namespace twinblocks::report
