#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "blocks/block_error.h"
#include "blocks/sample_time.h"
#include "blocks/signal_shape.h"

namespace twinblocks::blocks {

/// Width of a port that is fixed only when the model is compiled (from what drives it).
inline constexpr int kDynamicWidth = -1;

/// Mutable per-block data that does not fit in flat arrays (a parsed expression, a
/// mechanism's scratch). Made once per simulator, before the run; never in the step loop.
class BlockWorkspace {
 public:
  virtual ~BlockWorkspace() = default;

  /// Copies what a run changed in `other`, a workspace made by the same block's
  /// MakeWorkspace, into this one: for saving and restoring a simulation's state
  /// (Simulator::SaveState). Storage bound at construction (a parser's variable addresses)
  /// stays this workspace's own. Does not allocate: both workspaces have the same sizes.
  virtual void CopyFrom(const BlockWorkspace& other) = 0;
};

/// Everything a run changes, as seen by the blocks. The simulator owns the storage; a Block
/// is const and finds its slices through the offsets the compiler gave it. All arrays are
/// allocated once before the run.
struct Context {
  double t = 0.0;             ///< s, the time being evaluated
  double* signals = nullptr;  ///< every port's signal, one flat buffer
  double* x = nullptr;        ///< continuous states (nx); written only at major steps
  double* xdot = nullptr;     ///< derivatives of x (nx)
  /// Algebraic variables (nz) of blocks in DAE form (a mechanism's loop multipliers). Held
  /// by the solver only when it integrates the residual form (`dae`); otherwise unused.
  double* z = nullptr;
  /// The residual form F(t, x, x', z) = 0 (residual solvers, IDA): x' as the solver proposes
  /// it (nx), and the residual rows, nx for the states (each block's at its x offset) and nz
  /// for the algebraic equations (at its z offset). Set only during residual evaluations.
  const double* xp = nullptr;
  double* residual = nullptr;    ///< nx
  double* residual_z = nullptr;  ///< nz
  double* xd = nullptr;          ///< discrete states
  double* dwork = nullptr;       ///< per-block scratch that persists between steps
  int* modes = nullptr;          ///< discrete modes of blocks with zero crossings
  double* zc = nullptr;          ///< zero-crossing function values
  /// At the major step that ends a solver step on a located zero crossing: per zero-crossing
  /// function (as `zc`), 1 for those whose sign change the solver located in that step;
  /// nullptr at every other major step. An edge is then an edge even where the values at
  /// major steps alone miss it: a bounce leaves its function a rounding error on the far side
  /// of 0, and the next major step may already be the next crossing.
  const unsigned char* zc_crossed = nullptr;
  const unsigned char* rate_hits = nullptr;     ///< per discrete rate: 1 if t is a hit
  BlockWorkspace* const* workspaces = nullptr;  ///< per block, may be null
  /// Per element of `signals`, who reads it: kReadAtMajorSteps (a block's input, a
  /// Simulator::FindSignal), kReadInEvaluations (the input of a block that a solver
  /// evaluation runs), kReadForRows (a log: only the output rows read it). A continuous block
  /// may leave an output that `demand_mask` does not ask for uncomputed
  /// (Block::output_demanded); nullptr: every output is read.
  const unsigned char* demanded = nullptr;
  /// What this evaluation must compute: kReadInEvaluations inside a solver step;
  /// kReadAtMajorSteps and kReadInEvaluations at a major step that records no row; every
  /// bit (kReadAnything) at output rows.
  unsigned char demand_mask = 0xff;

  /// True at major steps (the start, accepted steps, sample hits, located crossings): blocks
  /// with modes choose them from their inputs and may reset continuous states. False inside
  /// a solver step, where modes are held so that the right-hand side stays smooth.
  bool major = true;
  /// Set by a block that changed `x` at a major step; the simulator then restarts the solver.
  bool states_reset = false;
  /// Set instead by a block that changed `x` at a major step only to put it back onto an
  /// invariant it drifted from (a mechanism's projection onto its loops): the right-hand side
  /// has not jumped, so the solver goes on with its step-size control
  /// (solvers::Integrator::CorrectState) where a reset would start it again.
  bool states_projected = false;
  /// At major steps under a solver whose restart drops the history its order is built on (a
  /// multistep method: cvode-adams, cvode-bdf), per continuous state (nx): the error its test
  /// accepts in one step there, atol_i + rtol |x_i|; nullptr under any other solver. A block
  /// that would correct its states only to keep them near an invariant (a mechanism's
  /// projection onto its loops) may leave a correction of a few such errors alone: the
  /// restart it would cost (order 1 again) makes a larger error than it removes.
  const double* state_tolerance = nullptr;
  /// Set by a block at a major step to end the run there (Block::RequestStop: StopSimulation,
  /// Assertion): the block's index, -1 while none has. The simulator completes that major
  /// step, its output row recorded, then ends the run: stopped (not a failure) when
  /// `stop_failed` is false, failed with the block's StopReason otherwise.
  int stop_block = -1;
  bool stop_failed = false;
  /// True for a whole run whose solver integrates the residual form (IDA): blocks with
  /// algebraic variables then take them from `z` (a mechanism's constraint forces) instead
  /// of solving for them, and leave their constraints to the solver (no projection).
  /// False inside an evaluation of the ODE form (CalcDerivatives for the consistent start).
  bool dae = false;
};

/// Bits of Context::demanded and Context::demand_mask.
inline constexpr unsigned char kReadAtMajorSteps = 1u;
inline constexpr unsigned char kReadInEvaluations = 2u;
inline constexpr unsigned char kReadForRows = 4u;
inline constexpr unsigned char kReadAnything = 0xffu;

/// Which stages of a block need an input directly (direct feedthrough), as a bit mask.
inline constexpr unsigned kNoFeedthrough = 0u;
inline constexpr unsigned kFeedthrough = 1u;  ///< stage 0
inline constexpr unsigned FeedthroughToStage(int stage) { return 1u << stage; }

/// One block instance of a compiled diagram. A block declares its ports, states and sample
/// time in its constructor (from its evaluated parameters) and in DoConfigure (once input
/// widths are known), then computes. It knows nothing of files or names of other blocks.
///
/// Outputs are computed in stages: most blocks have one (stage 0). A block whose outputs
/// differ in what they need (an integrator's `state` port needs nothing, its `y` needs the
/// reset input) puts them in different stages, so that the execution order can interleave
/// them with other blocks and feedback through the independent output is not an algebraic
/// loop.
///
/// Public methods are non-virtual; subclasses override the protected Do* hooks.
class Block {
 public:
  struct InputPort {
    std::string name;
    int width = kDynamicWidth;
    unsigned feedthrough = kFeedthrough;  ///< stages that read it directly
    int offset = -1;                      ///< into Context::signals, set by the compiler
    SignalShape shape;                    ///< of what drives it, set by Configure
  };
  struct OutputPort {
    std::string name;
    int width = kDynamicWidth;
    int stage = 0;
    int offset = -1;
    /// A matrix or a bus, set by the block (SetOutputShape) or else taken from its inputs
    /// by Configure.
    SignalShape shape;
    bool shape_set = false;  ///< the block set `shape` itself
  };
  /// An undirected port of a physical network (a frame of a body, a rotational shaft). A
  /// block with physical ports is an element of a network: it does not run by itself; the
  /// compiler reduces each network to one block that takes over the elements' signal ports.
  struct PhysicalPort {
    std::string name;
    std::string domain;  ///< "frame", "rotational", "electrical"
  };

  virtual ~Block() = default;
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  // ---- Declarations, read by the compiler ----
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  const InputPort& input_port(int i) const { return inputs_[i]; }
  const OutputPort& output_port(int i) const { return outputs_[i]; }
  int FindInput(const std::string& name) const;   ///< -1 when there is none
  int FindOutput(const std::string& name) const;  ///< -1 when there is none
  int num_physical_ports() const { return static_cast<int>(physical_.size()); }
  const PhysicalPort& physical_port(int i) const { return physical_[i]; }
  int FindPhysicalPort(const std::string& name) const;  ///< -1 when there is none
  /// True for elements of physical networks (blocks with physical ports).
  bool is_network_element() const { return !physical_.empty(); }
  int num_stages() const { return num_stages_; }

  int num_continuous_states() const { return nx_; }
  int num_discrete_states() const { return nxd_; }
  int num_dwork() const { return ndwork_; }
  int num_modes() const { return nmodes_; }
  int num_zero_crossings() const { return nzc_; }
  /// Where the block's zero-crossing functions start in the model's (Context::zc).
  int zc_offset() const { return zc_offset_; }
  /// Algebraic variables of the block's DAE form (0: the block is an ODE only).
  int num_algebraic_variables() const { return nz_; }
  bool has_update() const { return has_update_; }
  bool has_breakpoints() const { return has_breakpoints_; }
  /// Where a scalar unit delay keeps its sample: at each hit its output is its one discrete
  /// state, and its update stores its input there, nothing else. Offsets into
  /// Context::signals and Context::xd, valid after compile.
  struct UnitDelaySlots {
    int state = 0;
    int input = 0;
    int output = 0;
  };
  /// The slots of a block that is a scalar unit delay, so that a major step can run every
  /// such block as one pass over a table instead of two calls each (a grasp's contact
  /// detectors hold 145); nullopt for every other block.
  virtual std::optional<UnitDelaySlots> unit_delay_slots() const { return std::nullopt; }
  /// True when the block gives the stiff part of its Jacobian (CalcStiffJacobian).
  bool has_stiff_jacobian() const { return has_stiff_jacobian_; }
  /// True when the block's derivatives depend stiffly on its inputs (a deformable body on the
  /// fingertips that touch it): the solvers' Jacobian then takes the columns of the states
  /// upstream of its inputs too, by differences through the diagram (docs/simulation.md).
  bool has_stiff_inputs() const { return has_stiff_inputs_; }
  /// The block's state rows (from 0) whose derivatives read its inputs stiffly: where the
  /// upstream columns go. Default: every row.
  void StiffInputRows(std::vector<int>* rows) const { DoStiffInputRows(rows); }
  /// True when the block's states must keep invariants that integration lets drift (a
  /// mechanism's closed loops), and CalcProjection gives the correction back onto them.
  bool has_projection() const { return has_projection_; }
  /// True when the block's continuous outputs change with t itself, not only through its
  /// inputs and states (a Sine, a Clock, a trajectory): the diagram's f(t, x) then depends
  /// on t, and ode23s and ros2 add df/dt to their stages (MATLAB's ode23s does).
  bool depends_on_time() const { return depends_on_time_; }
  /// Declared sample time; after compile, the resolved one.
  const SampleTime& sample_time() const { return sample_time_; }
  /// Inherited blocks with discrete state cannot run continuously.
  bool requires_discrete_rate() const { return requires_discrete_; }
  /// Index of the block's discrete rate in Context::rate_hits, -1 when not discrete.
  int rate_index() const { return rate_index_; }
  /// The innermost conditional (enabled or triggered) subsystem the block is in, as an index
  /// into the System's conditions; -1 for a block that always runs. The simulator runs the
  /// block only while that condition and every one around it is active.
  int condition() const { return condition_; }
  /// Where the block's continuous states start in the diagram's (Context::x).
  int x_offset() const { return x_offset_; }
  int index() const { return index_; }

  /// Fixes the output widths, states and zero crossings once the input widths are known.
  /// `input_shapes` (per input, or empty: plain vectors) are the shapes of what drives the
  /// inputs; an output whose shape the block does not set takes the shape of the inputs that
  /// have its width, when they agree (scalars aside): element-wise blocks, delays and
  /// integrators pass a matrix or a bus on.
  /// @throws BlockError when the widths do not fit the block's parameters.
  void Configure(const std::vector<int>& input_widths,
                 const std::vector<SignalShape>& input_shapes = {});

  /// Input width to assume when the widths of a feedback loop cannot be propagated (the
  /// width of an integrator's x0, say). Default 1.
  virtual int DefaultInputWidth() const { return 1; }

  /// A name for continuous state `i` of this block in messages ("q of arm/j3"), or "" to
  /// let the caller say "state i".
  virtual std::string DescribeContinuousState(int i) const { return {}; }

  /// The absolute tolerance of continuous state `i` for the variable-step solvers (Simulink's
  /// block parameter "Absolute tolerance"), or NaN for "auto": the simulation's atol.
  double state_abs_tol(int i) const {
    return abs_tol_.empty() ? std::numeric_limits<double>::quiet_NaN() : abs_tol_[i];
  }

  // ---- Layout, set once by the compiler ----
  struct Layout {
    int index = -1;
    int x = 0, xd = 0, dwork = 0, modes = 0, zc = 0;
    int z = 0;  ///< algebraic variables and their equations
    int rate_index = -1;
    int condition = -1;  ///< see condition()
    SampleTime sample_time;
  };
  void SetLayout(const Layout& layout);
  void SetInputOffset(int port, int offset) { inputs_[port].offset = offset; }
  void SetOutputOffset(int port, int offset) { outputs_[port].offset = offset; }

  // ---- Runtime, called by the simulator ----
  /// Sets initial continuous and discrete states, modes and scratch.
  void Initialize(Context& c) const { DoInitialize(c); }
  void CalcOutputs(Context& c, int stage) const { DoCalcOutputs(c, stage); }
  void CalcDerivatives(Context& c) const { DoCalcDerivatives(c); }
  /// Adds the stiff part of the Jacobian d(xdot)/dx of the block's own states to its square
  /// of `J`, the diagram's Jacobian (nx x nx over all continuous states): the terms whose time
  /// constants would bound an explicit solver's step (a contact's damping and sticking
  /// friction). The linearly implicit solvers (ode1be, ros2) are implicit in exactly these.
  /// Called right after CalcDerivatives at the same point, so that it may reuse what that
  /// evaluation found. Default: nothing (the block is not stiff).
  void CalcStiffJacobian(Context& c, Eigen::Ref<Eigen::MatrixXd> J) const {
    DoCalcStiffJacobian(c, J.block(x_offset_, x_offset_, nx_, nx_));
  }
  /// Appends to `entries` every (row, column) of the diagram's Jacobian that
  /// CalcStiffJacobian may ever set nonzero: a superset, fixed once the block is configured,
  /// so that a solver orders its factorization once. False when the block cannot tell (the
  /// default); `entries` is then as it was.
  bool StiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const;

  /// Writes to the block's slice of `correction` (nx of the diagram's states) the change that
  /// moves its states at c.x back onto their invariants, zeros where they hold: Simulink's
  /// mdlProjection, for a solver that projects each step's solution itself (CVODE's BDF), so
  /// that a projection is no discontinuity that restarts it. Leaves c.x as it is. Called
  /// after the minor-step outputs at (c.t, c.x). Default: nothing (no invariants).
  void CalcProjection(Context& c, double* correction) const {
    DoCalcProjection(c, correction + x_offset_);
  }

  // ---- The DAE form, for residual solvers (IDA) ----
  /// The block's rows of F(t, x, x', z) = 0 at c.x, c.xp, c.z: its nx state rows into
  /// c.residual and its nz algebraic rows into c.residual_z. Default, for a block without
  /// algebraic variables: x' - f(t, x) from CalcDerivatives (c.xdot is scratch for it).
  /// Called after the minor-step outputs at (t, x, z), with c.dae set.
  void CalcResidual(Context& c) const { DoCalcResidual(c); }
  /// Writes algebraic variables consistent with the states (F = 0 with x' = f(t, x)) into
  /// c.z, at a (re)start of the solver. Called right after CalcDerivatives at the same
  /// (t, x) with c.dae false, so that it may reuse what that evaluation found (a
  /// mechanism's multipliers). Default: nothing (no algebraic variables).
  void CalcConsistentAlgebraic(Context& c) const { DoCalcConsistentAlgebraic(c); }
  /// Discrete blocks at their sample hits; continuous blocks with has_update() at every
  /// major step.
  void Update(Context& c) const { DoUpdate(c); }
  void CalcZeroCrossings(Context& c) const { DoCalcZeroCrossings(c); }
  /// The first time after `t` where the block's output jumps by itself (a Step's time), or
  /// +inf. The solver lands there exactly.
  double NextBreakpoint(const Context& c, double t) const { return DoNextBreakpoint(c, t); }
  /// The time past which the block cannot run, or +inf: a FromFile whose data end there and
  /// may not be extrapolated. Among the block's breakpoints; the run ends there, its last row
  /// recorded, failing with EndReason().
  double end_time() const { return DoEndTime(); }
  /// Why the run cannot go past end_time(), for the failure's message.
  std::string EndReason() const { return DoEndReason(); }
  /// Why the block asked for the run to end (RequestStop) at the major step `c` holds, for
  /// the outcome's message: "u[1] is 0". Called once, after the run ended.
  std::string StopReason(const Context& c) const { return DoStopReason(c); }
  std::unique_ptr<BlockWorkspace> MakeWorkspace() const { return DoMakeWorkspace(); }

 protected:
  Block() = default;

  // ---- Declarations for constructors ----
  int DeclareInput(std::string name, int width = kDynamicWidth,
                   unsigned feedthrough = kFeedthrough);
  int DeclareOutput(std::string name, int width = kDynamicWidth, int stage = 0);
  void DeclareSampleTime(SampleTime st, bool requires_discrete = false);
  void DeclareBreakpoints() { has_breakpoints_ = true; }
  void DeclareUpdate() { has_update_ = true; }
  /// The block overrides DoCalcStiffJacobian.
  void DeclareStiffJacobian() { has_stiff_jacobian_ = true; }
  /// See has_stiff_inputs().
  void DeclareStiffInputs() { has_stiff_inputs_ = true; }
  /// The block overrides DoCalcProjection.
  void DeclareProjection() { has_projection_ = true; }
  /// The block's continuous outputs read c.t between major steps (see depends_on_time()).
  /// Not for outputs that only jump at breakpoints (a Step), which steps land on.
  void DeclareTimeDependence() { depends_on_time_ = true; }
  int DeclarePhysicalPort(std::string name, std::string domain);

  // ---- Declarations for DoConfigure (also allowed in constructors) ----
  void SetOutputWidth(int port, int width) { outputs_[port].width = width; }
  /// Makes output `port` a matrix or a bus (or a plain vector that does not take its inputs'
  /// shape). @pre the shape fits the output's width once it is configured.
  void SetOutputShape(int port, SignalShape shape) {
    outputs_[port].shape = std::move(shape);
    outputs_[port].shape_set = true;
  }
  /// Which stages need input `port` directly, when that depends on its width.
  void SetInputFeedthrough(int port, unsigned stages) { inputs_[port].feedthrough = stages; }
  void DeclareContinuousStates(std::int64_t n) { nx_ = CheckedCount(n, "continuous states"); }
  /// Absolute tolerances of the continuous states, one per state (NaN: the simulation's), for
  /// a block whose states have a scale of their own. Empty (the default): all the simulation's.
  void DeclareAbsoluteTolerances(std::vector<double> tolerances) {
    abs_tol_ = std::move(tolerances);
  }
  /// Algebraic variables of the DAE form (a block that declares them overrides
  /// DoCalcResidual and DoCalcConsistentAlgebraic, and has continuous states).
  void DeclareAlgebraicVariables(std::int64_t n) { nz_ = CheckedCount(n, "algebraic variables"); }
  void DeclareDiscreteStates(std::int64_t n) {
    nxd_ = CheckedCount(n, "discrete states");
    has_update_ = has_update_ || n > 0;
  }
  void DeclareDWork(std::int64_t n) { ndwork_ = CheckedCount(n, "work values"); }
  void DeclareModes(std::int64_t n) { nmodes_ = CheckedCount(n, "modes"); }
  void DeclareZeroCrossings(std::int64_t n) { nzc_ = CheckedCount(n, "zero crossings"); }
  /// `n` as an int when it is within the block_values limit (common/input_limits.h): the
  /// counts a block declares become the sizes of the run's arrays.
  /// @throws BlockError naming `what` when over the limit
  static int CheckedCount(std::int64_t n, const char* what);
  /// Checks a parameter that gives a number of ports (a Demux's `outputs`) against the
  /// signal_width limit, before the ports are declared. @throws BlockError naming `param`
  static void CheckPortCountParam(std::int64_t n, const char* param);

  /// Default: every dynamic output takes the common width of the inputs, where scalars
  /// expand (Simulink's scalar expansion); all non-scalar inputs must agree.
  virtual void DoConfigure(const std::vector<int>& input_widths);

  /// The common width of `widths` with scalar expansion. @throws BlockError otherwise.
  int CommonWidth(const std::vector<int>& widths) const;

  // ---- Runtime hooks ----
  virtual void DoInitialize(Context& c) const {}
  virtual void DoCalcOutputs(Context& c, int stage) const {}
  virtual void DoCalcDerivatives(Context& c) const {}
  /// `J`: the block's own square (num_continuous_states()) of the diagram's Jacobian.
  virtual void DoCalcStiffJacobian(Context& c, Eigen::Ref<Eigen::MatrixXd> J) const {}
  virtual void DoStiffInputRows(std::vector<int>* rows) const {
    for (int r = 0; r < nx_; ++r) rows->push_back(r);
  }
  /// StiffJacobianStructure's entries, in the block's own square.
  virtual bool DoStiffJacobianStructure(std::vector<std::pair<int, int>>* entries) const {
    return false;
  }
  /// `correction`: the block's own slice (num_continuous_states()).
  virtual void DoCalcProjection(Context& c, double* correction) const {}
  virtual void DoCalcResidual(Context& c) const;
  virtual void DoCalcConsistentAlgebraic(Context& c) const {}
  virtual void DoUpdate(Context& c) const {}
  virtual void DoCalcZeroCrossings(Context& c) const {}
  virtual double DoNextBreakpoint(const Context& c, double t) const {
    return std::numeric_limits<double>::infinity();
  }
  virtual double DoEndTime() const { return std::numeric_limits<double>::infinity(); }
  virtual std::string DoEndReason() const { return {}; }
  virtual std::string DoStopReason(const Context& c) const { return {}; }
  virtual std::unique_ptr<BlockWorkspace> DoMakeWorkspace() const { return nullptr; }

  /// Asks the simulator to end the run after this major step (Context::stop_block), as a
  /// failure when `failed` (the run's status is then that of a failed run). The first block
  /// to ask in a step is the one the outcome names. Only at major steps (c.major); allocates
  /// nothing.
  void RequestStop(Context& c, bool failed) const {
    if (c.stop_block >= 0) return;
    c.stop_block = index_;
    c.stop_failed = failed;
  }

  // ---- Access to this block's slices of the context ----
  const double* in(const Context& c, int port) const { return c.signals + inputs_[port].offset; }
  double* out(Context& c, int port) const { return c.signals + outputs_[port].offset; }
  int in_width(int port) const { return inputs_[port].width; }
  /// The shape of what drives input `port` (for DoConfigure; plain when nothing says more).
  const SignalShape& in_shape(int port) const { return inputs_[port].shape; }
  int out_width(int port) const { return outputs_[port].width; }
  /// False when nothing reads output `port` in this evaluation (Context::demanded and
  /// demand_mask): the block may skip work that serves only it. Its value is then left as it
  /// was.
  bool output_demanded(const Context& c, int port) const {
    return c.demanded == nullptr || (c.demanded[outputs_[port].offset] & c.demand_mask) != 0;
  }
  /// False when no output of `stage` is read in this evaluation (output_demanded): the
  /// stage may skip its work altogether.
  bool stage_demanded(const Context& c, int stage) const {
    if (c.demanded == nullptr) return true;
    for (const OutputPort& port : outputs_) {
      if (port.stage == stage && port.width > 0 && (c.demanded[port.offset] & c.demand_mask) != 0) {
        return true;
      }
    }
    return false;
  }
  double* x(Context& c) const { return c.x + x_offset_; }
  const double* x(const Context& c) const { return c.x + x_offset_; }
  double* xdot(Context& c) const { return c.xdot + x_offset_; }
  double* xd(Context& c) const { return c.xd + xd_offset_; }
  const double* z(const Context& c) const { return c.z + z_offset_; }
  double* z(Context& c) const { return c.z + z_offset_; }
  const double* xp(const Context& c) const { return c.xp + x_offset_; }
  /// This block's part of Context::state_tolerance, or nullptr.
  const double* state_tolerance(const Context& c) const {
    return c.state_tolerance != nullptr ? c.state_tolerance + x_offset_ : nullptr;
  }
  double* residual(Context& c) const { return c.residual + x_offset_; }
  double* residual_z(Context& c) const { return c.residual_z + z_offset_; }
  const double* xd(const Context& c) const { return c.xd + xd_offset_; }
  int xd_offset() const { return xd_offset_; }
  double* dwork(Context& c) const { return c.dwork + dwork_offset_; }
  const double* dwork(const Context& c) const { return c.dwork + dwork_offset_; }
  int* modes(Context& c) const { return c.modes + modes_offset_; }
  const int* modes(const Context& c) const { return c.modes + modes_offset_; }
  double* zc(Context& c) const { return c.zc + zc_offset_; }
  /// True when the solver step that ended at this major step located a sign change of the
  /// block's zero-crossing function k (Context::zc_crossed).
  bool zc_crossed(const Context& c, int k) const {
    return c.zc_crossed != nullptr && c.zc_crossed[zc_offset_ + k] != 0;
  }
  template <class W>
  W& workspace(const Context& c) const {
    return static_cast<W&>(*c.workspaces[index_]);
  }
  /// True when the block runs at this time: always for continuous blocks; at its hits for
  /// discrete ones.
  bool is_sample_hit(const Context& c) const {
    return rate_index_ < 0 || c.rate_hits[rate_index_] != 0;
  }

 private:
  /// The shape an output of `width` takes from the inputs when the block sets none.
  SignalShape InheritedShape(int width) const;

  std::vector<InputPort> inputs_;
  std::vector<OutputPort> outputs_;
  std::vector<PhysicalPort> physical_;
  int num_stages_ = 1;
  int nx_ = 0, nxd_ = 0, ndwork_ = 0, nmodes_ = 0, nzc_ = 0, nz_ = 0;
  std::vector<double> abs_tol_;  ///< (nx) or empty
  bool has_update_ = false;
  bool has_breakpoints_ = false;
  bool has_stiff_jacobian_ = false;
  bool has_stiff_inputs_ = false;
  bool has_projection_ = false;
  bool depends_on_time_ = false;
  bool requires_discrete_ = false;
  SampleTime sample_time_ = SampleTime::Inherited();
  int index_ = -1;
  int rate_index_ = -1;
  int condition_ = -1;
  int x_offset_ = 0, xd_offset_ = 0, dwork_offset_ = 0, modes_offset_ = 0, zc_offset_ = 0;
  int z_offset_ = 0;
};

}  // namespace twinblocks::blocks
