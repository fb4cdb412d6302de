#include "xml/urdf_reader.h"

#include <stdexcept>
#include <string>
#include <string_view>

#include "model/model_error.h"
#include "xml/model_writer.h"

#ifdef TWINBLOCKS_URDF

#include <filesystem>

#include "common/input_file.h"
#include "xml/detail/urdf_converter.h"

#endif

namespace twinblocks::xml {

UrdfActuation ParseUrdfActuation(std::string_view word) {
  if (word == "none") return UrdfActuation::kNone;
  if (word == "torque") return UrdfActuation::kTorque;
  if (word == "motion") return UrdfActuation::kMotion;
  throw std::invalid_argument("unknown actuation '" + std::string(word) +
                              "'; expected one of: none torque motion");
}

std::string WriteImportedModelString(const UrdfImport& import, const std::string& source) {
  std::string text = WriteModelString(import.model);
  // "--" may not appear inside an XML comment.
  auto clean = [](std::string s) {
    for (size_t i = s.find("--"); i != std::string::npos; i = s.find("--", i))
      s.replace(i, 2, "- ");
    return s;
  };
  std::string comment = "<!-- Imported from " + clean(source) +
                        " by `twinblocks import` (docs/urdf.md): links are Solids, joints are "
                        "RigidTransforms and joint blocks in URDF's frames.";
  if (!import.notes.empty()) {
    comment += "\n     Not represented (no parameter for it):";
    for (const std::string& n : import.notes) comment += "\n     - " + clean(n);
  }
  comment += " -->\n";
  const size_t first_line = text.find('\n');
  text.insert(first_line == std::string::npos ? 0 : first_line + 1, comment);
  return text;
}

#ifndef TWINBLOCKS_URDF

bool UrdfSupported() { return false; }

namespace {
[[noreturn]] void NoUrdf(const std::string& file) {
  throw graph::ModelError({file, 0},
                          "this build of twinblocks has no URDF support (liburdfdom was not found "
                          "when it was configured: apt-get install liburdfdom-dev and rebuild)");
}
}  // namespace

UrdfImport ReadUrdfFile(const std::string& path, const UrdfImportOptions&) { NoUrdf(path); }
UrdfImport ReadUrdfString(const std::string&, const std::string& file_name,
                          const UrdfImportOptions&) {
  NoUrdf(file_name);
}

#else

bool UrdfSupported() { return true; }

using graph::ModelError;

UrdfImport ReadUrdfString(const std::string& text, const std::string& file_name,
                          const UrdfImportOptions& options) {
  return internal::UrdfConverter(text, file_name, options).Convert();
}

UrdfImport ReadUrdfFile(const std::string& path, const UrdfImportOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ModelError({path, 0}, "no such URDF file");
  std::string text;
  try {
    text = blocks::ReadTextFile(path);
  } catch (const blocks::InputFileError& e) {
    throw ModelError({path, 0}, "cannot read the URDF file: " + e.reason());
  }
  return ReadUrdfString(text, path, options);
}

#endif  // TWINBLOCKS_URDF

}  // namespace twinblocks::xml
