#pragma once

#include <string>
#include <vector>

#include "blocks/block.h"
#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// The control of one conditional subsystem (Simulink's Enable and Trigger blocks), made by
/// the compiler for a subsystem with an `<enable>` or `<trigger>` port: it decides, at major
/// steps, whether the subsystem's blocks run, and says so on its output `active` (1 or 0),
/// which the simulator reads to run or skip them (Block::condition()).
///
/// Enabled: active while any element of `enable` is > 0, decided at major steps and held
/// inside solver steps, with a zero crossing on each element so that the solver lands on the
/// switch. While inactive, the blocks' continuous states hold (their derivatives are 0),
/// their discrete states hold, their outputs hold. Enabled again with states "reset", the
/// blocks start from their initial states.
///
/// Triggered: active only at the major step where an element of `trigger` crosses 0 in the
/// edge's direction (rising: from < 0 to >= 0 or from 0 to > 0), located by the solver's
/// zero-crossing detection; the blocks then compute their outputs and update once (they run
/// at the triggered rate, SampleTime::Triggered). With an enable too, edges count only while
/// enabled.
///
/// The solver restarts wherever the subsystem starts, stops or fires: what it feeds jumps.
class ConditionControl final : public Block {
 public:
  enum class Edge { kNone, kRising, kFalling, kEither };

  struct Spec {
    bool enable = false;        ///< has an `enable` input
    bool reset_states = false;  ///< states when enabled again: reset (true) or held
    Edge edge = Edge::kNone;    ///< the trigger's edge; kNone: no `trigger` input
  };

  explicit ConditionControl(const Spec& spec);

  /// The blocks of the subsystem, to start again from their initial states when it is
  /// enabled with states "reset". Set by the compiler before the run; they outlive it.
  void SetMembers(std::vector<const Block*> members) { members_ = std::move(members); }

  /// From the words of the ports (PortDecl::behavior): "" or "rising", "falling", "either".
  static Edge EdgeFromWord(const std::string& word);

 private:
  void DoConfigure(const std::vector<int>& input_widths) override;
  void DoInitialize(Context& c) const override;
  void DoCalcOutputs(Context& c, int stage) const override;
  void DoUpdate(Context& c) const override;
  void DoCalcZeroCrossings(Context& c) const override;

  bool Enabled(const Context& c) const;
  bool Fired(const Context& c) const;

  Spec spec_;
  int in_enable_ = -1, in_trigger_ = -1;
  int enable_width_ = 0, trigger_width_ = 0;
  std::vector<const Block*> members_;
};

/// The registry entries the compiler gives its ConditionControl blocks, for messages.
const BlockType& EnablePortType();
const BlockType& TriggerPortType();

}  // namespace twinblocks::blocks
