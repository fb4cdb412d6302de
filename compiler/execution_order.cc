// Phase 6 of Compile(): blocks ordered by direct feedthrough (Boost.Graph), and an algebraic
// loop reported with the blocks on the cycle.
#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <map>

#include "compiler/detail/compiler.h"

namespace twinblocks::graph {

using internal::Join;

void Compiler::Order() {
  std::vector<int> stage_base(flat_.size(), -1);
  std::vector<std::pair<int, int>> node_owner;  // node -> (flat, stage)
  for (int f : real_) {
    stage_base[f] = static_cast<int>(node_owner.size());
    for (int s = 0; s < flat_[f].block->num_stages(); ++s) node_owner.emplace_back(f, s);
  }
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Graph g(node_owner.size());
  for (int f : real_) {
    const Block& b = *flat_[f].block;
    for (int s = 1; s < b.num_stages(); ++s) {
      boost::add_edge(stage_base[f] + s - 1, stage_base[f] + s, g);
    }
    for (int i = 0; i < b.num_inputs(); ++i) {
      const unsigned mask = b.input_port(i).feedthrough;
      if (mask == 0) continue;
      const int src = flat_[f].input_driver[i];
      const int src_stage = flat_[src].block->output_port(flat_[f].input_driver_port[i]).stage;
      for (int s = 0; s < b.num_stages(); ++s) {
        if (mask & (1u << s)) boost::add_edge(stage_base[src] + src_stage, stage_base[f] + s, g);
      }
    }
  }
  // A conditional subsystem's blocks run after its control, which decides whether they run.
  for (int f : real_) {
    const int condition = flat_[f].condition;
    if (condition < 0) continue;
    const int control = conditions_[condition].control;
    for (int s = 0; s < flat_[f].block->num_stages(); ++s) {
      boost::add_edge(stage_base[control], stage_base[f] + s, g);
    }
  }
  std::vector<Graph::vertex_descriptor> order;
  try {
    boost::topological_sort(g, std::back_inserter(order));
  } catch (const boost::not_a_dag&) {
    ReportAlgebraicLoop(g, node_owner);
  }
  std::reverse(order.begin(), order.end());
  for (auto v : order) {
    const auto [f, s] = node_owner[v];
    order_.emplace_back(f, s);
  }
}

template <class Graph>
void Compiler::ReportAlgebraicLoop(const Graph& g, const std::vector<std::pair<int, int>>& owner) {
  std::vector<int> component(boost::num_vertices(g));
  boost::strong_components(g, component.data());
  // Pick the component of a node that lies on a cycle: a component of more than one node,
  // or a node with an edge to itself.
  std::map<int, int> sizes;
  for (int c : component) ++sizes[c];
  int start = -1;
  for (int v = 0; v < static_cast<int>(component.size()) && start < 0; ++v) {
    if (sizes[component[v]] > 1) start = v;
    for (auto [e, end] = boost::out_edges(v, g); e != end && start < 0; ++e) {
      if (static_cast<int>(boost::target(*e, g)) == v) start = v;
    }
  }
  // Shortest cycle through `start` inside its component, by breadth-first search.
  std::vector<int> parent(component.size(), -1);
  std::vector<int> queue{start};
  int closing = -1;
  for (size_t head = 0; head < queue.size() && closing < 0; ++head) {
    const int v = queue[head];
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      const int w = static_cast<int>(boost::target(*e, g));
      if (component[w] != component[start]) continue;
      if (w == start) {
        closing = v;
        break;
      }
      if (parent[w] < 0) {
        parent[w] = v;
        queue.push_back(w);
      }
    }
  }
  std::vector<int> cycle;
  for (int v = closing; v != start && v >= 0; v = parent[v]) cycle.push_back(v);
  cycle.push_back(start);
  std::reverse(cycle.begin(), cycle.end());
  std::vector<std::string> names;
  for (int v : cycle) {
    const std::string& path = flat_[owner[v].first].path;
    if (names.empty() || names.back() != path) names.push_back(path);
  }
  names.push_back(names.front());
  const FlatBlock& first = flat_[owner[start].first];
  throw ModelError(first.where, "algebraic loop: " + Join(names, " -> ") +
                                    " (each block on the cycle needs the next one's output "
                                    "at the same instant; break it with a UnitDelay, an "
                                    "Integrator or another block without direct "
                                    "feedthrough)");
}

}  // namespace twinblocks::graph
