#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "blocks/block_registry.h"
#include "tests/blocks/block_test_helpers.h"

namespace twinblocks::blocks {
namespace {

TEST(CatalogTest, EveryTypeIsDocumented) {
  for (const BlockType& t : Catalog().types()) {
    SCOPED_TRACE(t.name);
    EXPECT_FALSE(t.summary.empty());
    EXPECT_FALSE(t.doc.empty());
    EXPECT_FALSE(t.reference.empty());
    EXPECT_FALSE(t.category.empty());
    EXPECT_EQ(t.is_virtual, !t.create);
    for (const ParamSpec& p : t.params) {
      SCOPED_TRACE(p.name);
      EXPECT_FALSE(p.doc.empty());
      if (p.kind == ParamKind::kWord) {
        ASSERT_FALSE(p.words.empty());
        EXPECT_NE(std::find(p.words.begin(), p.words.end(), p.default_text), p.words.end());
      }
      if (p.required) {
        EXPECT_TRUE(p.default_text.empty());
      }
    }
    EXPECT_NE(FormatBlockDoc(t).find(t.name), std::string::npos);
  }
}

TEST(CatalogTest, HasTheContractTypesInTheirSections) {
  const std::map<std::string, std::string> sections = {{"Constant", "Sources"},
                                                       {"Step", "Sources"},
                                                       {"Ramp", "Sources"},
                                                       {"Sine", "Sources"},
                                                       {"Pulse", "Sources"},
                                                       {"Clock", "Sources"},
                                                       {"FromFile", "Sources"},
                                                       {"Gain", "Math and continuous"},
                                                       {"Sum", "Math and continuous"},
                                                       {"Product", "Math and continuous"},
                                                       {"Abs", "Math and continuous"},
                                                       {"Sign", "Math and continuous"},
                                                       {"MinMax", "Math and continuous"},
                                                       {"Saturation", "Math and continuous"},
                                                       {"DeadZone", "Math and continuous"},
                                                       {"Expression", "Math and continuous"},
                                                       {"Integrator", "Math and continuous"},
                                                       {"Derivative", "Math and continuous"},
                                                       {"TransferFunction", "Math and continuous"},
                                                       {"StateSpace", "Math and continuous"},
                                                       {"PID", "Math and continuous"},
                                                       {"UnitDelay", "Discrete and logic"},
                                                       {"Delay", "Discrete and logic"},
                                                       {"ZeroOrderHold", "Discrete and logic"},
                                                       {"DiscretePID", "Discrete and logic"},
                                                       {"RelationalOperator", "Discrete and logic"},
                                                       {"CompareToConstant", "Discrete and logic"},
                                                       {"LogicalOperator", "Discrete and logic"},
                                                       {"Switch", "Discrete and logic"},
                                                       {"Mux", "Routing and structure"},
                                                       {"Demux", "Routing and structure"},
                                                       {"Selector", "Routing and structure"},
                                                       {"Goto", "Routing and structure"},
                                                       {"From", "Routing and structure"},
                                                       {"Terminator", "Routing and structure"}};
  for (const auto& [name, category] : sections) {
    const BlockType* t = Catalog().Find(name);
    ASSERT_NE(t, nullptr) << name;
    EXPECT_EQ(t->category, category) << name;
  }
}

TEST(CatalogTest, ContractDefaults) {
  // The blocks' documented defaults (`twinblocks blocks TYPE`), as text.
  const std::map<std::string, std::map<std::string, std::string>> defaults = {
      {"Step", {{"time", "1"}, {"before", "0"}, {"after", "1"}}},
      {"Ramp", {{"slope", "1"}, {"start", "0"}, {"initial", "0"}}},
      {"Sine", {{"amplitude", "1"}, {"frequency", "1"}, {"phase", "0"}, {"bias", "0"}}},
      {"Pulse", {{"amplitude", "1"}, {"period", "1"}, {"duty", "0.5"}, {"start", "0"}}},
      {"FromFile", {{"interpolation", "linear"}, {"extrapolation", "hold"}}},
      {"RandomNumber", {{"mean", "0"}, {"variance", "1"}, {"seed", "0"}, {"Ts", "0.1"}}},
      {"UniformRandomNumber", {{"minimum", "-1"}, {"maximum", "1"}, {"seed", "0"}, {"Ts", "0.1"}}},
      {"BandLimitedWhiteNoise", {{"power", "0.1"}, {"Ts", "0.1"}, {"seed", "23341"}}},
      {"Chirp", {{"initial_frequency", "0.1"}, {"target_time", "100"}, {"target_frequency", "1"}}},
      {"SignalGenerator",
       {{"waveform", "sine"}, {"amplitude", "1"}, {"frequency", "1"}, {"units", "rad/s"}}},
      {"RepeatingSequence", {{"time", "[0, 2]"}, {"values", "[0, 2]"}}},
      {"FromWorkspace", {{"interpolation", "linear"}, {"extrapolation", "hold"}}},
      {"Assertion", {{"enabled", "true"}}},
      {"Sum", {{"signs", "++"}}},
      {"Product", {{"ops", "**"}}},
      {"MinMax", {{"op", "min"}, {"inputs", "2"}}},
      {"Saturation", {{"lower", "-1"}, {"upper", "1"}}},
      {"DeadZone", {{"start", "-0.5"}, {"end", "0.5"}}},
      {"Expression", {{"inputs", "1"}}},
      {"Integrator", {{"x0", "0"}, {"lower", "-inf"}, {"upper", "inf"}}},
      {"PID", {{"Kp", "1"}, {"Ki", "0"}, {"Kd", "0"}, {"N", "100"}}},
      {"UnitDelay", {{"x0", "0"}, {"Ts", "-1"}}},
      {"Delay", {{"n", "1"}, {"x0", "0"}, {"Ts", "-1"}}},
      {"LogicalOperator", {{"op", "AND"}, {"inputs", "2"}}},
      {"Switch", {{"threshold", "0"}, {"criteria", ">="}}},
      {"Mux", {{"inputs", "2"}}},
      {"Demux", {{"outputs", "2"}}},
      {"SpatialContactForce",
       {{"stiffness", "1e6"},
        {"damping", "1e3"},
        {"transition_width", "1e-4"},
        {"friction", "none"},
        {"mu_s", "0.5"},
        {"mu_d", "0.3"},
        {"v_crit", "1e-3"},
        {"model", "kelvin_voigt"},
        {"exponent", "1.5"}}}};
  for (const auto& [type, params] : defaults) {
    const BlockType* t = Catalog().Find(type);
    ASSERT_NE(t, nullptr) << type;
    for (const auto& [name, text] : params) {
      const ParamSpec* p = t->FindParam(name);
      ASSERT_NE(p, nullptr) << type << "." << name;
      EXPECT_EQ(p->default_text, text) << type << "." << name;
    }
  }
}

// A 6R table with a spherical wrist (docs/multibody.md), for InverseKinematics.
constexpr const char* kArmDh =
    "[[0, 0, 0.5, 0], [-pi/2, 0.15, 0, 0], [0, 0.4, 0, 0], [-pi/2, 0.1, 0.54, 0], "
    "[pi/2, 0, 0, 0], [-pi/2, 0, 0.1, 0]]";

TEST(CatalogTest, EveryConcreteTypeBuildsWithDefaults) {
  // Types whose required parameters have no default get a value here.
  const std::map<std::string, testing::ParamTexts> required = {
      {"Expression", {{"expr", "u1"}}},
      {"Tendon", {{"R", "[0.01, 0.008]"}}},
      {"FromWorkspace", {{"time", "[0, 1]"}, {"values", "[0, 1]"}}},
      {"Selector", {{"indices", "[0]"}}},
      {"LookupTable", {{"breakpoints", "[0, 1]"}, {"table", "[0, 1]"}}},
      {"LookupTable2D",
       {{"breakpoints1", "[0, 1]"}, {"breakpoints2", "[0, 1]"}, {"table", "[[0, 1], [1, 2]]"}}},
      {"LookupTableND", {{"breakpoints", "[0, 1]"}, {"table", "[0, 1]"}}},
      {"Prelookup", {{"breakpoints", "[0, 1]"}}},
      {"InterpolationUsingPrelookup", {{"table", "[0, 1]"}}},
      {"BusSelector", {{"signals", "signal1"}}},
      {"Solid", {{"radius", "0.05"}}},
      {"Inertia", {{"J", "0.01"}}},
      {"DCMotor", {{"R", "1"}, {"L", "0.01"}, {"Kt", "0.1"}, {"Ke", "0.1"}}},
      {"Trajectory", {{"qr", "1"}}},
      {"InverseKinematics", {{"dh", kArmDh}}},
      {"ForwardKinematics", {{"robot", "arm"}, {"frame", "j6.F"}}},
      {"Jacobian", {{"robot", "arm"}, {"frame", "j6.F"}}},
      {"InverseDynamics", {{"robot", "arm"}}},
      {"ComputedTorque", {{"robot", "arm"}}},
      {"MassMatrix", {{"robot", "arm"}}},
      {"GravityTorque", {{"robot", "arm"}}},
      {"VelocityProductTorque", {{"robot", "arm"}}},
      {"NumericalInverseKinematics", {{"robot", "arm"}, {"frame", "j6.F"}}},
      {"FingerKinematics", {{"l1", "0.01"}, {"l2", "0.045"}, {"l3", "0.03"}}},
      {"FingerInverseKinematics", {{"l1", "0.01"}, {"l2", "0.045"}, {"l3", "0.03"}}},
      {"DeformableBody",
       {{"size", "[0.04]"}, {"element_size", "0.03"}, {"young_modulus", "1e4"}}},
      {"StewartIK",
       {{"base",
         "[[0.5, 0, 0], [0, 0.5, 0], [-0.5, 0, 0], [0, -0.5, 0], [0.4, 0.3, 0], "
         "[0.3, -0.4, 0]]"},
        {"platform",
         "[[0.3, 0, 0], [0, 0.3, 0], [-0.3, 0, 0], [0, -0.3, 0], [0.2, 0.2, 0], "
         "[0.2, -0.2, 0]]"}}}};
  for (const BlockType& t : Catalog().types()) {
    if (t.is_virtual || t.name == "FromFile") continue;
    SCOPED_TRACE(t.name);
    const auto it = required.find(t.name);
    EXPECT_NO_THROW(
        testing::MakeBlock(t.name, it == required.end() ? testing::ParamTexts{} : it->second));
  }
}

// The blocks whose continuous outputs read t between major steps say so (ode23s forms df/dt
// for the diagrams that hold one); those that only jump at breakpoints, or read no time, do
// not. FromFile: tests/blocks/signal/from_file_test.cc.
TEST(CatalogTest, BlocksThatReadTimeSayTheyDependOnIt) {
  const std::vector<std::pair<std::string, testing::ParamTexts>> reading_time = {
      {"Sine", {}},
      {"Clock", {}},
      {"Ramp", {}},
      {"Trajectory", {{"qr", "1"}}},
      {"Derivative", {}},
      {"Expression", {{"expr", "u1 * sin(t)"}}},
      {"Chirp", {}},
      {"SignalGenerator", {}},
      {"SignalGenerator", {{"waveform", "sawtooth"}}},
      {"RepeatingSequence", {}},
      {"FromWorkspace", {{"time", "[0, 1]"}, {"values", "[0, 1]"}}}};
  for (const auto& [type, params] : reading_time) {
    EXPECT_TRUE(testing::MakeBlock(type, params)->depends_on_time()) << type;
  }
  const std::vector<std::pair<std::string, testing::ParamTexts>> not_reading_time = {
      {"Step", {}},
      {"Pulse", {}},
      {"Constant", {}},
      {"Gain", {}},
      {"Integrator", {}},
      {"Expression", {{"expr", "u1 * sin(2)"}}},
      {"SignalGenerator", {{"waveform", "square"}}},
      {"SignalGenerator", {{"waveform", "random"}}},
      {"FromWorkspace", {{"time", "[0, 1]"}, {"values", "[0, 1]"}, {"interpolation", "zoh"}}},
      {"RandomNumber", {}},
      {"BandLimitedWhiteNoise", {}}};
  for (const auto& [type, params] : not_reading_time) {
    EXPECT_FALSE(testing::MakeBlock(type, params)->depends_on_time()) << type;
  }
}

// docs/blocks.md maps Simulink and Simscape blocks to ours: every catalog type is on it, and
// every type its twinblocks column names exists.
TEST(CatalogTest, BlocksPageMapsEveryTypeAndOnlyRealOnes) {
  std::ifstream in(std::string(TWINBLOCKS_SOURCE_DIR) + "/docs/blocks.md");
  ASSERT_TRUE(in) << "docs/blocks.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  std::set<std::string> named;
  const std::regex type_name("`([A-Z][A-Za-z0-9]*)`");
  std::string line;
  while (std::getline(text, line)) {
    if (line.empty() || line[0] != '|') continue;
    // | Simulink | twinblocks | differences |: the second cell.
    const size_t a = line.find('|', 1);
    const size_t b = a == std::string::npos ? a : line.find('|', a + 1);
    if (b == std::string::npos) continue;
    const std::string cell = line.substr(a + 1, b - a - 1);
    for (std::sregex_iterator it(cell.begin(), cell.end(), type_name), end; it != end; ++it) {
      named.insert((*it)[1]);
    }
  }
  for (const BlockType& t : Catalog().types()) {
    EXPECT_TRUE(named.count(t.name)) << t.name << " is not on docs/blocks.md";
  }
  for (const std::string& name : named) {
    EXPECT_NE(Catalog().Find(name), nullptr)
        << "docs/blocks.md names " << name << ", which is not in the catalog";
  }
}

}  // namespace
}  // namespace twinblocks::blocks
