#include "io/mat_writer.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/detail/plugin_loader.h"
#include "common/output_file.h"
#include "io/detail/mat_plugin.h"

namespace twinblocks::graph {

namespace {

// MATLAB's `namelengthmax`.
constexpr size_t kMaxNameLength = 63;

// Keywords of MATLAB (`iskeyword`) and Octave: `load` would make variables nobody can name.
bool IsKeyword(std::string_view name) {
  static constexpr std::array<std::string_view, 44> kKeywords = {"break",
                                                                 "case",
                                                                 "catch",
                                                                 "classdef",
                                                                 "continue",
                                                                 "do",
                                                                 "else",
                                                                 "elseif",
                                                                 "end",
                                                                 "end_try_catch",
                                                                 "end_unwind_protect",
                                                                 "endclassdef",
                                                                 "endenumeration",
                                                                 "endevents",
                                                                 "endfor",
                                                                 "endfunction",
                                                                 "endif",
                                                                 "endmethods",
                                                                 "endparfor",
                                                                 "endproperties",
                                                                 "endspmd",
                                                                 "endswitch",
                                                                 "endwhile",
                                                                 "enumeration",
                                                                 "events",
                                                                 "for",
                                                                 "function",
                                                                 "global",
                                                                 "if",
                                                                 "methods",
                                                                 "otherwise",
                                                                 "parfor",
                                                                 "persistent",
                                                                 "properties",
                                                                 "return",
                                                                 "spmd",
                                                                 "switch",
                                                                 "try",
                                                                 "until",
                                                                 "unwind_protect",
                                                                 "unwind_protect_cleanup",
                                                                 "while",
                                                                 "arguments",
                                                                 "endarguments"};
  for (std::string_view k : kKeywords) {
    if (k == name) return true;
  }
  return false;
}

std::string Identifier(const std::string& signal_name) {
  std::string id;
  for (unsigned char c : signal_name) id += std::isalnum(c) != 0 || c == '_' ? char(c) : '_';
  if (id.empty() || std::isalpha(static_cast<unsigned char>(id[0])) == 0 || IsKeyword(id)) {
    id.insert(0, "s_");
  }
  return id.substr(0, kMaxNameLength);
}

}  // namespace

std::vector<std::string> MatVariableNames(const std::vector<std::string>& signal_names) {
  std::vector<std::string> names;
  std::unordered_set<std::string> taken;
  for (const std::string& signal_name : signal_names) {
    const std::string base = Identifier(signal_name);
    std::string name = base;
    for (int n = 2; taken.count(name) != 0; ++n) {
      std::string suffix = std::to_string(n);
      suffix.insert(suffix.begin(), '_');
      name = base.substr(0, kMaxNameLength - suffix.size()) + suffix;
    }
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

#ifdef TWINBLOCKS_MATIO

bool MatSupported() { return true; }

namespace {

const internal::MatPlugin& MatWriter(const std::string& path) {
  try {
    return blocks::internal::Plugin<internal::MatPlugin>("mat");
  } catch (const std::runtime_error& ex) {
    throw std::runtime_error("cannot write '" + path + "': " + ex.what());
  }
}

}  // namespace

void PrepareWriteMat(const std::string& path) { MatWriter(path); }

void WriteMat(const Recording& recording, const std::string& path) {
  const internal::MatPlugin* mat = &MatWriter(path);
  errno = 0;
  std::unique_ptr<void, bool (*)(void*)> file(mat->create(path), mat->close);
  if (!file) {
    const int error = errno;
    throw OutputFileError(path, error != 0 ? std::strerror(error) : "libmatio could not create it",
                          /*opened=*/false);
  }
  // Half a .mat file is no .mat file: a failed write removes it (a device is left alone).
  const auto fail = [&path](const char* otherwise) {
    const int error = errno;
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) std::filesystem::remove(path, ec);
    return OutputFileError(path, error != 0 ? std::strerror(error) : otherwise, /*opened=*/true);
  };

  const std::vector<LoggedSignal>& signals = recording.signals();
  std::vector<std::string> logged_names;
  for (const LoggedSignal& s : signals) logged_names.push_back(s.name);
  const std::vector<std::string> names = MatVariableNames(logged_names);

  const size_t rows = static_cast<size_t>(recording.num_rows());
  std::vector<double> time(rows);
  for (size_t r = 0; r < rows; ++r) time[r] = recording.time(static_cast<int>(r));

  int first_column = 0;
  std::vector<double> values;
  for (size_t i = 0; i < signals.size(); ++i) {
    const LoggedSignal& s = signals[i];
    values.resize(rows * static_cast<size_t>(s.width));
    for (int c = 0; c < s.width; ++c) {
      for (size_t r = 0; r < rows; ++r) {
        values[c * rows + r] = recording.value(static_cast<int>(r), first_column + c);
      }
    }
    first_column += s.width;
    if (!mat->write_signal(file.get(), names[i], time.data(), rows, values.data(),
                           static_cast<size_t>(s.width), s.source, s.name)) {
      throw fail("libmatio could not write a variable");
    }
  }
  if (!mat->close(file.release())) throw fail("libmatio could not close the file");
  const int write_errno = errno;  // what its last failed write left, if any
  // libmatio does not report every failed write (its buffered writes end in an fclose whose
  // error it drops): read the file back, so that a full disk is a failure and not a
  // truncated file reported as written.
  const std::optional<std::vector<internal::MatSignalStruct>> back = mat->read(path);
  if (!back || back->size() != signals.size()) {
    errno = write_errno;
    throw fail("the file does not read back whole (a full disk, or a file-size limit)");
  }
}

#else

bool MatSupported() { return false; }

void PrepareWriteMat(const std::string& path) { WriteMat(Recording(), path); }

void WriteMat(const Recording&, const std::string& path) {
  throw std::runtime_error("cannot write '" + path +
                           "': twinblocks was built without MAT support (libmatio)");
}

#endif

}  // namespace twinblocks::graph
