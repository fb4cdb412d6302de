// graph::WriteMat: a run's Recording as a MATLAB v5 .mat file, read back with libmatio (every
// struct, its field sizes, and values bitwise equal to the Recording); the variable names it
// derives from signal names; one-line errors.
#include "io/mat_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

#ifdef TWINBLOCKS_MATIO
#include <matio.h>
#endif

namespace twinblocks::graph {
namespace {

namespace fs = std::filesystem;

TEST(MatVariableNamesTest, MakesValidUniqueMatlabNames) {
  EXPECT_EQ(MatVariableNames({"x", "v.y", "arm/joint1.q", "1st", "_x", "end", "for", "", "a b"}),
            (std::vector<std::string>{"x", "v_y", "arm_joint1_q", "s_1st", "s__x", "s_end", "s_for",
                                      "s_", "a_b"}));
  // Collisions: the later signals get _2, _3 ...; a name already ending in _2 is taken too.
  EXPECT_EQ(MatVariableNames({"a.b", "a/b", "a_b", "a_b_2"}),
            (std::vector<std::string>{"a_b", "a_b_2", "a_b_3", "a_b_2_2"}));
  // MATLAB's 63 characters, also with a suffix.
  const std::string long_name(70, 'q');
  const std::vector<std::string> cut = MatVariableNames({long_name, long_name + "r"});
  EXPECT_EQ(cut[0], std::string(63, 'q'));
  EXPECT_EQ(cut[1], std::string(61, 'q') + "_2");
}

#ifdef TWINBLOCKS_MATIO

struct MatVarDeleter {
  void operator()(matvar_t* v) const { Mat_VarFree(v); }
};
using MatVarPtr = std::unique_ptr<matvar_t, MatVarDeleter>;

std::string CharField(matvar_t* s, const char* field) {
  matvar_t* f = Mat_VarGetStructFieldByName(s, field, 0);
  if (f == nullptr) return "<no field>";
  EXPECT_EQ(f->class_type, MAT_C_CHAR) << field;
  EXPECT_EQ(f->rank, 2);
  EXPECT_EQ(f->dims[0], f->dims[1] == 0 ? f->dims[0] : 1u) << field;
  const size_t n = f->dims[0] * f->dims[1];
  if (n == 0) return "";
  EXPECT_EQ(f->data_size, 1) << field;
  return std::string(static_cast<const char*>(f->data), n);
}

// The doubles of a field, column-major, after checking its size.
std::vector<double> DoubleField(matvar_t* s, const char* field, size_t rows, size_t cols) {
  matvar_t* f = Mat_VarGetStructFieldByName(s, field, 0);
  EXPECT_NE(f, nullptr) << field;
  if (f == nullptr) return {};
  EXPECT_EQ(f->class_type, MAT_C_DOUBLE) << field;
  EXPECT_EQ(f->rank, 2) << field;
  EXPECT_EQ(f->dims[0], rows) << field;
  EXPECT_EQ(f->dims[1], cols) << field;
  if (f->dims[0] != rows || f->dims[1] != cols || rows * cols == 0) return {};
  const double* d = static_cast<const double*>(f->data);
  return std::vector<double>(d, d + rows * cols);
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Reads `path` with libmatio and expects exactly the structs WriteMat promises for `rec`.
void ExpectMatHolds(const std::string& path, const Recording& rec) {
  std::unique_ptr<mat_t, int (*)(mat_t*)> mat(Mat_Open(path.c_str(), MAT_ACC_RDONLY), &Mat_Close);
  ASSERT_NE(mat, nullptr) << path;
  EXPECT_EQ(Mat_GetVersion(mat.get()), MAT_FT_MAT5);

  std::vector<std::string> names;
  for (const LoggedSignal& s : rec.signals()) names.push_back(s.name);
  const std::vector<std::string> expected_vars = MatVariableNames(names);

  const size_t rows = static_cast<size_t>(rec.num_rows());
  int first_column = 0;
  size_t i = 0;
  for (MatVarPtr var(Mat_VarReadNext(mat.get())); var; var.reset(Mat_VarReadNext(mat.get()))) {
    ASSERT_LT(i, rec.signals().size()) << "extra variable " << var->name;
    const LoggedSignal& sig = rec.signals()[i];
    SCOPED_TRACE(sig.name);
    EXPECT_EQ(std::string(var->name), expected_vars[i]);
    ASSERT_EQ(var->class_type, MAT_C_STRUCT);
    ASSERT_EQ(var->rank, 2);
    EXPECT_EQ(var->dims[0] * var->dims[1], 1u);
    EXPECT_EQ(Mat_VarGetNumberOfFields(var.get()), 4u);
    EXPECT_EQ(CharField(var.get(), "signal"), sig.source);
    EXPECT_EQ(CharField(var.get(), "name"), sig.name);

    const std::vector<double> time = DoubleField(var.get(), "time", rows, 1);
    const std::vector<double> values = DoubleField(var.get(), "values", rows, sig.width);
    if (rows > 0) {
      ASSERT_EQ(time.size(), rows);
      ASSERT_EQ(values.size(), rows * sig.width);
    }
    for (size_t r = 0; r < rows && !time.empty(); ++r) {
      EXPECT_TRUE(SameBits(time[r], rec.time(static_cast<int>(r)))) << "time row " << r;
      for (int c = 0; c < sig.width; ++c) {
        const double want = rec.value(static_cast<int>(r), first_column + c);
        EXPECT_TRUE(SameBits(values[c * rows + r], want))
            << "row " << r << " column " << c << ": " << values[c * rows + r] << " vs " << want;
      }
    }
    first_column += sig.width;
    ++i;
  }
  EXPECT_EQ(i, rec.signals().size()) << "structs in " << path;
}

const char kRun[] = R"(<model name="m" format="1">
<simulation solver="ode45" t_end="2"/>
<block type="Clock" name="clock"/>
<block type="Gain" name="spring" k="-4"/>
<block type="Integrator" name="v" x0="0"/>
<block type="Integrator" name="x" x0="1"/>
<block type="Mux" name="both" inputs="2"/>
<connect from="spring.y" to="v.u"/>
<connect from="v.y" to="x.u"/>
<connect from="x.y" to="spring.u"/>
<connect from="x.y" to="both.u1"/>
<connect from="clock.t" to="both.u2"/>
<log signal="x.y"/>
<log signal="v.y" as="x_y"/>
<log signal="both.y" as="end"/>
</model>)";

TEST(MatWriterTest, RunResultsReadBackBitwise) {
  const System system = Compile(xml::ReadModelString(kRun, "m.xml"));
  Simulator sim(system, system.settings());
  ASSERT_TRUE(sim.Run().ok);
  const Recording& rec = sim.recording();
  ASSERT_GT(rec.num_rows(), 10);
  ASSERT_EQ(rec.signals().size(), 3u);
  ASSERT_EQ(rec.signals()[2].width, 2);

  const fs::path dir = testing::FreshDirectory("twinblocks_mat_", "run");
  const std::string path = (dir / "run.mat").string();
  WriteMat(rec, path);
  EXPECT_EQ(MatVariableNames({"x.y", "x_y", "end"}),
            (std::vector<std::string>{"x_y", "x_y_2", "s_end"}));
  ExpectMatHolds(path, rec);
}

TEST(MatWriterTest, SpecialValuesAndEmptyResults) {
  const std::vector<LoggedSignal> signals = {{"a", "a.y", 0, 1}, {"b", "b.y", 1, 3}};
  Recording rec(signals);
  const fs::path dir = testing::FreshDirectory("twinblocks_mat_", "special");

  // No rows (a run that failed at once): 0 x 1 and 0 x width fields.
  WriteMat(rec, (dir / "empty.mat").string());
  ExpectMatHolds((dir / "empty.mat").string(), rec);

  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double rows[][4] = {{1.0, -0.0, inf, -inf}, {nan, 5e-324, 1.7976931348623157e308, 0.1}};
  rec.Append(0.0, rows[0]);
  rec.Append(1.0 / 3.0, rows[1]);
  WriteMat(rec, (dir / "special.mat").string());
  ExpectMatHolds((dir / "special.mat").string(), rec);

  // No signals at all: a valid file with no variables.
  WriteMat(Recording(std::vector<LoggedSignal>{}), (dir / "none.mat").string());
  ExpectMatHolds((dir / "none.mat").string(), Recording(std::vector<LoggedSignal>{}));
}

TEST(MatWriterTest, UnwritablePathIsOneLine) {
  const fs::path dir = testing::FreshDirectory("twinblocks_mat_", "unwritable");
  const std::string path = (dir / "no_such_dir" / "r.mat").string();
  try {
    WriteMat(Recording(std::vector<LoggedSignal>{{"a", "a.y", 0, 1}}), path);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what, "cannot write '" + path + "': No such file or directory");
  }
}

#else  // no libmatio in this build

TEST(MatWriterTest, BuildWithoutMatSaysSo) {
  EXPECT_FALSE(MatSupported());
  try {
    WriteMat(Recording(std::vector<LoggedSignal>{}), "r.mat");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("built without MAT support"), std::string::npos);
  }
}

#endif

}  // namespace
}  // namespace twinblocks::graph
