#include "graph/suggest.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace twinblocks::graph {

namespace {

// Edit distance, case-insensitive: a capitalization slip costs nothing.
int Distance(const std::string& a, const std::string& b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string SuggestionFor(const std::string& name, const std::vector<std::string>& valid) {
  int best = 1 << 30;
  const std::string* best_name = nullptr;
  for (const std::string& v : valid) {
    const int d = Distance(name, v);
    if (d < best) {
      best = d;
      best_name = &v;
    }
  }
  const int allowed = std::max<int>(1, static_cast<int>(name.size()) / 3);
  if (best_name == nullptr || best > allowed) return {};
  return "; did you mean '" + *best_name + "'?";
}

std::string FormatNumber(double value) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, end);
}

}  // namespace twinblocks::graph
