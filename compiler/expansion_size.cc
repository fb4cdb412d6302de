// Phase 2b of Compile(): how many blocks the hierarchy expands to, and how deep it nests,
// counted from the Model before anything is built.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "common/input_limits.h"
#include "compiler/detail/compiler.h"

namespace twinblocks::graph {

namespace {

using internal::JoinPath;

// What one diagram stands for once flattened: its blocks (a double: 10 defines of 10
// instances each are 10^10 blocks, past any integer a careless sum would hold) and the
// levels of subsystems and defines below it.
struct Size {
  double blocks = 0.0;
  std::int64_t height = 0;
};

class ExpansionCounter {
 public:
  explicit ExpansionCounter(const Model& model) : model_(model) {}

  // The size of `diagram`, standing `depth` levels deep at `path` (for messages).
  Size Count(const Diagram& diagram, const std::string& path, std::int64_t depth) {
    Size size;
    for (const BlockNode& node : diagram.blocks) {
      if (node.commented) continue;
      const Size inner = CountNode(node, JoinPath(path, node.name), depth + 1);
      size.blocks += inner.blocks;
      if (node.is_subsystem() || (node.library.empty() && model_.FindDefine(node.type))) {
        size.height = std::max(size.height, inner.height + 1);
      }
    }
    return size;
  }

  // The size of one node standing `depth` levels deep: a catalog block is one block.
  Size CountNode(const BlockNode& node, const std::string& path, std::int64_t depth) {
    const std::int64_t nesting = blocks::CurrentInputLimits().nesting;
    if (node.is_subsystem()) {
      if (depth > nesting) FailNesting(node, path, depth);
      return Count(*node.body, path, depth);
    }
    // A library's type is a block, whatever defines the model has.
    const Define* def = node.library.empty() ? model_.FindDefine(node.type) : nullptr;
    if (def == nullptr) return {1.0, 0};  // an unknown type is reported when flattened
    if (depth > nesting) FailNesting(node, path, depth);
    Size size;
    if (auto it = counted_.find(def); it != counted_.end()) {
      size = it->second;
    } else if (in_progress_.insert(def).second) {
      size = Count(def->body, path, depth);
      in_progress_.erase(def);
      counted_.emplace(def, size);
    }  // else a define inside itself: reported with its chain when flattened
    // A define counted once at a shallow place may stand deeper here.
    if (depth + size.height > nesting) FailNesting(node, path, depth + size.height);
    return size;
  }

 private:
  [[noreturn]] static void FailNesting(const BlockNode& node, const std::string& path,
                                       std::int64_t depth) {
    throw ModelError(node.where, path, node.type,
                     "subsystems and defines nested " + std::to_string(depth) + " levels deep, " +
                         blocks::OverLimit("nesting"));
  }

  const Model& model_;
  std::map<const Define*, Size> counted_;
  std::set<const Define*> in_progress_;
};

std::string CountText(double count) {
  if (count < 1e15) return std::to_string(static_cast<long long>(count));
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", count);
  return text;
}

}  // namespace

void Compiler::CheckDefineNames() const {
  for (const std::vector<Define>* defines : {&model_.defines, &model_.library}) {
    for (const Define& d : *defines) {
      if (blocks::Catalog().Find(d.name) == nullptr) continue;
      throw ModelError(d.where, "define '" + d.name +
                                    "' has the name of a block type of the catalog: every '" +
                                    d.name + "' of the model would become the define; rename it");
    }
  }
}

void Compiler::CheckExpansionSize() const {
  const double limit = static_cast<double>(blocks::CurrentInputLimits().blocks);
  ExpansionCounter counter(model_);
  // Top-level blocks one by one, so that the message names the one that crosses the limit.
  double total = 0.0;
  for (const BlockNode& node : model_.root.blocks) {
    if (node.commented) continue;
    const double node_blocks = counter.CountNode(node, node.name, 1).blocks;
    total += node_blocks;
    if (total <= limit) continue;
    const std::string what = node_blocks > 1.0
                                 ? "expands to " + CountText(node_blocks) +
                                       " blocks, the model to " + CountText(total) + " at least"
                                 : "is block number " + CountText(total) + " of the model";
    throw ModelError(node.where, node.name, node.type, what + ", " + blocks::OverLimit("blocks"));
  }
}

}  // namespace twinblocks::graph
