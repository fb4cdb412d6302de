#include "report/html_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "io/mat_writer.h"
#include "report/scene_recorder.h"
#include "runtime/simulator.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::report {
namespace {

using ::testing::HasSubstr;
using twinblocks::testing::FreshDirectory;
using twinblocks::testing::RunCli;
using twinblocks::testing::WriteText;

// A cube mesh dropped on a plane (free joint, contact) and a pendulum swinging about y, each
// with a TransformSensor from the world, so that the recorded poses can be checked against what
// the run itself measures.
std::string SceneModel() {
  return std::string(R"(<model name="drop" format="1">
  <simulation solver="ode3" step="1e-4" t_end="0.5" output_interval="0.01"/>
  <block type="World" name="world" gravity="[0, 0, -9.81]"/>
  <block type="Solid" name="ground" shape="plane" color="[0.3, 0.6, 0.3]"/>
  <block type="FreeJoint" name="free" position0="[0.2, 0.1, 0.4]"/>
  <block type="Solid" name="part" shape="mesh" file=")") +
         TWINBLOCKS_TEST_DATA + R"(/meshes/cube.stl" mass="1"/>
  <block type="SpatialContactForce" name="contact" stiffness="1e5" damping="200"/>
  <block type="TransformSensor" name="part_pose"/>
  <block type="RevoluteJoint" name="hinge" axis="[0, 1, 0]" q0="0.5"/>
  <block type="RigidTransform" name="to_com" translation="[0, 0, -0.5]"/>
  <block type="Solid" name="bob" shape="sphere" radius="0.05" mass="2"/>
  <block type="TransformSensor" name="bob_pose"/>
  <connect from="world.W" to="ground.R"/>
  <connect from="world.W" to="free.B"/>
  <connect from="free.F" to="part.R"/>
  <connect from="ground.R" to="contact.B"/>
  <connect from="part.R" to="contact.F"/>
  <connect from="world.W" to="part_pose.B"/>
  <connect from="part.R" to="part_pose.F"/>
  <connect from="world.W" to="hinge.B"/>
  <connect from="hinge.F" to="to_com.B"/>
  <connect from="to_com.F" to="bob.R"/>
  <connect from="world.W" to="bob_pose.B"/>
  <connect from="bob.R" to="bob_pose.F"/>
  <log signal="part_pose.position" as="part_p"/>
  <log signal="part_pose.rotation" as="part_R"/>
  <log signal="bob_pose.position" as="bob_p"/>
  <log signal="bob_pose.rotation" as="bob_R"/>
  <log signal="contact.fn" as="fn"/>
  <log signal="hinge.q" as="theta"/>
</model>)";
}

struct SceneRun {
  graph::System system;
  std::unique_ptr<graph::Simulator> sim;
  std::unique_ptr<SceneRecorder> scene;
};

std::unique_ptr<SceneRun> RunScene(const std::string& xml) {
  auto run = std::make_unique<SceneRun>();
  graph::Model model = xml::ReadModelString(xml, "drop.xml");
  run->system = graph::Compile(model);
  run->sim = std::make_unique<graph::Simulator>(run->system, run->system.settings());
  run->scene = std::make_unique<SceneRecorder>(run->system);
  run->scene->Attach(run->sim.get());
  const graph::SimulationOutcome outcome = run->sim->Run();
  EXPECT_TRUE(outcome.ok) << outcome.error;
  return run;
}

int SolidIndex(const SceneRecorder& scene, const std::string& name) {
  for (size_t i = 0; i < scene.solids().size(); ++i) {
    if (scene.solids()[i].name == name) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no Solid " << name;
  return -1;
}

// The world pose of a Solid at a row, from its body's recorded pose.
void SolidPose(const SceneRecorder& scene, int row, int solid, Eigen::Vector3d* p,
               Eigen::Matrix3d* R) {
  const SceneSolid& s = scene.solids()[solid];
  const BodyPose X = scene.pose(row, s.body);
  const Eigen::Quaterniond q(X.quaternion[0], X.quaternion[1], X.quaternion[2], X.quaternion[3]);
  *R = q.toRotationMatrix() * s.X_BS.rotation;
  *p = X.position.cast<double>() + q.toRotationMatrix() * s.X_BS.translation;
}

TEST(SceneRecorderTest, PosesMatchTheRunsOwnSensorsAtEveryRow) {
  auto run = RunScene(SceneModel());
  const graph::Recording& rec = run->sim->recording();
  const SceneRecorder& scene = *run->scene;
  ASSERT_EQ(scene.num_rows(), rec.num_rows());
  ASSERT_EQ(rec.num_rows(), 51);
  for (const char* solid : {"part", "bob"}) {
    const int s = SolidIndex(scene, solid);
    ASSERT_GE(s, 0);
    ASSERT_GE(scene.solids()[s].body, 0) << solid << " moves";
    const std::string prefix = std::string(solid) == "part" ? "part_" : "bob_";
    double worst = 0.0;
    for (int row = 0; row < rec.num_rows(); ++row) {
      Eigen::Vector3d p;
      Eigen::Matrix3d R;
      SolidPose(scene, row, s, &p, &R);
      for (int k = 0; k < 3; ++k) {
        const double sensed =
            rec.value(row, rec.FindColumn(prefix + "p[" + std::to_string(k) + "]"));
        worst = std::max(worst, std::abs(p[k] - sensed));
      }
      for (int k = 0; k < 9; ++k) {
        const double sensed =
            rec.value(row, rec.FindColumn(prefix + "R[" + std::to_string(k) + "]"));
        worst = std::max(worst, std::abs(R(k / 3, k % 3) - sensed));
      }
    }
    // Single precision, as the page draws them.
    EXPECT_LT(worst, 2e-6) << solid;
  }
  // The run really moves both: the cube falls, the pendulum swings.
  Eigen::Vector3d p0, p1;
  Eigen::Matrix3d R0, R1;
  SolidPose(scene, 0, SolidIndex(scene, "part"), &p0, &R0);
  SolidPose(scene, rec.num_rows() - 1, SolidIndex(scene, "part"), &p1, &R1);
  EXPECT_LT(p1.z(), p0.z() - 0.1);
  SolidPose(scene, 0, SolidIndex(scene, "bob"), &p0, &R0);
  SolidPose(scene, 20, SolidIndex(scene, "bob"), &p1, &R1);
  EXPECT_GT((R1 - R0).norm(), 0.1);
}

TEST(SceneRecorderTest, ContactsAreTheContactBlocksOutputs) {
  auto run = RunScene(SceneModel());
  const graph::Recording& rec = run->sim->recording();
  const SceneRecorder& scene = *run->scene;
  ASSERT_EQ(scene.contacts().size(), 1u);
  EXPECT_EQ(scene.contacts()[0].name, "contact");
  const int fn = rec.FindColumn("fn");
  bool touched = false;
  for (int row = 0; row < rec.num_rows(); ++row) {
    const ContactSample c = scene.contact(row, 0);
    EXPECT_FLOAT_EQ(c.fn, static_cast<float>(rec.value(row, fn)));
    if (c.fn > 0) {
      touched = true;
      EXPECT_NEAR(c.normal.norm(), 1.0f, 1e-5f);
      EXPECT_NEAR(c.point.z(), 0.0f, 0.01f) << "on the ground plane";
    }
  }
  EXPECT_TRUE(touched) << "the cube lands within the run";
}

TEST(SceneRecorderTest, ShapesComeFromTheSolids) {
  auto run = RunScene(SceneModel());
  const SceneRecorder& scene = *run->scene;
  ASSERT_EQ(scene.solids().size(), 3u);
  const SceneSolid& ground = scene.solids()[SolidIndex(scene, "ground")];
  EXPECT_EQ(ground.shape, multibody::ShapeKind::kPlane);
  EXPECT_EQ(ground.body, -1);
  EXPECT_TRUE(ground.color.isApprox(Eigen::Vector3d(0.3, 0.6, 0.3)));
  const SceneSolid& part = scene.solids()[SolidIndex(scene, "part")];
  ASSERT_EQ(part.shape, multibody::ShapeKind::kMesh);
  ASSERT_NE(part.mesh, nullptr);
  EXPECT_EQ(part.mesh->vertices.size(), 8u);
  EXPECT_EQ(part.mesh->triangles.size(), 12u);
  const SceneSolid& bob = scene.solids()[SolidIndex(scene, "bob")];
  EXPECT_EQ(bob.shape, multibody::ShapeKind::kSphere);
  EXPECT_DOUBLE_EQ(bob.radius, 0.05);
  EXPECT_TRUE(bob.X_BS.translation.isApprox(Eigen::Vector3d(0, 0, -0.5)));
}

TEST(SceneRecorderTest, RecordsAgainAfterRestoreAndRejectsSkippedRows) {
  graph::Model model = xml::ReadModelString(SceneModel(), "drop.xml");
  const graph::System system = graph::Compile(model);
  graph::Simulator sim(system, system.settings());
  SceneRecorder scene(system);
  scene.Attach(&sim);
  sim.Initialize();
  sim.AdvanceTo(0.1);
  const graph::SimulationSnapshot snapshot = sim.SaveState();
  const int rows_then = scene.num_rows();
  sim.AdvanceTo(0.3);
  const BodyPose later = scene.pose(scene.num_rows() - 1, 0);
  sim.RestoreState(snapshot);
  sim.AdvanceTo(0.3);
  EXPECT_EQ(scene.num_rows(), sim.recording().num_rows());
  EXPECT_GT(scene.num_rows(), rows_then);
  EXPECT_TRUE(scene.pose(scene.num_rows() - 1, 0).position.isApprox(later.position));

  blocks::Context c;
  EXPECT_THROW(scene.Record(scene.num_rows() + 1, c), std::logic_error);
  EXPECT_THROW(scene.pose(scene.num_rows(), 0), std::out_of_range);
  EXPECT_THROW(scene.contact(0, 5), std::out_of_range);
}

// ---- The page's data ----

std::vector<float> Floats(const std::string& base64) {
  const std::vector<unsigned char> bytes = DecodeBase64(base64);
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

std::vector<double> Doubles(const std::string& base64) {
  const std::vector<unsigned char> bytes = DecodeBase64(base64);
  std::vector<double> v(bytes.size() / 8);
  std::memcpy(v.data(), bytes.data(), v.size() * 8);
  return v;
}

// The string value of `"key":"..."` after position `from` of the JSON text.
std::string StringAfter(const std::string& json, const std::string& key, size_t from = 0) {
  const std::string open = "\"" + key + "\":\"";
  const size_t at = json.find(open, from);
  if (at == std::string::npos) return {};
  const size_t start = at + open.size();
  return json.substr(start, json.find('"', start) - start);
}

TEST(HtmlReportTest, EveryLoggedSignalIsInTheDataWithItsValues) {
  auto run = RunScene(SceneModel());
  const graph::Recording& rec = run->sim->recording();
  const std::string json = ReportDataJson({{"drop", &rec, run->scene.get()}}, {});
  for (const graph::LoggedSignal& s : rec.signals()) {
    EXPECT_THAT(json, HasSubstr("{\"name\":\"" + s.name + "\",\"columns\":[")) << s.name;
  }
  // theta's data, decoded, is the recording's column in single precision.
  const size_t theta = json.find("{\"name\":\"theta\"");
  ASSERT_NE(theta, std::string::npos);
  const size_t start = json.find("\"data\":[\"", theta) + 9;
  const std::vector<float> values = Floats(json.substr(start, json.find('"', start) - start));
  ASSERT_EQ(values.size(), static_cast<size_t>(rec.num_rows()));
  const int col = rec.FindColumn("theta");
  for (int r = 0; r < rec.num_rows(); ++r) {
    EXPECT_EQ(values[r], static_cast<float>(rec.value(r, col)));
  }
  const std::vector<double> time = Doubles(StringAfter(json, "time"));
  ASSERT_EQ(time.size(), static_cast<size_t>(rec.num_rows()));
  EXPECT_EQ(time.back(), rec.time(rec.num_rows() - 1));
}

TEST(HtmlReportTest, ScenePosesAreTheRecordedOnesAtTheFramesTimes) {
  auto run = RunScene(SceneModel());
  const graph::Recording& rec = run->sim->recording();
  const SceneRecorder& scene = *run->scene;
  ReportOptions options;
  options.max_frames = 11;  // 51 rows: every fifth
  const std::string json = ReportDataJson({{"drop", &rec, &scene}}, options);
  const size_t at = json.find("\"scene\":{");
  ASSERT_NE(at, std::string::npos);
  const std::vector<double> time = Doubles(StringAfter(json, "time", at));
  const std::vector<float> poses = Floats(StringAfter(json, "poses", at));
  const size_t nb = scene.bodies().size();
  ASSERT_EQ(time.size(), 11u);
  ASSERT_EQ(poses.size(), 11 * nb * 7);
  const std::vector<int> rows = SelectRows(rec.num_rows(), 11);
  for (size_t f = 0; f < rows.size(); ++f) {
    EXPECT_EQ(time[f], rec.time(rows[f]));
    for (size_t b = 0; b < nb; ++b) {
      const BodyPose X = scene.pose(rows[f], static_cast<int>(b));
      const float* p = poses.data() + (f * nb + b) * 7;
      EXPECT_EQ(p[0], X.position.x());
      EXPECT_EQ(p[2], X.position.z());
      EXPECT_EQ(p[3], X.quaternion[0]);
    }
  }
  EXPECT_THAT(json, HasSubstr("\"shape\":\"mesh\""));
  EXPECT_THAT(json, HasSubstr("\"meshes\":[{\"vertices\":\""));
  EXPECT_EQ(Floats(StringAfter(json, "vertices", at)).size(), 8u * 3);
  EXPECT_EQ(DecodeBase64(StringAfter(json, "triangles", at)).size(), 12u * 3 * 4);
  EXPECT_EQ(Floats(StringAfter(json, "contact_data", at)).size(), 11u * 8);
}

TEST(HtmlReportTest, PageIsSelfContained) {
  auto run = RunScene(SceneModel());
  const std::string page =
      HtmlReport({{"drop", &run->sim->recording(), run->scene.get()}}, {"Drop </script> test"});
  // The libraries are in it...
  EXPECT_THAT(page, HasSubstr("uplot"));
  EXPECT_THAT(page, HasSubstr("WebGLRenderer"));
  EXPECT_THAT(page, HasSubstr("<script id=\"tb-data\" type=\"application/json\">{\"format\":1"));
  // ...and nothing is loaded from anywhere: no src or href attribute, no CSS url() or
  // @import, no module import of a URL.
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(\s(src|href)\s*=)", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(url\(\s*['"]?(https?:)?//)")));
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(@import)")));
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(import\s*\(?\s*['"]https?:)")));
  // Text from the model cannot close a script or inject markup.
  EXPECT_THAT(page, HasSubstr("<title>Drop &lt;/script&gt; test</title>"));
  EXPECT_THAT(page, HasSubstr("Drop \\u003c/script\\u003e test"));
  int scripts_closed = 0;
  for (size_t at = page.find("</script"); at != std::string::npos;
       at = page.find("</script", at + 1)) {
    ++scripts_closed;
  }
  EXPECT_EQ(scripts_closed, 2);  // the data's and the bundle's
}

TEST(HtmlReportTest, PlotsOnlyWithoutAScene) {
  graph::Recording rec({{"x", "x", 0, 2}});
  const double row[2] = {1.0, std::nan("")};
  rec.Append(0.0, row);
  rec.Append(0.5, row);
  const std::string json = ReportDataJson({{"a", &rec, nullptr}}, {});
  EXPECT_THAT(json, HasSubstr("\"columns\":[\"x[0]\",\"x[1]\"]"));
  EXPECT_THAT(json, HasSubstr("\"scene\":null"));
}

TEST(HtmlReportTest, SelectRowsKeepsFirstAndLastEvenlySpaced) {
  EXPECT_EQ(SelectRows(4, 10), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(SelectRows(0, 10), std::vector<int>{});
  EXPECT_EQ(SelectRows(11, 3), (std::vector<int>{0, 5, 10}));
  const std::vector<int> rows = SelectRows(100001, 2000);
  ASSERT_EQ(rows.size(), 2000u);
  EXPECT_EQ(rows.front(), 0);
  EXPECT_EQ(rows.back(), 100000);
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_GT(rows[i], rows[i - 1]);
  EXPECT_THROW(SelectRows(10, 1), std::invalid_argument);
}

TEST(HtmlReportTest, BadArgumentsThrow) {
  graph::Recording rec({{"x", "x", 0, 1}});
  const double v = 1.0;
  rec.Append(0.0, &v);
  EXPECT_THROW(ReportDataJson({{"none", nullptr, nullptr}}, {}), std::invalid_argument);
  ReportOptions few;
  few.max_frames = 1;
  EXPECT_THROW(ReportDataJson({{"a", &rec, nullptr}}, few), std::invalid_argument);
  // A scene that recorded fewer rows than the recording has (not attached to the run).
  graph::Model model = xml::ReadModelString(SceneModel(), "drop.xml");
  const graph::System system = graph::Compile(model);
  SceneRecorder unattached(system);
  try {
    ReportDataJson({{"drop", &rec, &unattached}}, {});
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("the scene has 0 rows, its recording 1"));
  }
  const auto dir = FreshDirectory("report_", "unwritable");
  WriteText(dir / "file", "a file, not a folder");
  EXPECT_THROW(WriteHtmlReport({{"a", &rec, nullptr}}, {}, (dir / "file/report.html").string()),
               std::runtime_error);
  EXPECT_THROW(DecodeBase64("ab*d"), std::invalid_argument);
}

// ---- The command line ----

TEST(ReportCliTest, RunWritesTheReportAndReportReadsResults) {
  const auto dir = FreshDirectory("report_", "cli");
  WriteText(dir / "drop.xml", SceneModel());
  const auto run =
      RunCli("run " + (dir / "drop.xml").string() + " -q -o " + (dir / "drop.csv").string() +
                 " --report " + (dir / "out/drop.html").string(),
             true);
  ASSERT_EQ(run.status, 0) << run.text;
  EXPECT_GT(std::filesystem::file_size(dir / "out/drop.html"), 100000u);
  const auto report =
      RunCli("report " + (dir / "drop.csv").string() + " " + (dir / "drop.csv").string() + " -o " +
                 (dir / "plots.html").string() + " --title Two",
             true);
  ASSERT_EQ(report.status, 0) << report.text;
  std::ifstream in(dir / "plots.html");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(page, HasSubstr("<title>Two</title>"));
  EXPECT_THAT(page, HasSubstr("\"label\":\"drop.csv\""));
  EXPECT_THAT(page, HasSubstr("\"scene\":null"));
  // The same run as a .mat file gives the same charts' data.
  if (graph::MatSupported()) {
    ASSERT_EQ(RunCli("run " + (dir / "drop.xml").string() + " -q -o " + (dir / "drop.mat").string())
                  .status,
              0);
    const auto from_mat = RunCli("report " + (dir / "drop.mat").string() + " -o " +
                                     (dir / "mat.html").string() + " --title Two",
                                 true);
    ASSERT_EQ(from_mat.status, 0) << from_mat.text;
    std::ifstream mat_in(dir / "mat.html");
    const std::string mat_page((std::istreambuf_iterator<char>(mat_in)),
                               std::istreambuf_iterator<char>());
    EXPECT_THAT(mat_page, HasSubstr("\"label\":\"drop.mat\""));
    // Past the label, the pages hold the same signals and numbers (one run here, two above).
    const auto signals = [](const std::string& text) {
      const size_t at = text.find("\"signals\":");
      return text.substr(at, text.find(",\"scene\":", at) - at);
    };
    EXPECT_EQ(signals(mat_page), signals(page));
  }
}

TEST(ReportCliTest, BadInputIsOneLineAndStatus2) {
  const auto dir = FreshDirectory("report_", "cli_bad");
  WriteText(dir / "bad.csv", "time,x\n0,oops\n");
  auto expect_bad = [](const twinblocks::testing::CliResult& r, const std::string& says) {
    EXPECT_EQ(r.status, 2) << r.text;
    EXPECT_THAT(r.text, HasSubstr(says));
    EXPECT_EQ(std::count(r.text.begin(), r.text.end(), '\n'), 1) << r.text;
  };
  expect_bad(RunCli("report " + (dir / "bad.csv").string() + " -o " + (dir / "x.html").string()),
             "bad.csv:2: column 'x': 'oops' is not a number");
  expect_bad(RunCli("report " + (dir / "none.csv").string() + " -o " + (dir / "x.html").string()),
             "none.csv");
  WriteText(dir / "ok.csv", "time,x\n0,1\n");
  // A folder that cannot be made: its parent is a file.
  WriteText(dir / "file", "a file, not a folder");
  const std::string unwritable = (dir / "file/x.html").string();
  expect_bad(RunCli("report " + (dir / "ok.csv").string() + " -o " + unwritable),
             "cannot write the report '" + unwritable + "'");
  expect_bad(RunCli("report " + (dir / "ok.csv").string() + " -o " + (dir / "x.html").string() +
                    " --max-rows 1"),
             "--max-rows must be at least 2, got 1");
  WriteText(dir / "drop.xml", SceneModel());
  expect_bad(RunCli("run " + (dir / "drop.xml").string() + " -q -o " + (dir / "d.csv").string() +
                    " --report " + unwritable),
             "cannot write the report '" + unwritable + "'");
}

}  // namespace
}  // namespace twinblocks::report
