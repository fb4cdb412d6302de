#pragma once

#include <numeric>
#include <vector>

namespace twinblocks::blocks {

/// Disjoint sets of 0..n-1 with path halving: which ports meet in one node, which frames
/// form one rigid body. Used at compile time only.
class UnionFind {
 public:
  explicit UnionFind(int n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  int Find(int i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void Join(int a, int b) { parent_[Find(a)] = Find(b); }

 private:
  std::vector<int> parent_;
};

}  // namespace twinblocks::blocks
