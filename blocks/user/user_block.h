#pragma once

// The block API for users: write a block type in C++, build it into a shared library (a block
// library), and name it from a model file:
//
//   <block type="MassSpringDamper" library="libmy_blocks.so" name="plant" m="2"/>
//
// This header is the whole API. It holds only declarations and inline code over the C++
// standard library: a block library includes it and links nothing of twinblocks (CMake:
// `target_link_libraries(my_blocks PRIVATE twinblocks::block_api)`). twinblocks wraps each
// user block in a block of its own (blocks/user/user_block_adapter.h), so the internal block
// interface (blocks/block.h), which grows with every solver feature, can change without
// breaking a library built against this header; kAbiVersion changes only when this header
// does. docs/user-blocks.md is the guide.

#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace twinblocks::user {

/// Version of this header's binary interface. The entry function of a library built against
/// another version refuses to register (twinblocks then names both versions).
inline constexpr int kAbiVersion = 1;

/// The name of the C function a block library exports (TWINBLOCKS_BLOCK_LIBRARY defines it):
/// `int twinblocks_register_blocks(int abi_version, twinblocks::user::Registry*)`. Its first
/// argument stays an int in every version, so that any twinblocks can ask any library.
inline constexpr char kEntryPoint[] = "twinblocks_register_blocks";

/// What a block sees of the simulation during one call of one of its hooks. twinblocks makes
/// it for the call: do not keep it, or a pointer it gave, past the call.
class Context {
 public:
  /// The time being evaluated, s.
  virtual double time() const = 0;
  /// True at major steps (the start, accepted steps, sample hits, located zero crossings):
  /// a block with modes chooses them there. False inside a solver step, where modes are held
  /// so that the right-hand side stays smooth.
  virtual bool is_major_step() const = 0;
  /// True when a discrete block runs at this time (one of its sample hits); always true for a
  /// continuous block.
  virtual bool is_sample_hit() const = 0;

  /// The values of input `port` (as many as its declared width).
  virtual const double* input(int port) const = 0;
  /// Where output `port`'s values go (as many as its declared width).
  virtual double* output(int port) = 0;

  /// The continuous states (num_continuous_states()), read-only.
  virtual const double* continuous_state() const = 0;
  /// The continuous states to write: their initial values in Initialize, or a reset at a
  /// major step (Update, or CalcOutputs where is_major_step()), after which the solver
  /// restarts from what the block wrote (a bouncing ball's velocity at impact).
  /// @throws std::logic_error inside a solver step (is_major_step() false).
  virtual double* mutable_continuous_state() = 0;
  /// Where CalcDerivatives writes dx/dt (num_continuous_states()).
  virtual double* derivatives() = 0;
  /// The discrete states (num_discrete_states()): set in Initialize, changed in Update, read
  /// anywhere. Saved and restored with the simulation's state.
  virtual double* discrete_state() = 0;
  /// The modes (num_modes()): integers chosen at major steps and held in between.
  virtual int* modes() = 0;
  /// Where CalcZeroCrossings writes its functions (num_zero_crossings()).
  virtual double* zero_crossings() = 0;
  /// True at the major step that ends on a located sign change of zero-crossing function `k`.
  virtual bool zero_crossing_located(int k) const = 0;

 protected:
  ~Context() = default;
};

/// A parameter's evaluated value: numbers (a matrix, row-major; a scalar is 1 x 1 and a
/// vector n x 1) or text (a word or a string parameter).
struct ParamValue {
  bool is_numeric = false;
  int rows = 0;
  int cols = 0;
  std::vector<double> values;  ///< (rows * cols), row-major
  std::string text;
};

/// The evaluated parameters a block is made from (model variables and expressions already
/// evaluated; defaults filled in). The accessors throw std::invalid_argument naming the
/// parameter when the shape is wrong, which twinblocks reports with the block's file:line.
class Params {
 public:
  /// True when the parameter is set (by the model or a default).
  bool has(const std::string& name) const { return Find(name) != nullptr; }
  /// @throws std::invalid_argument when the parameter is not set.
  const ParamValue& Get(const std::string& name) const {
    const ParamValue* v = Find(name);
    if (v == nullptr) throw std::invalid_argument("parameter '" + name + "' is not set");
    return *v;
  }
  /// @throws std::invalid_argument unless the parameter is one number.
  double Scalar(const std::string& name) const {
    const ParamValue& v = Numeric(name);
    if (v.values.size() != 1) {
      throw std::invalid_argument("parameter '" + name + "' must be a scalar, not " +
                                  std::to_string(v.rows) + "x" + std::to_string(v.cols));
    }
    return v.values[0];
  }
  /// A vector's elements (a 1 x n or n x 1 matrix, or a scalar).
  /// @throws std::invalid_argument for a matrix of more than one row and column, or text.
  std::vector<double> Vector(const std::string& name) const {
    const ParamValue& v = Numeric(name);
    if (v.rows > 1 && v.cols > 1) {
      throw std::invalid_argument("parameter '" + name + "' must be a vector, not " +
                                  std::to_string(v.rows) + "x" + std::to_string(v.cols));
    }
    return v.values;
  }
  /// The text of a word or string parameter. @throws std::invalid_argument for numbers.
  const std::string& Text(const std::string& name) const {
    const ParamValue& v = Get(name);
    if (v.is_numeric) throw std::invalid_argument("parameter '" + name + "' is not text");
    return v.text;
  }
  /// The folder of the model file the block was written in, for files a block reads.
  const std::string& base_dir() const { return base_dir_; }

  // Filled by twinblocks.
  void Set(std::string name, ParamValue value) {
    values_.emplace_back(std::move(name), std::move(value));
  }
  void set_base_dir(std::string dir) { base_dir_ = std::move(dir); }

 private:
  const ParamValue* Find(const std::string& name) const {
    for (const auto& [n, v] : values_) {
      if (n == name) return &v;
    }
    return nullptr;
  }
  const ParamValue& Numeric(const std::string& name) const {
    const ParamValue& v = Get(name);
    if (!v.is_numeric) throw std::invalid_argument("parameter '" + name + "' is not a number");
    return v;
  }

  std::vector<std::pair<std::string, ParamValue>> values_;
  std::string base_dir_;
};

/// One instance of a user block type, made by BlockType::create from its parameters. The
/// constructor declares ports, states, zero crossings and the sample time; the hooks compute.
///
/// Hooks are const, and one instance serves every simulation of a compiled model (a sweep may
/// run them on several threads at once): everything that changes during a run lives in the
/// states, discrete states and modes the block declares, which twinblocks owns, saves and
/// restores. Members set in the constructor are parameters.
class Block {
 public:
  virtual ~Block() = default;

  struct InputPort {
    std::string name;
    int width = 1;
    /// True when CalcOutputs reads this input (Simulink's direct feedthrough). A block
    /// whose outputs depend only on its states (an integrator, a plant) says false, so that
    /// it may close a feedback loop without an algebraic loop.
    bool direct_feedthrough = true;
  };
  struct OutputPort {
    std::string name;
    int width = 1;
  };

  // ---- What the block declared (read by twinblocks once the block is made) ----
  const std::vector<InputPort>& inputs() const { return inputs_; }
  const std::vector<OutputPort>& outputs() const { return outputs_; }
  int num_continuous_states() const { return nx_; }
  int num_discrete_states() const { return nxd_; }
  int num_modes() const { return nmodes_; }
  int num_zero_crossings() const { return nzc_; }
  /// s; 0 for a continuous block.
  double sample_period() const { return period_; }
  /// s, 0 <= offset < period.
  double sample_offset() const { return offset_; }
  /// True when Update runs: at the sample hits of a discrete block, at every major step of a
  /// continuous one (declared discrete states or modes imply it).
  bool has_update() const { return has_update_ || nxd_ > 0 || nmodes_ > 0; }
  bool depends_on_time() const { return depends_on_time_; }

  // ---- Hooks, called by the simulator ----
  /// Sets the initial continuous states (mutable_continuous_state()), discrete states and
  /// modes; all are 0 before. Default: leaves them at 0.
  virtual void Initialize(Context& c) const {}
  /// Writes every output from the time, states and (direct-feedthrough) inputs. Called at
  /// every solver evaluation of a continuous block, at the sample hits of a discrete one.
  virtual void CalcOutputs(Context& c) const {}
  /// Writes dx/dt (c.derivatives()) of a block with continuous states.
  virtual void CalcDerivatives(Context& c) const {}
  /// Changes discrete states and modes, or resets continuous states, at a major step (see
  /// has_update()). Called after every block's outputs at that step.
  virtual void Update(Context& c) const {}
  /// Writes the zero-crossing functions: the solver locates each sign change and ends a step
  /// there, where the next major step sees it (zero_crossing_located()).
  virtual void CalcZeroCrossings(Context& c) const {}
  /// A name for continuous state `i` in messages ("v"), or "" for "state i".
  virtual std::string DescribeContinuousState(int i) const { return {}; }

 protected:
  Block() = default;

  /// Declares an input port. @return its index, for Context::input.
  int DeclareInput(std::string name, int width = 1, bool direct_feedthrough = true) {
    inputs_.push_back({std::move(name), width, direct_feedthrough});
    return static_cast<int>(inputs_.size()) - 1;
  }
  /// Declares an output port. @return its index, for Context::output.
  int DeclareOutput(std::string name, int width = 1) {
    outputs_.push_back({std::move(name), width});
    return static_cast<int>(outputs_.size()) - 1;
  }
  void DeclareContinuousStates(int n) { nx_ = n; }
  void DeclareDiscreteStates(int n) { nxd_ = n; }
  void DeclareModes(int n) { nmodes_ = n; }
  void DeclareZeroCrossings(int n) { nzc_ = n; }
  /// Makes the block discrete: it runs at t = offset + k * period (s), where every solver
  /// lands exactly. Without it the block is continuous.
  void DeclareSampleTime(double period, double offset = 0.0) {
    period_ = period;
    offset_ = offset;
  }
  /// A continuous block without discrete states or modes whose Update must still run at every
  /// major step (to reset its continuous states).
  void DeclareMajorStepUpdate() { has_update_ = true; }
  /// The outputs change with the time itself, not only through the inputs and states (a
  /// source): the Rosenbrock solvers (ode23s, ros2) then add df/dt.
  void DeclareTimeDependence() { depends_on_time_ = true; }

 private:
  std::vector<InputPort> inputs_;
  std::vector<OutputPort> outputs_;
  int nx_ = 0, nxd_ = 0, nmodes_ = 0, nzc_ = 0;
  double period_ = 0.0, offset_ = 0.0;
  bool has_update_ = false;
  bool depends_on_time_ = false;
};

/// How a parameter's text is read (docs/model-format.md, "Parameter values").
enum class ParamKind {
  kScalar,  ///< one expression
  kVector,  ///< `[e1, e2]`, `1 2 3`, or a scalar
  kMatrix,  ///< `[[a, b], [c, d]]`, a vector (one row) or a scalar
  kWord,    ///< one of ParamSpec::words
  kString,  ///< free text (a file name)
};

/// One parameter of a block type, as `twinblocks blocks TYPE` documents it.
struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::kScalar;
  /// The default as a model file would write it; "" with `required` set: the model must give
  /// it; "" otherwise: not set (Params::has is false).
  std::string default_text;
  std::string doc;                 ///< one line, with the unit
  std::vector<std::string> words;  ///< the allowed words of a kWord parameter
  bool required = false;
};

/// A port as the docs list it.
struct PortDoc {
  std::string name;
  std::string doc;  ///< one line: meaning, width, unit
};

/// A block type of a library: its name in model files, its documentation, its parameters and
/// ports (checked when a model is edited), and how to make an instance.
struct BlockType {
  std::string name;  ///< the `type` attribute; letters, digits and '_'
  std::string category = "User blocks";
  std::string summary;    ///< one line
  std::string doc;        ///< a paragraph: behaviour and equation
  std::string reference;  ///< what it follows or matches, if anything
  std::vector<ParamSpec> params;
  std::vector<PortDoc> inputs;
  std::vector<PortDoc> outputs;
  /// Makes an instance. Throws (any std::exception) with one line on a bad parameter.
  std::function<std::unique_ptr<Block>(const Params&)> create;
};

/// Where a library's entry function registers its types (twinblocks implements it).
class Registry {
 public:
  virtual void Add(BlockType type) = 0;
  /// The reason registration failed (the entry function reports an exception here).
  virtual void Fail(const std::string& message) = 0;

 protected:
  ~Registry() = default;
};

}  // namespace twinblocks::user

/// Defines a block library's entry function; the braces that follow are its body, which adds
/// the library's types to `registry` (a twinblocks::user::Registry&):
///
///   TWINBLOCKS_BLOCK_LIBRARY(registry) {
///     registry.Add(MassSpringDamperType());
///   }
///
/// The function returns 0 when it registered, this header's kAbiVersion when twinblocks has
/// another one (nothing is registered), -1 when the body threw (the reason in Registry::Fail).
#define TWINBLOCKS_BLOCK_LIBRARY(registry)                                                      \
  static void TwinblocksRegisterBlocks(::twinblocks::user::Registry& registry);                 \
  extern "C" __attribute__((visibility("default"))) int twinblocks_register_blocks(             \
      int abi_version, ::twinblocks::user::Registry* target) {                                  \
    if (abi_version != ::twinblocks::user::kAbiVersion) return ::twinblocks::user::kAbiVersion; \
    try {                                                                                       \
      TwinblocksRegisterBlocks(*target);                                                        \
    } catch (const std::exception& e) {                                                         \
      target->Fail(e.what());                                                                   \
      return -1;                                                                                \
    } catch (...) {                                                                             \
      target->Fail("an exception that is no std::exception");                                   \
      return -1;                                                                                \
    }                                                                                           \
    return 0;                                                                                   \
  }                                                                                             \
  static void TwinblocksRegisterBlocks(::twinblocks::user::Registry& registry)
