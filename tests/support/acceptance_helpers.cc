#include "tests/support/acceptance_helpers.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "blocks/multibody/mechanism.h"
#include "compiler/compile.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {

namespace {

RunOutput RunModel(const graph::Model& model, const SettingsTweak& tweak) {
  const graph::System system = graph::Compile(model);
  graph::SimulationSettingsValues settings = system.settings();
  if (tweak) tweak(&settings);
  graph::Simulator sim(system, settings);
  RunOutput out;
  out.outcome = sim.Run();
  out.recording = sim.recording();
  out.stats = sim.stats();
  out.solver = settings.solver;
  return out;
}

}  // namespace

std::string Figure(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", value);
  return buf;
}

CliResult RunShell(const std::string& command) {
  CliResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.text.append(buf, n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  return r;
}

CliResult RunCli(const std::string& args, bool with_stdout) {
  return RunShell(std::string(TWINBLOCKS_CLI) + " " + args +
                  (with_stdout ? " 2>&1" : " 2>&1 1>/dev/null"));
}

CliResult RunCliWithStdout(const std::string& args) { return RunCli(args, /*with_stdout=*/true); }

int CountLines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string SourcePath(const std::string& relative) {
  return std::string(TWINBLOCKS_SOURCE_DIR) + "/" + relative;
}

RunOutput RunModelFile(const std::string& source_relative_path, const SettingsTweak& tweak) {
  return RunModel(xml::ReadModelFile(SourcePath(source_relative_path)), tweak);
}

RunOutput RunModelText(const std::string& xml, const SettingsTweak& tweak) {
  return RunModel(xml::ReadModelString(xml, SourcePath("tests/inline.xml")), tweak);
}

std::vector<double> Column(const graph::Recording& rec, const std::string& name) {
  const int col = rec.FindColumn(name);
  EXPECT_GE(col, 0) << "no column " << name;
  std::vector<double> v;
  if (col < 0) return v;
  for (int r = 0; r < rec.num_rows(); ++r) v.push_back(rec.value(r, col));
  return v;
}

std::vector<double> Times(const graph::Recording& rec) {
  std::vector<double> t;
  for (int r = 0; r < rec.num_rows(); ++r) t.push_back(rec.time(r));
  return t;
}

std::vector<std::vector<double>> Columns(const graph::Recording& rec, const std::string& base,
                                         int count) {
  std::vector<std::vector<double>> columns;
  for (int i = 0; i < count; ++i) {
    columns.push_back(Column(rec, base + "[" + std::to_string(i) + "]"));
  }
  return columns;
}

const multibody::Mechanism& FindMechanism(const graph::System& system) {
  for (int i = 0; i < system.num_blocks(); ++i) {
    if (const auto* m = dynamic_cast<const multibody::Mechanism*>(&system.block(i))) return *m;
  }
  throw std::logic_error("the model has no mechanism");
}

const char* const kGraspContacts[13] = {"F1P1", "F1P2", "F1P3", "F2P1", "F2P2", "F2P3", "F3P1",
                                        "F3P2", "F3P3", "F4P1", "F4P2", "F4P3", "palm"};

std::vector<double> FirstSetTimes(const graph::Recording& rec) {
  const std::vector<double> t = Times(rec);
  std::vector<double> first_set;
  for (const char* name : kGraspContacts) {
    const std::vector<double> c = Column(rec, name);
    const auto on = std::find(c.begin(), c.end(), 1.0);
    first_set.push_back(on == c.end() ? -1.0 : t[on - c.begin()]);
  }
  return first_set;
}

void ExpectOneLineBadInput(const std::string& path, const std::string& file, int line,
                           const std::vector<std::string>& says) {
  for (const char* command : {"check", "run"}) {
    const std::string output = std::string(command) == "run" ? " -o /dev/null" : "";
    const CliResult r = RunCli(std::string(command) + " " + path + output);
    EXPECT_EQ(r.status, 2) << command << ": " << r.text;
    ASSERT_FALSE(r.text.empty());
    EXPECT_EQ(r.text.find('\n'), r.text.size() - 1) << "more than one line: " << r.text;
    const std::string where = file + ":" + std::to_string(line) + ":";
    EXPECT_NE(r.text.find(where), std::string::npos) << r.text;
    for (const std::string& phrase : says) {
      EXPECT_NE(r.text.find(phrase), std::string::npos) << r.text;
    }
  }
}

std::filesystem::path FreshDirectory(const std::string& prefix, const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / (prefix + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace twinblocks::testing
