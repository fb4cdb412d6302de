#include "blocks/routing/bus_creator.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>

#include "blocks/routing/detail/signal_names.h"
#include "blocks/signal/detail/block_helpers.h"

namespace twinblocks::blocks {

BusCreator::BusCreator(const Params& params)
    : names_(internal::ParseSignalNames(params.String("names"), "names", false)) {
  CheckPortCountParam(static_cast<std::int64_t>(names_.size()), "names");
  for (int j = 0; j < static_cast<int>(names_.size()); ++j) {
    DeclareInput(internal::NumberedPort("u", j));
  }
  DeclareOutput("y");
}

void BusCreator::DoConfigure(const std::vector<int>& input_widths) {
  auto bus = std::make_shared<BusLayout>();
  std::int64_t offset = 0;
  for (int j = 0; j < num_inputs(); ++j) {
    // Capped: the total is checked against the signal_width limit by Configure.
    const int at =
        static_cast<int>(std::min<std::int64_t>(offset, std::numeric_limits<int>::max()));
    bus->elements.push_back({names_[j], at, input_widths[j], in_shape(j)});
    offset += input_widths[j];
  }
  const int width =
      static_cast<int>(std::min<std::int64_t>(offset, std::numeric_limits<int>::max()));
  bus->width = width;
  SetOutputWidth(0, width);
  SetOutputShape(0, SignalShape::Bus(std::move(bus)));
}

void BusCreator::DoCalcOutputs(Context& c, int stage) const {
  double* y = out(c, 0);
  const int m = num_inputs();
  for (int j = 0; j < m; ++j) {
    const double* u = in(c, j);
    y = std::copy(u, u + in_width(j), y);
  }
}

BlockType BusCreatorType() {
  BlockType t;
  t.name = "BusCreator";
  t.category = "Routing and structure";
  t.summary = "Bundles signals into a bus whose elements have names.";
  t.doc =
      "y = [u1; u2; ...; un], one input per name in `names` (a list: \"pos, vel, cmd\"). y "
      "carries the bus's layout: each element's name, width and shape (a matrix stays a "
      "matrix; a bus going in is a nested bus, whose elements a BusSelector names with dots, "
      "\"arm.q\"). The layout travels with y through lines, subsystem ports and Goto/From, "
      "and through blocks that keep y's width element by element (UnitDelay, Switch, "
      "MultiportSwitch, ...); blocks that do not read it see the values as a plain vector. "
      "The values are copied once per evaluation; selecting costs one copy of the slices. "
      "Inherited sample time; direct feedthrough.";
  t.reference =
      "Simulink Bus Creator (a virtual bus; element names from `names`, as lines have no "
      "names here)";
  t.params = {{"names", ParamKind::kString, "signal1, signal2",
               "the elements' names, one per input, comma- or space-separated"}};
  t.inputs = {{"u1..un", "the elements, any widths and shapes"}};
  t.outputs = {{"y", "the bus: the inputs one after the other"}};
  t.create = [](const Params& p) { return std::make_unique<BusCreator>(p); };
  return t;
}

}  // namespace twinblocks::blocks
