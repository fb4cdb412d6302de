#include "blocks/signal/register_signal_blocks.h"

#include "blocks/signal/abs.h"
#include "blocks/signal/assertion.h"
#include "blocks/signal/band_limited_white_noise.h"
#include "blocks/signal/chirp.h"
#include "blocks/signal/clock.h"
#include "blocks/signal/constant.h"
#include "blocks/signal/dead_zone.h"
#include "blocks/signal/derivative.h"
#include "blocks/signal/expression.h"
#include "blocks/signal/from_file.h"
#include "blocks/signal/from_workspace.h"
#include "blocks/signal/gain.h"
#include "blocks/signal/integrator.h"
#include "blocks/signal/min_max.h"
#include "blocks/signal/pid.h"
#include "blocks/signal/pid_2dof.h"
#include "blocks/signal/product.h"
#include "blocks/signal/pulse.h"
#include "blocks/signal/ramp.h"
#include "blocks/signal/random_number.h"
#include "blocks/signal/repeating_sequence.h"
#include "blocks/signal/saturation.h"
#include "blocks/signal/second_order_integrator.h"
#include "blocks/signal/sign.h"
#include "blocks/signal/signal_generator.h"
#include "blocks/signal/sine.h"
#include "blocks/signal/state_space.h"
#include "blocks/signal/step.h"
#include "blocks/signal/stop_simulation.h"
#include "blocks/signal/sum.h"
#include "blocks/signal/transfer_function.h"
#include "blocks/signal/uniform_random_number.h"

namespace twinblocks::blocks {

void RegisterSignalBlocks(BlockRegistry& registry) {
  // Sources.
  registry.Add(ConstantType());
  registry.Add(StepType());
  registry.Add(RampType());
  registry.Add(SineType());
  registry.Add(PulseType());
  registry.Add(ClockType());
  registry.Add(FromFileType());
  registry.Add(FromWorkspaceType());
  registry.Add(RepeatingSequenceType());
  registry.Add(SignalGeneratorType());
  registry.Add(ChirpType());
  registry.Add(RandomNumberType());
  registry.Add(UniformRandomNumberType());
  registry.Add(BandLimitedWhiteNoiseType());
  // Math and continuous.
  registry.Add(GainType());
  registry.Add(SumType());
  registry.Add(ProductType());
  registry.Add(AbsType());
  registry.Add(SignType());
  registry.Add(MinMaxType());
  registry.Add(SaturationType());
  registry.Add(DeadZoneType());
  registry.Add(ExpressionType());
  registry.Add(IntegratorType());
  registry.Add(SecondOrderIntegratorType());
  registry.Add(DerivativeType());
  registry.Add(TransferFunctionType());
  registry.Add(StateSpaceType());
  registry.Add(PidType());
  registry.Add(Pid2DofType());
  // Sinks and verification.
  registry.Add(StopSimulationType());
  registry.Add(AssertionType());
}

}  // namespace twinblocks::blocks
