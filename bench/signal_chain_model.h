#pragma once

#include <string>

#include "model/model.h"

namespace twinblocks::bench {

/// A signal chain of `num_blocks` blocks built with the editing API: a Sine, then Gains in a
/// row, closed by an Integrator so that a solver has a state to integrate. Every block is
/// continuous, so each solver stage evaluates all of them.
inline graph::Model MakeSignalChain(int num_blocks) {
  graph::Model model;
  model.name = "signal_chain";
  model.AddBlock("", "Sine", "source", {{"amplitude", "1"}, {"frequency", "2"}});
  std::string previous = "source.y";
  for (int i = 1; i < num_blocks - 1; ++i) {
    std::string name("g");  // appended, not "g" + ..., which trips GCC 12's -Wrestrict
    name += std::to_string(i);
    // Gains alternate slightly above and below 1 so the signal stays of order one.
    model.AddBlock("", "Gain", name, {{"k", i % 2 == 0 ? "1.001" : "0.999"}});
    model.Connect("", previous, name + ".u");
    previous = name + ".y";
  }
  model.AddBlock("", "Integrator", "sink");
  model.Connect("", previous, "sink.u");
  model.logs.push_back({"sink.y", "x", {}});
  return model;
}

}  // namespace twinblocks::bench
