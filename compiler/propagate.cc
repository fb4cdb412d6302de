// Phases 4 and 5 of Compile(): port widths from the sources on (scalar expansion), with the
// shapes that ride on them (matrix dimensions, bus layouts: blocks/signal_shape.h), and sample
// times, inherited from the inputs where a block does not set its own.
#include <algorithm>
#include <cmath>

#include "common/suggest.h"
#include "compiler/detail/compiler.h"

namespace twinblocks::graph {

using blocks::BlockError;

int Compiler::DriverWidth(const FlatBlock& fb, int input) const {
  const FlatBlock& src = flat_[fb.input_driver[input]];
  return src.block->output_port(fb.input_driver_port[input]).width;
}

void Compiler::ConfigureBlock(FlatBlock& fb, bool assume_defaults) {
  const Block& b = *fb.block;
  std::vector<int> widths(b.num_inputs());
  // Matrix dimensions and bus layouts travel with the widths, from each driver's output (the
  // real block output found through lines, subsystem ports and Goto/From).
  std::vector<blocks::SignalShape> shapes(b.num_inputs());
  for (int i = 0; i < b.num_inputs(); ++i) {
    const int w = DriverWidth(fb, i);
    widths[i] = w >= 0 ? w : (assume_defaults ? b.DefaultInputWidth() : -1);
    const FlatBlock& src = flat_[fb.input_driver[i]];
    const Block::OutputPort& out = src.block->output_port(fb.input_driver_port[i]);
    if (src.configured || out.shape_set) shapes[i] = out.shape;
  }
  try {
    fb.block->Configure(widths, shapes);
  } catch (const BlockError& e) {
    if (!fb.input_origin.empty() && !e.port().empty()) {
      const int input = b.FindInput(e.port());
      if (input >= 0) FailInput(fb, input, e.what());
    }
    FailBlock(fb, e.what());
  }
  fb.configured = true;
}

void Compiler::PropagateWidths() {
  size_t remaining = real_.size();
  while (remaining > 0) {
    bool progress = false;
    // First the blocks whose drivers are all configured, so that a driver's shape (set only
    // when it is configured, unless it declares one) is final when its readers see it; then,
    // in a feedback loop, those whose drivers' widths are known (a width declared up front).
    for (const bool drivers_configured : {true, false}) {
      for (int f : real_) {
        FlatBlock& fb = flat_[f];
        if (fb.configured) continue;
        bool ready = true;
        for (int i = 0; i < fb.block->num_inputs() && ready; ++i) {
          ready =
              drivers_configured ? flat_[fb.input_driver[i]].configured : DriverWidth(fb, i) >= 0;
        }
        if (!ready) continue;
        ConfigureBlock(fb, false);
        --remaining;
        progress = true;
      }
      if (progress) break;
    }
    if (progress) continue;
    // A feedback loop with no width to start from: assume the first unresolved block's
    // default input width (1, or an integrator's x0 size) and check everything afterwards.
    for (int f : real_) {
      if (flat_[f].configured) continue;
      ConfigureBlock(flat_[f], true);
      --remaining;
      break;
    }
  }
  for (int f : real_) {
    const FlatBlock& fb = flat_[f];
    for (int i = 0; i < fb.block->num_inputs(); ++i) {
      const int have = DriverWidth(fb, i);
      const int want = fb.block->input_port(i).width;
      if (have != want) {
        const FlatBlock& src = flat_[fb.input_driver[i]];
        FailBlock(fb, "input '" + fb.block->input_port(i).name + "' has width " +
                          std::to_string(want) + " but '" + src.path + "." +
                          src.block->output_port(fb.input_driver_port[i]).name + "' gives width " +
                          std::to_string(have));
      }
    }
  }
}

void Compiler::ResolveSampleTimes() {
  for (int f : real_) {
    FlatBlock& fb = flat_[f];
    const SampleTime& st = fb.block->sample_time();
    if (st.is_discrete()) {
      if (!(st.period > 0.0) || !std::isfinite(st.period)) {
        FailBlock(fb,
                  "sample time Ts must be positive, -1 (inherited) or 0 (continuous), "
                  "got " +
                      FormatNumber(st.period));
      }
      if (st.offset < 0.0 || st.offset >= st.period) {
        FailBlock(fb, "sample time offset must satisfy 0 <= offset < Ts, got offset " +
                          FormatNumber(st.offset) + " with Ts " + FormatNumber(st.period));
      }
    }
    if (InTriggeredSubsystem(fb) && !st.is_constant()) {
      // Simulink's rule: the blocks of a triggered subsystem run at its trigger only.
      if (fb.block->num_continuous_states() > 0) {
        FailBlock(fb,
                  "a block with continuous states cannot be in a triggered subsystem: it "
                  "runs only at its trigger; use a discrete block, or an enabled subsystem");
      }
      if (!st.is_inherited()) {
        FailBlock(fb,
                  "a block in a triggered subsystem runs at its trigger: leave its sample "
                  "time inherited (Ts=-1), not " +
                      internal::DescribeRate(st));
      }
      fb.rate = SampleTime::Triggered();
      fb.rate_resolved = true;
      continue;
    }
    if (!st.is_inherited()) {
      fb.rate = st;
      fb.rate_resolved = true;
    }
  }
  bool progress = true;
  bool relaxed = false;  // after a deadlock, resolve from the drivers that are known
  while (true) {
    progress = false;
    bool pending = false;
    for (int f : real_) {
      FlatBlock& fb = flat_[f];
      if (fb.rate_resolved) continue;
      std::vector<SampleTime> driver_rates;
      bool ready = true;
      for (int i = 0; i < fb.block->num_inputs(); ++i) {
        const FlatBlock& src = flat_[fb.input_driver[i]];
        if (src.rate_resolved) {
          driver_rates.push_back(src.rate);
        } else {
          ready = false;
        }
      }
      if (!ready && !(relaxed && !driver_rates.empty())) {
        pending = true;
        continue;
      }
      fb.rate = InheritRate(fb, driver_rates);
      fb.rate_resolved = true;
      progress = true;
      relaxed = false;
    }
    if (!pending) break;
    if (!progress) {
      if (relaxed) {
        // A loop of inherited blocks with nothing known around it runs continuously.
        for (int f : real_) {
          FlatBlock& fb = flat_[f];
          if (fb.rate_resolved) continue;
          fb.rate = InheritRate(fb, {});
          fb.rate_resolved = true;
          break;
        }
      }
      relaxed = true;
    }
  }
  std::vector<SampleTime> rates;
  for (int f : real_) {
    if (flat_[f].rate.is_discrete() &&
        std::find(rates.begin(), rates.end(), flat_[f].rate) == rates.end()) {
      rates.push_back(flat_[f].rate);
    }
  }
  std::sort(rates.begin(), rates.end(), [](const SampleTime& a, const SampleTime& b) {
    return a.period != b.period ? a.period < b.period : a.offset < b.offset;
  });
  system_.rates_ = rates;
}

blocks::SampleTime Compiler::InheritRate(const FlatBlock& fb,
                                         const std::vector<SampleTime>& drivers) {
  const bool needs_discrete = fb.block->requires_discrete_rate();
  bool any_continuous = false, all_constant = !drivers.empty();
  std::vector<SampleTime> discrete;
  for (const SampleTime& st : drivers) {
    if (st.is_continuous()) any_continuous = true;
    if (!st.is_constant()) all_constant = false;
    if (st.is_discrete() && std::find(discrete.begin(), discrete.end(), st) == discrete.end()) {
      discrete.push_back(st);
    }
  }
  if (needs_discrete) {
    if (discrete.size() == 1 && !any_continuous) return discrete.front();
    std::string why = drivers.empty()       ? "nothing it could inherit from"
                      : any_continuous      ? "a continuous input"
                      : all_constant        ? "only constant inputs"
                      : discrete.size() > 1 ? "inputs at different rates"
                                            : "no rate it could inherit";
    FailBlock(fb,
              "cannot inherit a discrete sample time (Ts=-1): it has " + why + "; give it a Ts");
  }
  // A block whose output changes with time (an Expression of t) is constant only in its
  // inputs: it runs at every evaluation.
  if (all_constant) {
    return fb.block->depends_on_time() ? SampleTime::Continuous() : SampleTime::Constant();
  }
  if (!any_continuous && discrete.size() == 1) return discrete.front();
  // Mixed rates or continuous inputs: running at every evaluation is always right for a
  // block without memory, since its discrete inputs are held between their hits.
  return SampleTime::Continuous();
}

}  // namespace twinblocks::graph
