#pragma once
// What the graph tests share to check edits that must be refused: the ModelError message of a
// call, and a substring expectation that prints both texts when it fails.

#include <gtest/gtest.h>

#include <string>

#include "model/model_error.h"

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

namespace twinblocks::graph::test_support {

/// Runs `f` and returns the ModelError's message ("" when nothing is thrown).
template <typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const ModelError& ex) {
    return ex.what();
  }
  return "";
}

}  // namespace twinblocks::graph::test_support
