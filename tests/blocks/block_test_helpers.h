#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_error.h"
#include "blocks/block_registry.h"
#include "blocks/param.h"

/// A harness that runs one block the way the simulator does, with buffers it owns: the test
/// plays the part of the blocks that drive the inputs.
namespace twinblocks::blocks::testing {

/// Parameter texts as written in a model file, by parameter name.
using ParamTexts = std::map<std::string, std::string>;

/// Evaluates a parameter text the way its spec says, with a small evaluator of our own:
/// one expression (`2*pi`, `-inf`), a vector `[a, b]`, a matrix `[[a, b], [c, d]]`; words
/// are checked against the spec's list; strings are kept as they are.
/// @throws std::invalid_argument when the text does not evaluate.
ParamValue EvaluateText(const std::string& text, const ParamSpec& spec,
                        const std::vector<std::pair<std::string, double>>& variables = {});

/// Every ParamSpec of `type`: the given text or the default; unset when neither.
/// @throws std::invalid_argument for a name the type does not have.
Params MakeParams(const BlockType& type, const ParamTexts& texts, const std::string& base_dir = {},
                  const std::vector<std::pair<std::string, double>>& variables = {});

/// The catalog entry of `type`. @throws std::invalid_argument when there is none.
const BlockType& TypeOf(const std::string& type);

/// Constructs a block from the catalog (no Configure). @throws BlockError like the compiler sees.
std::unique_ptr<Block> MakeBlock(const std::string& type, const ParamTexts& texts = {},
                                 const std::string& base_dir = {});

/// Runs `f` and returns the BlockError it throws, or a BlockError saying "nothing thrown".
template <class F>
BlockError CatchBlockError(F&& f) {
  try {
    f();
  } catch (const BlockError& e) {
    return e;
  }
  return BlockError("nothing thrown");
}

class BlockHarness {
 public:
  struct Options {
    std::string base_dir;
    std::vector<std::pair<std::string, double>> variables;
    /// What an inherited sample time resolves to (the rate of what would drive the block).
    SampleTime inherited_as = SampleTime::Continuous();
    /// The shapes of what drives the inputs (matrices, buses), per input; empty: plain.
    std::vector<SignalShape> input_shapes;
  };

  /// Creates, configures and lays out the block. @throws BlockError from the block.
  BlockHarness(const std::string& type, const ParamTexts& texts,
               const std::vector<int>& input_widths, Options options);
  BlockHarness(const std::string& type, const ParamTexts& texts,
               const std::vector<int>& input_widths)
      : BlockHarness(type, texts, input_widths, Options{}) {}

  const Block& block() const { return *block_; }

  void SetInput(int port, const std::vector<double>& values);
  void SetInput(const std::string& port, const std::vector<double>& values);
  /// Shorthand for scalar inputs in port order.
  void SetInputs(const std::vector<double>& scalars);
  std::vector<double> Output(int port = 0) const;
  std::vector<double> Output(const std::string& port) const;
  double Out(int port = 0, int element = 0) const { return Output(port).at(element); }

  /// Sets initial states and modes at `t0`.
  void Initialize(double t0 = 0.0);
  /// A major step at `t`: outputs of every stage (discrete blocks only at their hits,
  /// constant ones only at the first major step), then Update if the block has one and runs.
  /// Returns true when the block set Context::states_reset.
  bool MajorStep(double t);
  /// Outputs at `t` inside a solver step (modes held); a no-op for discrete and constant blocks.
  void MinorOutputs(double t);
  /// CalcDerivatives at the current time and state.
  std::vector<double> Derivatives();
  /// CalcZeroCrossings at the current time and state.
  std::vector<double> ZeroCrossings();
  double NextBreakpoint(double t) const { return block_->NextBreakpoint(c_, t); }
  /// True when a discrete block has a hit at `t`.
  bool IsHit(double t) const;

  std::vector<double>& x() { return x_; }
  std::vector<double>& xd() { return xd_; }
  std::vector<int>& modes() { return modes_; }
  std::vector<double>& dwork() { return dwork_; }
  /// Sets the continuous state the way a solver would before a stage evaluation.
  void SetState(const std::vector<double>& x);

 private:
  void Outputs();

  std::unique_ptr<Block> block_;
  std::vector<double> signals_, x_, xdot_, xd_, dwork_, zc_;
  std::vector<int> modes_;
  std::vector<unsigned char> rate_hits_;
  std::unique_ptr<BlockWorkspace> workspace_;
  std::vector<BlockWorkspace*> workspaces_;
  Context c_;
  bool first_major_ = true;
};

}  // namespace twinblocks::blocks::testing
