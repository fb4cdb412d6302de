// graph::ReadResultsCsv / ReadResultsMat: results written by Recording::WriteCsv and WriteMat
// read back bitwise (special values too), vector signals found by their stem, and one-line
// FILE:LINE errors for every kind of malformed file.
#include "io/results_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/mat_writer.h"
#include "runtime/results.h"
#include "tests/support/acceptance_helpers.h"

#ifdef TWINBLOCKS_MATIO
#include <matio.h>
#endif

namespace twinblocks::graph {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::WriteText;

constexpr const char* kPrefix = "twinblocks_results_reader_";

bool ReadBackSameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A recording of a scalar "x" and a 3-vector "q", with values a CSV must keep exactly.
Recording SampleRecording() {
  Recording rec(std::vector<LoggedSignal>{{"x", "a.y", 0, 1}, {"q", "arm.q", 1, 3}});
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double rows[3][4] = {
      {0.1, 1.0 / 3.0, -2e-300, 5e300}, {-inf, inf, nan, 0.0}, {-0.0, 123456789.125, 1e-14, -7.5}};
  for (int r = 0; r < 3; ++r) rec.Append(0.25 * r + 1e-17, rows[r]);
  return rec;
}

void ExpectTableHolds(const ResultsTable& table, const Recording& rec) {
  ASSERT_EQ(table.columns, rec.columns());
  ASSERT_EQ(table.num_rows(), rec.num_rows());
  for (int r = 0; r < rec.num_rows(); ++r) {
    EXPECT_TRUE(ReadBackSameBits(table.time[r], rec.time(r))) << "row " << r;
    for (int c = 0; c < rec.num_columns(); ++c) {
      const double want = rec.value(r, c);
      const double got = table.values[c][r];
      // A NaN's sign and payload need not survive text.
      EXPECT_TRUE(std::isnan(want) ? std::isnan(got) : ReadBackSameBits(got, want))
          << "row " << r << " column " << rec.columns()[c] << ": " << got << " vs " << want;
    }
  }
}

TEST(ResultsReaderTest, CsvReadsBackWhatRecordingWritesBitwise) {
  const fs::path dir = FreshDirectory(kPrefix, "round_trip");
  const Recording rec = SampleRecording();
  rec.WriteCsv((dir / "r.csv").string());
  const ResultsTable table = ReadResultsCsv((dir / "r.csv").string());
  ExpectTableHolds(table, rec);
  EXPECT_EQ(table.file, (dir / "r.csv").string());
  EXPECT_EQ(table.columns, (std::vector<std::string>{"x", "q[0]", "q[1]", "q[2]"}));
  EXPECT_EQ(table.FindColumn("q[1]"), 2);
  EXPECT_EQ(table.FindColumn("q"), -1);
  EXPECT_EQ(table.SignalColumns("q"), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(table.SignalColumns("x"), (std::vector<int>{0}));
  EXPECT_EQ(table.SignalColumns("q[2]"), (std::vector<int>{3}));
  EXPECT_TRUE(table.SignalColumns("y").empty());
  EXPECT_EQ(table.SignalNames(), (std::vector<std::string>{"x", "q"}));
  // ReadResults picks the CSV reader for anything but .mat.
  ExpectTableHolds(ReadResults((dir / "r.csv").string()), rec);
}

TEST(ResultsReaderTest, ToRecordingGivesBackTheRunsSignals) {
  const fs::path dir = FreshDirectory(kPrefix, "to_recording");
  const Recording rec = SampleRecording();
  rec.WriteCsv((dir / "r.csv").string());
  const Recording back = ToRecording(ReadResultsCsv((dir / "r.csv").string()));
  ASSERT_EQ(back.signals().size(), 2u);
  EXPECT_EQ(back.signals()[0].name, "x");
  EXPECT_EQ(back.signals()[1].name, "q");
  EXPECT_EQ(back.signals()[1].width, 3);
  EXPECT_EQ(back.columns(), rec.columns());
  ASSERT_EQ(back.num_rows(), rec.num_rows());
  for (int r = 0; r < rec.num_rows(); ++r) {
    EXPECT_TRUE(ReadBackSameBits(back.time(r), rec.time(r)));
    for (int c = 0; c < rec.num_columns(); ++c) {
      const double want = rec.value(r, c);
      EXPECT_TRUE(std::isnan(want) ? std::isnan(back.value(r, c))
                                   : ReadBackSameBits(back.value(r, c), want));
    }
  }
}

TEST(ResultsReaderTest, ToRecordingGathersElementsWhereverTheyStand) {
  const fs::path dir = FreshDirectory(kPrefix, "to_recording_loose");
  // w's elements out of order and apart; u[1] has no u[0]; "v" and "v[0]" are both columns.
  WriteText(dir / "r.csv", "time,w[1],\"a,b\",w[0],u[1],v,v[0]\n0,1,2,3,4,5,6\n");
  const Recording rec = ToRecording(ReadResultsCsv((dir / "r.csv").string()));
  std::vector<std::string> names;
  std::vector<int> widths;
  for (const LoggedSignal& s : rec.signals()) {
    names.push_back(s.name);
    widths.push_back(s.width);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"w", "a,b", "u[1]", "v", "v[0]"}));
  EXPECT_EQ(widths, (std::vector<int>{2, 1, 1, 1, 1}));
  ASSERT_EQ(rec.num_rows(), 1);
  // Columns in the recording's order: w[0], w[1], a,b, u[1], v, v[0].
  const std::vector<double> want = {3, 1, 2, 4, 5, 6};
  for (int c = 0; c < rec.num_columns(); ++c) EXPECT_EQ(rec.value(0, c), want[c]) << c;
}

TEST(ResultsReaderTest, CsvAcceptsQuotesCrLfBlankLinesAndHeaderOnly) {
  const fs::path dir = FreshDirectory(kPrefix, "variants");
  WriteText(dir / "a.csv", "time,\"a,b\",\"say \"\"hi\"\"\"\r\n\r\n0, 1 ,+2\r\n1,nan,-inf\r\n\n");
  const ResultsTable a = ReadResultsCsv((dir / "a.csv").string());
  EXPECT_EQ(a.columns, (std::vector<std::string>{"a,b", "say \"hi\""}));
  ASSERT_EQ(a.num_rows(), 2);
  EXPECT_EQ(a.values[0][0], 1.0);
  EXPECT_EQ(a.values[1][0], 2.0);
  EXPECT_TRUE(std::isnan(a.values[0][1]));
  EXPECT_EQ(a.values[1][1], -std::numeric_limits<double>::infinity());
  // A run that recorded nothing yet: a header and no rows.
  WriteText(dir / "b.csv", "time,x\n");
  const ResultsTable b = ReadResultsCsv((dir / "b.csv").string());
  EXPECT_EQ(b.num_rows(), 0);
  EXPECT_EQ(b.columns, (std::vector<std::string>{"x"}));
  // Element-like names that are not (no digits, nothing before the bracket) stay names.
  WriteText(dir / "c.csv", "time,v[a],[0],w[]\n0,1,2,3\n");
  EXPECT_EQ(ReadResultsCsv((dir / "c.csv").string()).SignalNames(),
            (std::vector<std::string>{"v[a]", "[0]", "w[]"}));
}

struct BadCsv {
  const char* name;
  const char* text;
  const char* says;  // after "FILE:"
};

TEST(ResultsReaderTest, MalformedCsvIsOneLineWithFileAndLine) {
  const fs::path dir = FreshDirectory(kPrefix, "bad");
  const BadCsv cases[] = {
      {"not_time", "t,x\n0,1\n", "1: the first column is 't', expected 'time'"},
      {"twice", "time,x,y,x\n", "1: column 'x' appears twice"},
      {"unnamed", "time,x,\n", "1: column 3 has no name"},
      {"short_row", "time,x,y\n0,1,2\n0.5,1,2\n\n1,2\n",
       "5: 2 fields, expected 3 as in the header"},
      {"long_row", "time,x\n0,1,2\n", "2: 3 fields, expected 2"},
      {"not_number", "time,x,y\n0,1,2\n1,2,abc\n", "3: column 'y': 'abc' is not a number"},
      {"empty_field", "time,x\n0,\n", "2: column 'x': '' is not a number"},
      {"trailing_text", "time,x\n0,1.5kg\n", "2: column 'x': '1.5kg' is not a number"},
      {"bad_time", "time,x\nzero,1\n", "2: column 'time': 'zero' is not a number"},
      {"backwards", "time,x\n0,1\n0.5,1\n0.25,1\n",
       "4: time 0.25 is before the previous row's 0.5"},
      {"nan_time", "time,x\nnan,1\n", "2: time nan is not finite"},
      {"quote", "time,\"x\n0,1\n", "1: unbalanced quotes"},
      {"after_quote", "time,\"x\"y\n", "1: unbalanced quotes"},
  };
  for (const BadCsv& c : cases) {
    const fs::path path = dir / (std::string(c.name) + ".csv");
    WriteText(path, c.text);
    try {
      ReadResultsCsv(path.string());
      ADD_FAILURE() << c.name << ": no error";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_THAT(what, HasSubstr(path.string() + ":" + c.says)) << c.name;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

TEST(ResultsReaderTest, MissingAndEmptyFilesSaySo) {
  const fs::path dir = FreshDirectory(kPrefix, "missing");
  const std::string missing = (dir / "none.csv").string();
  try {
    ReadResultsCsv(missing);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              missing + ": cannot read the results file: No such file or directory");
  }
  WriteText(dir / "empty.csv", "\n\n");
  try {
    ReadResultsCsv((dir / "empty.csv").string());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("empty.csv: empty, expected a header line 'time,...'"));
  }
}

TEST(ResultsReaderTest, MatReadsBackWhatWriteMatWrites) {
  if (!MatReadSupported()) GTEST_SKIP() << "built without libmatio";
  const fs::path dir = FreshDirectory(kPrefix, "mat");
  const Recording rec = SampleRecording();
  WriteMat(rec, (dir / "r.mat").string());
  ExpectTableHolds(ReadResultsMat((dir / "r.mat").string()), rec);
  // By extension, either case.
  WriteMat(rec, (dir / "R.MAT").string());
  ExpectTableHolds(ReadResults((dir / "R.MAT").string()), rec);
  // Signal names that are no MATLAB names come back from the struct's name field.
  Recording odd(std::vector<LoggedSignal>{{"arm/j1.q", "arm/j1.q", 0, 2}});
  const double row[2] = {1.0, 2.0};
  odd.Append(0.0, row);
  WriteMat(odd, (dir / "odd.mat").string());
  EXPECT_EQ(ReadResultsMat((dir / "odd.mat").string()).columns,
            (std::vector<std::string>{"arm/j1.q[0]", "arm/j1.q[1]"}));
}

TEST(ResultsReaderTest, MatErrorsAreOneLine) {
  if (!MatReadSupported()) GTEST_SKIP() << "built without libmatio";
  const fs::path dir = FreshDirectory(kPrefix, "bad_mat");
  WriteText(dir / "text.mat", "time,x\n0,1\n");
  WriteMat(Recording(std::vector<LoggedSignal>{}), (dir / "none.mat").string());
  const std::pair<std::string, std::string> cases[] = {
      {(dir / "text.mat").string(), "cannot read as a .mat file"},
      {(dir / "missing.mat").string(), "cannot read as a .mat file: No such file or directory"},
      {(dir / "none.mat").string(), "no twinblocks signals in the .mat file"},
  };
  for (const auto& [path, says] : cases) {
    try {
      ReadResults(path);
      ADD_FAILURE() << path << ": no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), path + ": " + says);
    }
  }
}

#ifdef TWINBLOCKS_MATIO
// Writes structs {time, values, name} as given, for files WriteMat would never write.
struct MatSignal {
  std::string variable;
  std::vector<double> time;
  std::vector<double> values;  // column-major, rows x cols
  size_t rows, cols;
};

void WriteStructs(const std::string& path, const std::vector<MatSignal>& signals) {
  mat_t* file = Mat_CreateVer(path.c_str(), nullptr, MAT_FT_MAT5);
  ASSERT_NE(file, nullptr);
  const char* fields[] = {"time", "values", "name"};
  for (const MatSignal& s : signals) {
    size_t one[2] = {1, 1};
    matvar_t* var = Mat_VarCreateStruct(s.variable.c_str(), 2, one, fields, 3);
    size_t tdims[2] = {s.time.size(), 1};
    size_t vdims[2] = {s.rows, s.cols};
    size_t ndims[2] = {1, s.variable.size()};
    Mat_VarSetStructFieldByName(var, "time", 0,
                                Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, tdims,
                                              const_cast<double*>(s.time.data()), 0));
    Mat_VarSetStructFieldByName(var, "values", 0,
                                Mat_VarCreate(nullptr, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, vdims,
                                              const_cast<double*>(s.values.data()), 0));
    Mat_VarSetStructFieldByName(var, "name", 0,
                                Mat_VarCreate(nullptr, MAT_C_CHAR, MAT_T_UINT8, 2, ndims,
                                              const_cast<char*>(s.variable.data()), 0));
    Mat_VarWrite(file, var, MAT_COMPRESSION_NONE);
    Mat_VarFree(var);
  }
  Mat_Close(file);
}

TEST(ResultsReaderTest, MatStructsThatAreNoSignalsAreOneLine) {
  const fs::path dir = FreshDirectory(kPrefix, "odd_mat");
  const std::string sizes = (dir / "sizes.mat").string();
  WriteStructs(sizes, {{"a", {0, 1, 2}, {1, 2}, 2, 1}});
  const std::string times = (dir / "times.mat").string();
  WriteStructs(times, {{"a", {0, 1}, {1, 2}, 2, 1}, {"b", {0, 2}, {3, 4}, 2, 1}});
  const std::pair<std::string, std::string> cases[] = {
      {sizes, "variable 'a' is not a twinblocks signal (time N x 1, values N x width, name text)"},
      {times, "variable 'b' has other times than the signals before it"},
  };
  for (const auto& [path, says] : cases) {
    try {
      ReadResultsMat(path);
      ADD_FAILURE() << path << ": no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), path + ": " + says);
    }
  }
  // The same structs with agreeing sizes read as signals.
  const std::string good = (dir / "good.mat").string();
  WriteStructs(good, {{"a", {0, 1}, {1, 2}, 2, 1}, {"b", {0, 1}, {3, 4, 5, 6}, 2, 2}});
  const ResultsTable t = ReadResultsMat(good);
  EXPECT_EQ(t.columns, (std::vector<std::string>{"a", "b[0]", "b[1]"}));
  EXPECT_EQ(t.values[2], (std::vector<double>{5, 6}));
}
#endif

TEST(ResultsReaderTest, BuildWithoutMatSaysSo) {
  if (MatReadSupported()) GTEST_SKIP() << "built with libmatio";
  try {
    ReadResults("r.mat");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("built without MAT support"));
  }
}

}  // namespace
}  // namespace twinblocks::graph
