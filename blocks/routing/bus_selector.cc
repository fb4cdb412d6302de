#include "blocks/routing/bus_selector.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>

#include "blocks/routing/detail/signal_names.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

BusSelector::BusSelector(const Params& params)
    : signals_(internal::ParseSignalNames(params.String("signals"), "signals", true)),
      output_as_bus_(params.Bool("output_as_bus")) {
  CheckPortCountParam(static_cast<std::int64_t>(signals_.size()), "signals");
  DeclareInput("u");
  if (output_as_bus_) {
    DeclareOutput("y");
  } else {
    for (int k = 0; k < static_cast<int>(signals_.size()); ++k) {
      DeclareOutput(internal::NumberedPort("y", k));
    }
  }
}

void BusSelector::DoConfigure(const std::vector<int>& input_widths) {
  const SignalShape& u = in_shape(0);
  if (!u.is_bus()) {
    throw BlockError("input 'u' is no bus (a " + u.Describe() + " of width " +
                         std::to_string(input_widths[0]) +
                         "); connect it to a BusCreator's output (through lines, subsystem "
                         "ports or Goto/From)",
                     {}, "u");
  }
  slices_.clear();
  auto bus = std::make_shared<BusLayout>();
  std::int64_t offset = 0;
  for (int k = 0; k < static_cast<int>(signals_.size()); ++k) {
    const BusSelection sel = SelectFromBus(*u.bus, signals_[k], "signals");
    if (!output_as_bus_) {
      slices_.push_back({sel.offset, sel.width, k, 0});
      SetOutputWidth(k, sel.width);
      SetOutputShape(k, sel.shape);
      continue;
    }
    // One bus of the selected elements, each under the last part of its name.
    const std::string name = signals_[k].substr(signals_[k].rfind('.') + 1);
    if (bus->Find(name) != nullptr) {
      throw BlockError("parameter 'signals' selects two elements named '" + name +
                           "' for one bus (output_as_bus takes the last part of each name)",
                       "signals");
    }
    const int at =
        static_cast<int>(std::min<std::int64_t>(offset, std::numeric_limits<int>::max()));
    slices_.push_back({sel.offset, sel.width, 0, at});
    bus->elements.push_back({name, at, sel.width, sel.shape});
    offset += sel.width;
  }
  if (output_as_bus_) {
    bus->width = static_cast<int>(std::min<std::int64_t>(offset, std::numeric_limits<int>::max()));
    SetOutputWidth(0, bus->width);
    SetOutputShape(0, SignalShape::Bus(std::move(bus)));
  }
}

void BusSelector::DoCalcOutputs(Context& c, int stage) const {
  const double* u = in(c, 0);
  for (const Slice& s : slices_) {
    std::copy(u + s.from, u + s.from + s.width, out(c, s.output) + s.to);
  }
}

BlockType BusSelectorType() {
  BlockType t;
  t.name = "BusSelector";
  t.category = "Routing and structure";
  t.summary = "Picks elements of a bus by name.";
  t.doc =
      "One output per name in `signals` (a list: \"vel, arm.q\"): y_k is the element of the "
      "bus u of that name, with its width and shape (a matrix, or a nested bus); dots name "
      "the elements of nested buses. With output_as_bus, one output y instead: a bus of the "
      "selected elements, each named by the last part of its name. u must carry a bus layout "
      "(from a BusCreator, through lines, subsystem ports and Goto/From); a name the bus does "
      "not have is a compile error that lists the bus's names and suggests the nearest. The "
      "offsets are found at compile time: at run time the block copies slices. Inherited "
      "sample time; direct feedthrough.";
  t.reference =
      "Simulink Bus Selector (output as virtual bus: output_as_bus); ports are y1..yk, not "
      "named after the signals";
  t.params = {{"signals", ParamKind::kString, "", "the names to select, comma-separated", {}, true},
              {"output_as_bus",
               ParamKind::kWord,
               "false",
               "true: one bus output y of the selected elements",
               {"true", "false"}}};
  t.inputs = {{"u", "a bus"}};
  t.outputs = {{"y1..yk", "the selected elements (y alone with output_as_bus)"}};
  t.create = [](const Params& p) { return std::make_unique<BusSelector>(p); };
  return t;
}

}  // namespace twinblocks::blocks
