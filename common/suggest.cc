#include "common/suggest.h"

#include <algorithm>
#include <cctype>

#include "common/format_value.h"

namespace twinblocks::graph {

namespace {

bool SameLetter(char x, char y) {
  return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
}

// Edit distance where swapping two neighbours counts as one edit (the commonest typo, "Gian")
// and case is ignored.
int Distance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const int cost = SameLetter(a[i - 1], b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && SameLetter(a[i - 1], b[j - 2]) && SameLetter(a[i - 2], b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

}  // namespace

std::string SuggestionFor(const std::string& name, const std::vector<std::string>& valid) {
  // A typo is a few letters off a short name; a name of hundreds of characters is no typo,
  // and its distance to every valid name would cost its length times theirs.
  constexpr size_t kLongestTypo = 64;
  if (name.size() > kLongestTypo) return "";
  int best = 1 << 30;
  const std::string* best_name = nullptr;
  for (const std::string& v : valid) {
    const int d = Distance(name, v);
    if (d < best) {
      best = d;
      best_name = &v;
    }
  }
  const int allowed = std::max<int>(2, static_cast<int>(name.size()) / 3);
  if (best_name == nullptr || best > allowed) return {};
  return "; did you mean '" + *best_name + "'?";
}

std::string FormatNumber(double value) { return blocks::FormatValue(value); }

}  // namespace twinblocks::graph
