// The workflow of Pozzi et al. 2022, "Modeling and Simulation of Robotic Grasping in Simulink
// Through Simscape Multibody", in C++: the four-fingered gripper of docs/grasp.md built from its DH
// description, written as XML, and simulated in the power grasp G2.
//
// Pozzi et al. 2022 (section 2.2.1) build a Simscape hand from a SynGrasp hand
// structure (palm, fingers, DH tables). Here graph::Gripper4Spec() is that structure (palm
// 0.12 x 0.08 x 0.01 m; fingers at (+-0.045, +-0.025, 0) m, 1 and 3 closing towards -x, 2 and
// 4 towards +x; three standard DH rows a = 0.040, 0.030, 0.025 m; cylinders of radius
// 0.008 m, density 1000 kg/m^3) and graph::HandDefine turns it into the define Gripper4: a
// Palm and per finger a chain of the grasp library's Phalanx modules (joint, body, contact,
// detector and closure logic), as examples/gripper4_from_dh.py does block by block with the
// editing API. The G2 experiment around it is added with graph::Model's editing calls.
//
// Output (in --out, default out/gripper4_from_dh_cc/): gripper4_hand.xml (the define; it
// includes models/lib/grasp.xml by a path relative to the output folder) and g2_power.xml
// (includes gripper4_hand.xml). Both are read back and compared with models/gripper4/'s as
// Models: g2_power.xml is equal; gripper4_hand.xml differs only in its include's path,
// because it is written to another folder; its Gripper4 define is equal. G2 is then
// simulated as read back (ode3, fixed step 1e-5 s, to 0.5 s or --t-end) and the time each
// contact signal first sets is printed.
//
// Usage: build/bin/gripper4_from_dh [--out DIR] [--t-end T]
// Exit status: 0 ok, 1 the files differ from the hand-written ones or the run failed,
// 2 bad arguments or a model error.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "builders/hand_builder.h"
#include "compiler/compile.h"
#include "model/model.h"
#include "model/model_error.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace fs = std::filesystem;
using namespace twinblocks;

namespace {

const fs::path kRepo = TWINBLOCKS_SOURCE_DIR;

struct Args {
  fs::path out = kRepo / "out" / "gripper4_from_dh_cc";
  std::optional<double> t_end;
};

// Parses --out DIR and --t-end T; nullopt (after saying why) for anything else.
std::optional<Args> ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--out" || arg == "--t-end") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--out") {
        args.out = value;
        continue;
      }
      char* end = nullptr;
      const double t = std::strtod(value.c_str(), &end);
      if (end == value.c_str() || *end != '\0' || !(t > 0.0)) {
        std::fprintf(stderr, "gripper4_from_dh: --t-end needs a positive time in s, got '%s'\n",
                     value.c_str());
        return std::nullopt;
      }
      args.t_end = t;
    } else {
      std::fprintf(stderr, "usage: gripper4_from_dh [--out DIR] [--t-end T]\n");
      return std::nullopt;
    }
  }
  return args;
}

// The paper's names of the contact signals and the signals themselves.
const std::vector<std::string> kFingers = {"1", "2", "3", "4"};
const std::vector<std::string> kPhalanges = {"1", "2", "3"};

std::string ContactSignal(const std::string& k, const std::string& j) {
  return "hand/finger" + k + "/phalanx" + j + ".contact";
}

// gripper4_hand.xml: the grasp library included, the Gripper4 define from the DH description.
graph::Model HandLibrary(const fs::path& out) {
  graph::Model lib;
  lib.name = "gripper4_hand";
  lib.file = (out / "gripper4_hand.xml").string();  // where relative includes start
  lib.AddInclude(fs::relative(kRepo / "models" / "lib" / "grasp.xml", out).string(),
                 xml::ReadModelFile);
  graph::Define hand = graph::HandDefine(graph::Gripper4Spec(), "Gripper4");
  lib.AddDefine(hand.name, hand.params, std::move(hand.body));
  return lib;
}

// g2_power.xml: the power grasp of a free sphere (reference G2), with Pozzi et al. 2022 Table 2.
// The include is read at once (its Gripper4 define checks the hand's parameters and ports), so
// gripper4_hand.xml must be written in `out` first.
graph::Model G2(const fs::path& out) {
  graph::Model g2;
  g2.name = "g2_power";
  g2.file = (out / "g2_power.xml").string();
  g2.AddInclude("gripper4_hand.xml", xml::ReadModelFile);
  g2.SetSimulation("solver", "ode3");
  g2.SetSimulation("step", "1e-5");
  g2.SetSimulation("t_end", "0.5");
  g2.SetSimulation("output_interval", "1e-4");
  g2.AddBlock("", "World", "world", {{"gravity", "[0, 0, 0]"}});
  g2.AddBlock("", "Gripper4", "hand",
              {{"rate", "1.25"},
               {"filter_tc", "1e-3"},
               {"stiffness", "1e6"},
               {"damping", "1e3"},
               {"transition_width", "1e-4"},
               {"mu_s", "0.5"},
               {"mu_d", "0.3"},
               {"v_crit", "1e-3"},
               {"threshold", "0.1"},
               {"Ts", "1e-4"}});
  g2.AddBlock("", "FreeSphere", "object",
              {{"position", "[-0.01, 0, 0.031]"}, {"radius", "0.03"}, {"density", "1000"}});
  g2.AddBlock("", "ContactTimes", "set_times",
              {{"Ts", "1e-4"}, {"unset", "[-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]"}});
  // The grasp's measures along the run: the hand's 13 contacts about the sphere's centre.
  g2.AddBlock("", "GraspAnalysis", "grasp",
              {{"mu", "0.5"}, {"edges", "8"}, {"torque_length", "0.03"}, {"Ts", "1e-2"}});
  g2.Connect("", "world.W", "hand.base");
  g2.Connect("", "world.W", "object.world");
  g2.Connect("", "object.body", "hand.object");
  g2.Connect("", "hand.contacts", "set_times.contact");
  g2.Connect("", "hand.touches", "grasp.contacts");
  g2.Connect("", "object.position", "grasp.center");

  std::vector<std::string> contacts;
  for (const std::string& k : kFingers) {
    for (const std::string& j : kPhalanges) {
      g2.AddLog(ContactSignal(k, j), "F" + k + "P" + j);
      contacts.push_back(ContactSignal(k, j));
    }
  }
  g2.AddLog("hand/palm.contact", "palm");
  contacts.push_back("hand/palm.contact");
  for (const std::string& k : kFingers) {
    for (const std::string& j : kPhalanges) {
      g2.AddLog("hand/finger" + k + "/phalanx" + j + ".q", "q" + k + j);
    }
  }
  g2.AddLog("object.position", "object_position");
  for (const char* measure :
       {"n_active", "closure", "epsilon", "sigma_min", "internal_force", "slip"}) {
    g2.AddLog(std::string("grasp.") + measure);
  }
  g2.AddLog("object.euler_zyx", "object_euler_zyx");

  auto plot = [&](const std::string& file, const std::string& title, const std::string& ylabel,
                  const std::vector<std::string>& signals) {
    graph::PlotSpec p;
    p.file = file;
    p.title = title;
    p.ylabel = ylabel;
    p.signals = signals;
    g2.AddPlot(p);
  };
  for (const std::string& k : kFingers) {
    std::vector<std::string> signals;
    for (const std::string& j : kPhalanges) signals.push_back(ContactSignal(k, j));
    plot("g2_contacts_finger" + k + ".svg",
         "G2: contact signals of finger " + k + ", F" + k + "P1 F" + k + "P2 F" + k +
             "P3 (paper Fig. 9)",
         "contact (0/1)", signals);
  }
  plot("g2_contact_palm.svg", "G2: contact signal of the palm (paper Fig. 10B)", "contact (0/1)",
       {"hand/palm.contact"});
  for (const std::string& k : kFingers) {
    std::vector<std::string> signals;
    for (const std::string& j : kPhalanges)
      signals.push_back("hand/finger" + k + "/phalanx" + j + ".q");
    plot("g2_joints_finger" + k + ".svg",
         "G2: joint angles of finger " + k + ", q" + k + "1 q" + k + "2 q" + k + "3 (paper Fig. 8)",
         "rad", signals);
  }
  plot("g2_object_position.svg", "G2: sphere position x, y, z (paper Fig. 11A)", "m",
       {"object.position"});
  plot("g2_object_euler.svg",
       "G2: sphere ZYX Euler angles phi (about z), theta (about y), psi (about x) (paper Fig. "
       "11B)",
       "rad", {"object.euler_zyx"});
  plot("g2_grasp_quality.svg",
       "G2: force closure (0/1) and epsilon quality of the grasp (GraspAnalysis)", "1, N/N",
       {"grasp.closure", "grasp.epsilon"});
  plot("g2_grasp_contacts.svg", "G2: active contacts (GraspAnalysis)", "contacts",
       {"grasp.n_active"});
  plot("g2_grasp_forces.svg", "G2: internal force of the grasp (GraspAnalysis)", "N",
       {"grasp.internal_force"});
  plot("g2_grasp_slip.svg", "G2: slip margin max |f_t| / (mu f_n) (GraspAnalysis; 1: on the cone)",
       "1", {"grasp.slip"});

  auto summary = [&](std::vector<std::string> signals, graph::SummaryOp op,
                     const std::string& label) {
    graph::SummarySpec s;
    s.signals = std::move(signals);
    s.op = op;
    s.label = label;
    g2.AddSummary(s);
  };
  const std::string order = "F1P1 ... F4P3, palm; -1: never";
  summary({"set_times.first"}, graph::SummaryOp::kFinal,
          "time the contact signal first set, s (" + order + ")");
  summary({"set_times.last"}, graph::SummaryOp::kFinal,
          "time the contact signal last set, s (" + order + ")");
  summary({"object.position"}, graph::SummaryOp::kMin, "sphere position, smallest, m (x, y, z)");
  summary({"object.position"}, graph::SummaryOp::kMax, "sphere position, largest, m (x, y, z)");
  summary({"object.position"}, graph::SummaryOp::kFinal, "sphere position at t_end, m (x, y, z)");
  summary({"object.euler_zyx"}, graph::SummaryOp::kMaxAbs,
          "sphere Euler angle, largest |value|, rad (about z, y, x)");
  summary(contacts, graph::SummaryOp::kFinal, "contact signal at t_end (1: in contact)");
  summary({"grasp.closure", "grasp.epsilon", "grasp.n_active"}, graph::SummaryOp::kFinal,
          "grasp at t_end: force closure (1), epsilon (N/N), active contacts");
  return g2;
}

int Main(const Args& args) {
  fs::create_directories(args.out);
  const fs::path hand_file = args.out / "gripper4_hand.xml";
  const fs::path g2_file = args.out / "g2_power.xml";
  xml::WriteModelFile(HandLibrary(args.out), hand_file.string());
  xml::WriteModelFile(G2(args.out), g2_file.string());
  std::printf("wrote %s and %s\n", hand_file.c_str(), g2_file.c_str());

  // Read back (the reader loads the includes) and compare with the hand-written models.
  const graph::Model g2 = xml::ReadModelFile(g2_file.string());
  const graph::Model hand = xml::ReadModelFile(hand_file.string());
  const fs::path models = kRepo / "models" / "gripper4";
  const bool g2_equal = g2 == xml::ReadModelFile((models / "g2_power.xml").string());
  const bool hand_equal =
      hand.defines == xml::ReadModelFile((models / "gripper4_hand.xml").string()).defines;
  if (g2_equal && hand_equal) {
    std::printf("equal to models/gripper4/g2_power.xml and its Gripper4 define (as Models)\n");
  } else {
    std::printf("differs from models/gripper4/:%s%s\n", g2_equal ? "" : " g2_power.xml",
                hand_equal ? "" : " gripper4_hand.xml: the Gripper4 define");
  }

  const graph::System system = graph::Compile(g2);
  graph::SimulationSettingsValues settings = system.settings();
  if (args.t_end) settings.t_end = *args.t_end;
  graph::Simulator sim(system, settings);
  const graph::SimulationOutcome outcome = sim.Run();
  std::printf("G2: %s\n", sim.stats().Summary(outcome.t - settings.t_start).c_str());
  if (!outcome.ok) std::fprintf(stderr, "G2 failed: %s\n", outcome.error.c_str());

  // The first row at which each logged contact signal is set.
  const graph::Recording& rec = sim.recording();
  std::vector<std::string> names;
  for (const std::string& k : kFingers) {
    for (const std::string& j : kPhalanges) names.push_back("F" + k + "P" + j);
  }
  names.push_back("palm");
  for (const std::string& name : names) {
    const int column = rec.FindColumn(name);
    int row = 0;
    while (row < rec.num_rows() && !(rec.value(row, column) > 0.5)) ++row;
    if (row < rec.num_rows()) {
      std::printf("%-5s %.4f s\n", name.c_str(), rec.time(row));
    } else {
      std::printf("%-5s never\n", name.c_str());
    }
  }
  return outcome.ok && g2_equal && hand_equal ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = ParseArgs(argc, argv);
  if (!args) return 2;
  try {
    return Main(*args);
  } catch (const graph::ModelError& e) {
    std::fprintf(stderr, "gripper4_from_dh: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gripper4_from_dh: %s\n", e.what());
    return 2;
  }
}
