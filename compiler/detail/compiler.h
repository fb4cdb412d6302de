#pragma once

// The compiler's working state, shared by the files that implement its phases (compile.cc,
// flatten.cc, propagate.cc, execution_order.cc, layout.cc). Not installed for users: the
// public entry point is Compile() in compiler/compile.h.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"
#include "common/suggest.h"
#include "compiler/compile.h"
#include "compiler/detail/tuning.h"
#include "model/detail/model_support.h"
#include "model/model.h"
#include "model/model_error.h"
#include "model/parameter_evaluator.h"
#include "runtime/system.h"

namespace twinblocks::graph {

namespace internal {

using blocks::Block;
using blocks::BlockError;
using blocks::BlockType;
using blocks::SampleTime;

inline std::string DirectoryOf(const std::string& file) {
  if (file.empty() || file.front() == '<') return ".";
  std::filesystem::path p(file);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

inline std::string Join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string s;
  for (const std::string& item : items) {
    if (!s.empty()) s += sep;
    s += item;
  }
  return s;
}

inline std::string DescribeRate(const SampleTime& st) {
  switch (st.kind) {
    case SampleTime::Kind::kContinuous:
      return "continuous";
    case SampleTime::Kind::kConstant:
      return "constant";
    case SampleTime::Kind::kTriggered:
      return "triggered";
    case SampleTime::Kind::kInherited:
      return "inherited";
    case SampleTime::Kind::kDiscrete: {
      std::string s = "discrete Ts=" + FormatNumber(st.period);
      if (st.offset != 0.0) s += " offset=" + FormatNumber(st.offset);
      return s;
    }
  }
  return "";
}

}  // namespace internal

/// Does the work of Compile. One object per compile; phases run in order and each leaves its
/// results in members for the next.
class Compiler {
 public:
  Compiler(const Model& model, const CompileOptions& options)
      : model_(model), options_(options), root_scope_(nullptr) {}

  /// Runs every phase and hands over the System.
  System Run();
  /// `e` with where the user placed the failing block, when `e` lies in a library the model
  /// includes: "(in 'drive6', placed at arm.xml:23)" names the instance whose define it is in.
  ModelError WithPlacement(const ModelError& e) const;

 private:
  using Block = blocks::Block;
  using BlockType = blocks::BlockType;
  using SampleTime = blocks::SampleTime;

  // ---- Flat diagram ----
  struct FlatBlock {
    std::string path;
    const BlockType* type = nullptr;
    SourceLocation where;
    std::unique_ptr<Block> block;   ///< null for virtual blocks (Goto, From)
    std::string tag;                ///< Goto/From
    std::vector<int> input_driver;  ///< per input: the flat output (block, port) feeding it
    std::vector<int> input_driver_port;
    bool configured = false;
    SampleTime rate;
    bool rate_resolved = false;
    /// An element of a physical network: its block only holds parameters; the network's
    /// block (a Mechanism) runs in its place and owns its signal ports.
    bool absorbed = false;
    /// For a network's block: per input, the element (flat index) and its port name, so that
    /// messages name what the user wrote.
    std::vector<std::pair<int, std::string>> input_origin;
    /// How the block was built, for System::SetParameter and SetVariable (catalog blocks).
    std::optional<internal::TunableBlock> tune;
    /// The innermost conditional subsystem it is in (an index into conditions_), -1 for none.
    int condition = -1;
  };

  /// A conditional subsystem: its control block and the condition around it.
  struct Condition {
    int control = -1;  ///< flat index of its ConditionControl
    int parent = -1;
    bool triggered = false;
  };

  enum class Role { kSource, kSink, kPhysical };
  struct Point {
    std::string name;                   ///< "path.port", for messages
    Role role_outside = Role::kSource;  ///< how the point is seen from the diagram it is named in
    int block = -1;                     ///< real block output/input: flat index
    int port = -1;
    bool is_real_output = false;
    bool is_real_input = false;
    std::string domain;  ///< physical points
    int driver = -1;
    SourceLocation driver_where;
  };

  /// What a name in one diagram refers to, for resolving its connections.
  struct LocalName {
    int flat = -1;              ///< a real or virtual block
    std::string instance_path;  ///< a subsystem or define instance
    const std::vector<PortDecl>* instance_ports = nullptr;
  };

  [[noreturn]] void FailAt(const SourceLocation& where, const std::string& msg) const {
    throw ModelError(where, msg);
  }
  [[noreturn]] void FailBlock(const FlatBlock& b, const std::string& msg) const {
    throw ModelError(b.where, b.path, b.type->name, msg);
  }

  // ---- Phase 1: variables and simulation settings (compile.cc) ----
  void EvaluateVariables();

  double EvaluateSettingScalar(const std::string& attribute, const std::string& text);

  void EvaluateSettings();

  // ---- Phase 2a: top-level inports become external-input blocks (external_inputs.cc) ----
  void AddExternalInputs();
  /// Phase 8b, after Layout: the System's list of external inputs with their offsets.
  void ResolveExternalInputs();

  // ---- Phase 2b: the size of the hierarchy, before it is flattened (expansion_size.cc) ----
  /// Refuses a model whose defines expand to more blocks than the blocks limit, or whose
  /// subsystems and defines nest deeper than the nesting limit, before any block is made:
  /// a 2 kB file of nested defines can stand for 10^9 blocks.
  void CheckExpansionSize() const;
  /// Refuses a define named like a catalog block type, which would silently replace it.
  void CheckDefineNames() const;

  // ---- Phases 2 and 3: the hierarchy flattened, blocks built, lines and Goto/From resolved
  // (flatten.cc) ----
  int AddPoint(Point p);

  /// Evaluates the parameters of a block of `type` (the catalog's, a registered or a
  /// library's) and constructs it.
  void Instantiate(const BlockNode& node, const BlockType* type, const std::string& path,
                   const Scope& scope, const std::map<std::string, std::string>& define_texts);

  /// Creates the points of a flat block's ports.
  void AddBlockPoints(int flat);

  /// Creates the boundary points of a subsystem or define instance at `path`.
  void AddBoundaryPoints(const std::string& path, const std::vector<PortDecl>& ports);

  void Flatten(const Diagram& diagram, const std::string& prefix, const Scope& scope,
               const std::map<std::string, std::string>& define_texts,
               std::vector<std::string>* define_stack, const std::vector<PortDecl>* own_ports);

  std::string DefineNames() const;

  /// After the body of the subsystem or define instance at `path` is flattened (its blocks
  /// from `first_flat` on): when its ports include an `<enable>` or `<trigger>`, makes its
  /// control block and an output block per outport, and marks the blocks it holds
  /// (conditional_subsystems.cc).
  void AddCondition(const std::string& path, const std::vector<PortDecl>& ports,
                    const Scope& scope, size_t first_flat);
  /// Whether the flat block is in a triggered subsystem, directly or within one.
  bool InTriggeredSubsystem(const FlatBlock& fb) const;

  void InstantiateDefine(const BlockNode& node, const Define& def, const std::string& path,
                         const Scope& scope, std::vector<std::string>* define_stack);

  /// Finds the point a connection endpoint names, and how it is seen from this diagram.
  int ResolveEndpoint(const std::string& text, const SourceLocation& where,
                      const std::string& prefix, const std::map<std::string, LocalName>& names,
                      const std::vector<PortDecl>* own_ports, Role* role);

  static const char* RoleName(Role r);

  void Connect(const Connection& c, const std::string& prefix,
               const std::map<std::string, LocalName>& names,
               const std::vector<PortDecl>* own_ports);

  void ResolveGotoFrom();

  /// Follows drivers through virtual points to a real block output; -1 when the chain ends
  /// unconnected. `last` receives the last point reached.
  int FollowToSource(int point, int* last) const;

  void ResolveInputs();

  // ---- Phase 3b: physical networks reduced to blocks (physical_networks.cc) ----
  /// Frame networks become one Mechanism block that takes over the elements' signal ports;
  /// blocks that compute with a robot get its model.
  void ReducePhysicalNetworks();

  /// Fails naming the element behind input `input` of `fb` when it belongs to a network.
  [[noreturn]] void FailInput(const FlatBlock& fb, int input, const std::string& msg) const;

  // ---- Phases 4 and 5: port widths and sample times (propagate.cc) ----
  int DriverWidth(const FlatBlock& fb, int input) const;

  void ConfigureBlock(FlatBlock& fb, bool assume_defaults);

  void PropagateWidths();

  void ResolveSampleTimes();

  SampleTime InheritRate(const FlatBlock& fb, const std::vector<SampleTime>& drivers);

  // ---- Phase 6: execution order and algebraic loops (execution_order.cc) ----
  void Order();

  template <class Graph>
  [[noreturn]] void ReportAlgebraicLoop(const Graph& g,
                                        const std::vector<std::pair<int, int>>& owner);

  // ---- Phases 7 and 8: the per-run layout and the logged signals (layout.cc) ----
  void Layout();

  /// The frame network's record, with the elements' blocks, for the System's tuning.
  internal::TunableMechanism TakeNetworkForTuning(const std::vector<int>& tunable_of_flat);

  std::optional<LoggedSignal> ResolveSignal(const std::string& path_port) const;
  /// An element of a bus by name, "path.port.element" (dots for nested buses), as a slice of
  /// the bus; nullopt when no output of that path names a bus with that element.
  std::optional<LoggedSignal> ResolveBusElement(const std::string& text) const;

  void AddLog(const std::string& signal, const std::string& as, const SourceLocation& where);

  void ResolveLogs();

  const Model& model_;
  const CompileOptions& options_;
  Scope root_scope_;
  System system_;
  std::vector<FlatBlock> flat_;
  std::vector<int> real_;  ///< flat indices of blocks that run
  std::vector<Point> points_;
  std::unordered_map<std::string, int> point_index_;
  std::vector<std::pair<int, int>> physical_links_;
  std::vector<Condition> conditions_;
  std::vector<std::pair<int, int>> order_;  ///< (flat, stage) in execution order
  std::vector<int> system_index_;           ///< flat index -> System block index
  /// The define instance being flattened (its parameter texts), null at model level.
  std::shared_ptr<const internal::DefineLevel> define_level_;

  /// The frame network as ReducePhysicalNetworks gave it to the mechanism builder, for
  /// retuning (Layout moves it into the System's tuning).
  struct NetworkRecord {
    std::vector<multibody::NetworkElement> elements;
    std::vector<int> element_flat;  ///< per element: its flat index
    int num_nodes = 0;
    int mechanism_flat = -1;
    SampleTime mechanism_declared_rate;  ///< the Mechanism's, before resolution
    Block::Layout mechanism_layout;      ///< set by Layout
    struct Robot {
      int flat = -1;
      std::vector<unsigned char> in_robot;
      int frame_element = -1, frame_port = -1;
      std::string name;
    };
    std::vector<Robot> robots;
  };
  std::optional<NetworkRecord> network_;
};

}  // namespace twinblocks::graph
