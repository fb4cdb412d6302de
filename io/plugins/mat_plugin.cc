// libtwinblocks_mat.so: MATLAB v5 files written and read through libmatio, opened by
// io/mat_writer.cc and io/results_reader.cc on first use (common/detail/plugin_loader.h
// says why).
#include "io/detail/mat_plugin.h"

#include <matio.h>

#include <array>
#include <cstdint>
#include <memory>
#include <utility>

namespace twinblocks::graph::internal {
namespace {

using MatFile = std::unique_ptr<mat_t, int (*)(mat_t*)>;
using MatVar = std::unique_ptr<matvar_t, void (*)(matvar_t*)>;

// A field value. Options 0: matio copies the data (so the const_casts never lead to a write)
// and frees its copy with the struct.
matvar_t* DoubleMatrix(const double* column_major, size_t rows, size_t cols) {
  size_t dims[2] = {rows, cols};
  return Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims,
                       rows * cols == 0 ? nullptr : const_cast<double*>(column_major), 0);
}

matvar_t* CharRow(const std::string& text) {
  size_t dims[2] = {1, text.size()};
  return Mat_VarCreate(nullptr, MAT_C_CHAR, MAT_T_UINT8, 2, dims,
                       text.empty() ? nullptr : const_cast<char*>(text.data()), 0);
}

void* Create(const std::string& path) {
  // MAT v5 only: MAT_FT_MAT73 would need HDF5, which neither the format choice nor the link
  // of this library should depend on.
  return Mat_CreateVer(path.c_str(), "MATLAB 5.0 MAT-file, written by twinblocks", MAT_FT_MAT5);
}

bool WriteSignal(void* file, const std::string& variable, const double* time, size_t rows,
                 const double* values, size_t width, const std::string& signal,
                 const std::string& name) {
  const char* const fields[] = {"time", "values", "signal", "name", nullptr};
  size_t one_by_one[2] = {1, 1};
  MatVar var(Mat_VarCreateStruct2(variable.c_str(), 2, one_by_one, fields), &Mat_VarFree);
  if (!var) return false;
  const std::array<std::pair<const char*, matvar_t*>, 4> field_values = {{
      {"time", DoubleMatrix(time, rows, 1)},
      {"values", DoubleMatrix(values, rows, width)},
      {"signal", CharRow(signal)},
      {"name", CharRow(name)},
  }};
  bool made = true;
  for (const auto& [field, value] : field_values) {
    // The struct owns each field once set (and frees it with itself); one that matio could
    // not make is null and leaves nothing to free.
    made = made && value != nullptr;
    if (value != nullptr) Mat_VarSetStructFieldByName(var.get(), field, 0, value);
  }
  return made && Mat_VarWrite(static_cast<mat_t*>(file), var.get(), MAT_COMPRESSION_NONE) == 0;
}

bool Close(void* file) { return Mat_Close(static_cast<mat_t*>(file)) == 0; }

std::optional<MatMatrix> DoubleMatrixOf(const matvar_t* v) {
  if (v == nullptr || v->class_type != MAT_C_DOUBLE || v->rank != 2 || v->isComplex != 0 ||
      (v->data == nullptr && v->dims[0] * v->dims[1] != 0)) {
    return std::nullopt;
  }
  MatMatrix m;
  m.rows = v->dims[0];
  m.cols = v->dims[1];
  const auto* data = static_cast<const double*>(v->data);
  if (data != nullptr) m.data.assign(data, data + m.rows * m.cols);
  return m;
}

std::optional<std::string> CharText(const matvar_t* v) {
  if (v == nullptr || v->class_type != MAT_C_CHAR || v->rank != 2 || v->dims[0] > 1) {
    return std::nullopt;
  }
  if (v->data == nullptr) return std::string();
  // MAT v5 char data is read back as 8-bit or as 16-bit (UTF-16) characters.
  std::string text;
  const size_t n = v->dims[1];
  if (v->data_type == MAT_T_UINT8 || v->data_type == MAT_T_INT8 || v->data_type == MAT_T_UTF8) {
    text.assign(static_cast<const char*>(v->data), n);
  } else if (v->data_type == MAT_T_UINT16 || v->data_type == MAT_T_UTF16) {
    const auto* wide = static_cast<const uint16_t*>(v->data);
    for (size_t i = 0; i < n; ++i) text += wide[i] < 128 ? char(wide[i]) : '?';
  } else {
    return std::nullopt;
  }
  return text;
}

std::optional<std::vector<MatSignalStruct>> Read(const std::string& path) {
  MatFile file(Mat_Open(path.c_str(), MAT_ACC_RDONLY), &Mat_Close);
  if (!file) return std::nullopt;
  std::vector<MatSignalStruct> structs;
  for (;;) {
    MatVar var(Mat_VarReadNext(file.get()), &Mat_VarFree);
    if (!var) break;
    if (var->class_type != MAT_C_STRUCT) continue;
    const matvar_t* time = Mat_VarGetStructFieldByName(var.get(), "time", 0);
    const matvar_t* values = Mat_VarGetStructFieldByName(var.get(), "values", 0);
    const matvar_t* name = Mat_VarGetStructFieldByName(var.get(), "name", 0);
    if (time == nullptr || values == nullptr || name == nullptr) continue;
    structs.push_back({var->name != nullptr ? var->name : "?", DoubleMatrixOf(time),
                       DoubleMatrixOf(values), CharText(name)});
  }
  return structs;
}

constexpr MatPlugin kTable{&Create, &WriteSignal, &Close, &Read};

}  // namespace
}  // namespace twinblocks::graph::internal

extern "C" const void* twinblocks_mat_plugin(int abi_version) {
  using twinblocks::graph::internal::MatPlugin;
  return abi_version == MatPlugin::kAbiVersion ? &twinblocks::graph::internal::kTable : nullptr;
}
