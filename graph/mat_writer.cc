#include "graph/mat_writer.h"

#include <array>
#include <cctype>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <utility>

#ifdef TWINBLOCKS_MATIO
#include <matio.h>
#endif

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

using MatFile = std::unique_ptr<mat_t, int (*)(mat_t*)>;
using MatVar = std::unique_ptr<matvar_t, void (*)(matvar_t*)>;

// A field value. Options 0: matio copies the data (so the const_casts never lead to a write)
// and frees its copy with the struct.
matvar_t* DoubleMatrix(const std::vector<double>& column_major, size_t rows, size_t cols) {
  size_t dims[2] = {rows, cols};
  return Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims,
                       column_major.empty() ? nullptr : const_cast<double*>(column_major.data()),
                       0);
}

matvar_t* CharRow(const std::string& text) {
  size_t dims[2] = {1, text.size()};
  return Mat_VarCreate(nullptr, MAT_C_CHAR, MAT_T_UINT8, 2, dims,
                       text.empty() ? nullptr : const_cast<char*>(text.data()), 0);
}

}  // namespace

void WriteMat(const Recording& recording, const std::string& path) {
  // MAT v5 only: MAT_FT_MAT73 would need HDF5, which neither the format choice nor the link
  // of this library should depend on.
  MatFile file(
      Mat_CreateVer(path.c_str(), "MATLAB 5.0 MAT-file, written by twinblocks", MAT_FT_MAT5),
      &Mat_Close);
  if (!file) throw std::runtime_error("cannot write results to '" + path + "'");

  const std::vector<LoggedSignal>& signals = recording.signals();
  std::vector<std::string> logged_names;
  for (const LoggedSignal& s : signals) logged_names.push_back(s.name);
  const std::vector<std::string> names = MatVariableNames(logged_names);

  const size_t rows = static_cast<size_t>(recording.num_rows());
  std::vector<double> time(rows);
  for (size_t r = 0; r < rows; ++r) time[r] = recording.time(static_cast<int>(r));

  const char* const fields[] = {"time", "values", "signal", "name", nullptr};
  size_t one_by_one[2] = {1, 1};
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

    MatVar var(Mat_VarCreateStruct2(names[i].c_str(), 2, one_by_one, fields), &Mat_VarFree);
    if (!var) throw std::runtime_error("error writing results to '" + path + "'");
    const std::array<std::pair<const char*, matvar_t*>, 4> field_values = {{
        {"time", DoubleMatrix(time, rows, 1)},
        {"values", DoubleMatrix(values, rows, s.width)},
        {"signal", CharRow(s.source)},
        {"name", CharRow(s.name)},
    }};
    bool made = true;
    for (const auto& [field, value] : field_values) {
      // The struct owns each field once set (and frees it with itself); one that matio could
      // not make is null and leaves nothing to free.
      made = made && value != nullptr;
      if (value != nullptr) Mat_VarSetStructFieldByName(var.get(), field, 0, value);
    }
    if (!made || Mat_VarWrite(file.get(), var.get(), MAT_COMPRESSION_NONE) != 0) {
      throw std::runtime_error("error writing results to '" + path + "'");
    }
  }
  if (Mat_Close(file.release()) != 0) {
    throw std::runtime_error("error writing results to '" + path + "'");
  }
}

#else

bool MatSupported() { return false; }

void WriteMat(const Recording&, const std::string& path) {
  throw std::runtime_error("cannot write '" + path +
                           "': twinblocks was built without MAT support (libmatio)");
}

#endif

}  // namespace twinblocks::graph
