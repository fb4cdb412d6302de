// Phases 7 and 8 of Compile(): offsets of every block into the per-run arrays, the execution
// lists the simulator walks, and the logged signals.
#include <algorithm>
#include <cstdint>

#include "common/input_limits.h"
#include "compiler/detail/compiler.h"
#include "model/model.h"

namespace twinblocks::graph {

using internal::DescribeRate;

void Compiler::Layout() {
  std::vector<int> system_index(flat_.size(), -1);
  int next_index = 0;
  int signals = 0, x = 0, xd = 0, dwork = 0, modes = 0, zc = 0, z = 0;
  std::int64_t model_values = 0;
  for (int f : real_) {
    FlatBlock& fb = flat_[f];
    Block& b = *fb.block;
    system_index[f] = next_index++;
    for (int i = 0; i < b.num_outputs(); ++i) {
      b.SetOutputOffset(i, signals);
      signals += b.output_port(i).width;
    }
    Block::Layout layout;
    layout.index = system_index[f];
    layout.x = x;
    layout.xd = xd;
    layout.dwork = dwork;
    layout.modes = modes;
    layout.z = z;
    layout.sample_time = fb.rate;
    layout.condition = fb.condition;
    layout.rate_index = -1;
    if (fb.rate.is_discrete()) {
      const auto& rates = system_.rates_;
      layout.rate_index =
          static_cast<int>(std::find(rates.begin(), rates.end(), fb.rate) - rates.begin());
    }
    // Only continuous blocks get zero-crossing slots: a discrete block's modes change only
    // at its own hits, which are major steps anyway.
    const bool continuous = fb.rate.is_continuous();
    layout.zc = continuous ? zc : 0;
    b.SetLayout(layout);
    if (network_ && f == network_->mechanism_flat) network_->mechanism_layout = layout;
    if (fb.tune) {
      fb.tune->system_index = system_index[f];
      fb.tune->layout = layout;
      for (int i = 0; i < b.num_inputs(); ++i)
        fb.tune->input_widths.push_back(b.input_port(i).width);
    }
    // Each block is within the block_values limit; together they may not be: check before
    // the int offsets could overflow and before the run's arrays are made.
    model_values += b.num_continuous_states() + b.num_algebraic_variables() +
                    b.num_discrete_states() + b.num_dwork() + b.num_modes() +
                    b.num_zero_crossings();
    for (int i = 0; i < b.num_outputs(); ++i) model_values += b.output_port(i).width;
    if (model_values > blocks::CurrentInputLimits().model_values) {
      throw ModelError(fb.where, fb.path, fb.type->name,
                       "the model needs " + std::to_string(model_values) +
                           " values up to this block (outputs, states and work memory), " +
                           blocks::OverLimit("model_values"));
    }
    x += b.num_continuous_states();
    z += b.num_algebraic_variables();
    xd += b.num_discrete_states();
    dwork += b.num_dwork();
    modes += b.num_modes();
    if (continuous) zc += b.num_zero_crossings();
    system_.paths_.push_back(fb.path);
    system_.types_.push_back(fb.type->name);
  }
  for (int f : real_) {
    FlatBlock& fb = flat_[f];
    for (int i = 0; i < fb.block->num_inputs(); ++i) {
      const FlatBlock& src = flat_[fb.input_driver[i]];
      fb.block->SetInputOffset(i, src.block->output_port(fb.input_driver_port[i]).offset);
    }
  }
  // The continuous blocks a solver evaluation needs: those with states, algebraic variables
  // or zero crossings, and the continuous blocks feeding them (discrete and constant outputs
  // hold between hits).
  std::vector<char> in_evaluations(flat_.size(), 0);
  std::vector<int> reached;
  for (int f : real_) {
    const Block& b = *flat_[f].block;
    if (flat_[f].rate.is_continuous() &&
        (b.num_continuous_states() > 0 || b.num_algebraic_variables() > 0 ||
         b.num_zero_crossings() > 0)) {
      in_evaluations[f] = 1;
      reached.push_back(f);
    }
  }
  while (!reached.empty()) {
    const FlatBlock& fb = flat_[reached.back()];
    reached.pop_back();
    for (int driver : fb.input_driver) {
      if (driver < 0 || in_evaluations[driver] != 0 || !flat_[driver].rate.is_continuous()) {
        continue;
      }
      in_evaluations[driver] = 1;
      reached.push_back(driver);
    }
  }
  for (const auto& [f, s] : order_) {
    const Block* b = flat_[f].block.get();
    const SampleTime& st = flat_[f].rate;
    if (st.is_constant()) {
      system_.constant_order_.push_back({b, s});
    } else {
      system_.major_order_.push_back({b, s});
      if (st.is_continuous()) system_.continuous_order_.push_back({b, s});
      if (in_evaluations[f] != 0) system_.minor_order_.push_back({b, s});
    }
  }
  for (int f : real_) {
    const Block* b = flat_[f].block.get();
    if (b->num_continuous_states() > 0) {
      if (!flat_[f].rate.is_continuous()) {
        FailBlock(flat_[f],
                  "a block with continuous states must run continuously, but it "
                  "resolved to " +
                      DescribeRate(flat_[f].rate));
      }
      system_.derivative_blocks_.push_back(b);
    }
    if (b->has_update()) system_.update_blocks_.push_back(b);
    if (flat_[f].rate.is_continuous() && b->num_zero_crossings() > 0) {
      system_.zc_blocks_.push_back(b);
    }
    if (b->has_breakpoints()) system_.breakpoint_blocks_.push_back(b);
  }
  for (const Condition& g : conditions_) {
    system_.conditions_.push_back({flat_[g.control].block->output_port(0).offset, g.parent});
  }
  for (int f : real_) system_.blocks_.push_back(std::move(flat_[f].block));
  system_.num_signals_ = signals;
  system_.nx_ = x;
  system_.nz_ = z;
  system_.nxd_ = xd;
  system_.ndwork_ = dwork;
  system_.nmodes_ = modes;
  system_.nzc_ = zc;
  system_index_ = std::move(system_index);
  // What retuning needs: every catalog block, absorbed network elements too (so that a change
  // that reaches them is refused by name).
  internal::Tuning tuning;
  tuning.variables = model_.variables;
  std::vector<int> tunable_of_flat(flat_.size(), -1);
  if (network_) {
    for (size_t e = 0; e < network_->element_flat.size(); ++e) {
      FlatBlock& fb = flat_[network_->element_flat[e]];
      if (fb.tune) fb.tune->mechanism_element = static_cast<int>(e);
    }
  }
  for (FlatBlock& fb : flat_) {
    if (!fb.tune) continue;
    tunable_of_flat[&fb - flat_.data()] = static_cast<int>(tuning.blocks.size());
    tuning.blocks.push_back(std::move(*fb.tune));
  }
  if (network_) tuning.mechanism = TakeNetworkForTuning(tunable_of_flat);
  system_.tuner_ = std::make_unique<internal::CompiledTuning>(std::move(tuning));
}

internal::TunableMechanism Compiler::TakeNetworkForTuning(const std::vector<int>& tunable_of_flat) {
  internal::TunableMechanism m;
  m.elements = std::move(network_->elements);
  m.num_nodes = network_->num_nodes;
  for (size_t e = 0; e < m.elements.size(); ++e) {
    const int f = network_->element_flat[e];
    // The absorbed elements' blocks never run: the tuning keeps them, as the parameters the
    // mechanism is built again from.
    m.element_blocks.push_back(std::move(flat_[f].block));
    m.elements[e].block = m.element_blocks.back().get();
    m.element_tunable.push_back(tunable_of_flat[f]);
  }
  const FlatBlock& mech = flat_[network_->mechanism_flat];
  const Block& b = system_.block(system_index_[network_->mechanism_flat]);
  m.block.path = mech.path;
  m.block.type = mech.type;
  m.block.where = mech.where;
  m.block.system_index = system_index_[network_->mechanism_flat];
  m.block.declared_rate = network_->mechanism_declared_rate;
  m.block.layout = network_->mechanism_layout;
  for (int i = 0; i < b.num_inputs(); ++i) m.block.input_widths.push_back(b.input_port(i).width);
  for (NetworkRecord::Robot& r : network_->robots) {
    if (tunable_of_flat[r.flat] < 0) continue;
    m.robots.push_back({tunable_of_flat[r.flat], std::move(r.in_robot), r.frame_element,
                        r.frame_port, std::move(r.name)});
  }
  network_.reset();
  return m;
}

std::optional<LoggedSignal> Compiler::ResolveSignal(const std::string& path_port) const {
  auto it = point_index_.find(path_port);
  if (it == point_index_.end()) return ResolveBusElement(path_port);
  const Point& p = points_[it->second];
  if (p.role_outside == Role::kPhysical) return std::nullopt;
  int source = -1;
  if (p.is_real_input) {
    const FlatBlock& fb = flat_[p.block];
    const int f = fb.input_driver[p.port];
    const int port = fb.input_driver_port[p.port];
    const Block& b = *system_.blocks_[system_index_[f]];
    return LoggedSignal{path_port, flat_[f].path + "." + b.output_port(port).name,
                        b.output_port(port).offset, b.output_port(port).width};
  }
  int last = it->second;
  source = FollowToSource(it->second, &last);
  if (source < 0) return std::nullopt;
  const Point& sp = points_[source];
  const Block& b = *system_.blocks_[system_index_[sp.block]];
  return LoggedSignal{path_port, sp.name, b.output_port(sp.port).offset,
                      b.output_port(sp.port).width};
}

std::optional<LoggedSignal> Compiler::ResolveBusElement(const std::string& text) const {
  // "path.port.element[.inner]": the longest "path.port" before it that names a bus.
  for (size_t dot = text.rfind('.'); dot != std::string::npos && dot > 0;
       dot = text.rfind('.', dot - 1)) {
    if (point_index_.find(text.substr(0, dot)) == point_index_.end()) continue;
    std::optional<LoggedSignal> s = ResolveSignal(text.substr(0, dot));
    if (!s) return std::nullopt;
    const int b = system_.FindBlock(s->source.substr(0, s->source.rfind('.')));
    if (b < 0) return std::nullopt;
    const Block& block = system_.block(b);
    const int port = block.FindOutput(s->source.substr(s->source.rfind('.') + 1));
    if (port < 0 || !block.output_port(port).shape.is_bus()) return std::nullopt;
    try {
      const blocks::BusSelection sel =
          blocks::SelectFromBus(*block.output_port(port).shape.bus, text.substr(dot + 1), "log");
      return LoggedSignal{text, s->source + "." + text.substr(dot + 1), s->offset + sel.offset,
                          sel.width};
    } catch (const blocks::BlockError&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void Compiler::AddLog(const std::string& signal, const std::string& as,
                      const SourceLocation& where) {
  std::optional<LoggedSignal> s = ResolveSignal(signal);
  if (!s) {
    std::string msg = "cannot log '" + signal +
                      "': no such signal (write path.port of a "
                      "block output, e.g. 'sub/gain.y')";
    if (where.known()) FailAt(where, msg);
    throw ModelError(SourceLocation{"--log", 0}, msg);
  }
  s->name = as.empty() ? signal : as;
  for (const LoggedSignal& other : system_.logged_) {
    if (other.name == s->name) {
      const std::string msg =
          "two logged signals are named '" + s->name + "'; give one an `as` name";
      if (where.known()) FailAt(where, msg);
      throw ModelError(SourceLocation{"--log", 0}, msg);
    }
  }
  system_.logged_.push_back(*s);
}

void Compiler::ResolveLogs() {
  for (const LogSpec& log : model_.logs) AddLog(log.signal, log.as, log.where);
  for (const std::string& s : options_.extra_logs) AddLog(s, "", {});
  // A plot's and a summary's signals are logged too, unless a log already records the same
  // output under some name: their readers find the columns by buffer offset, whatever they are
  // called. `owner` and `verb` word the errors: "plot 'p.svg'", "plot".
  auto log_element_signal = [&](const std::string& text, const SourceLocation& where,
                                const std::string& owner, const std::string& verb) {
    const std::optional<PlotSignal> ps = ParsePlotSignal(text);
    std::optional<LoggedSignal> s = ps ? ResolveSignal(ps->signal) : std::nullopt;
    if (!s) {
      FailAt(where, owner + ": cannot " + verb + " '" + text +
                        "': no such signal (write path.port of a block output, e.g. "
                        "'arm/j1.q', or 'arm/j1.wrench[2]' for one element)");
    }
    if (ps->element >= s->width) {
      FailAt(where, owner + ": cannot " + verb + " '" + text + "': '" + ps->signal +
                        "' has width " + std::to_string(s->width) +
                        ", so its elements are [0] ... [" + std::to_string(s->width - 1) + "]");
    }
    const bool logged = std::any_of(
        system_.logged_.begin(), system_.logged_.end(),
        [&](const LoggedSignal& l) { return l.offset == s->offset && l.width == s->width; });
    if (!logged) system_.logged_.push_back(*s);
  };
  for (const PlotSpec& plot : model_.plots) {
    for (const std::string& text : plot.signals) {
      log_element_signal(text, plot.where, "plot '" + plot.file + "'", "plot");
    }
  }
  for (const SummarySpec& summary : model_.summaries) {
    for (const std::string& text : summary.signals) {
      log_element_signal(text, summary.where, "summary " + std::string(SummaryOpName(summary.op)),
                         "summarize");
    }
  }
  for (const auto& [name, index] : point_index_) {
    if (std::optional<LoggedSignal> s = ResolveSignal(name)) system_.directory_.push_back(*s);
  }
  std::sort(system_.directory_.begin(), system_.directory_.end(),
            [](const LoggedSignal& a, const LoggedSignal& b) { return a.name < b.name; });
}

}  // namespace twinblocks::graph
