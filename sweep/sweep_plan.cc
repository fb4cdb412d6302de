#include "sweep/sweep_plan.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

#include "common/input_limits.h"
#include "common/suggest.h"

namespace twinblocks::sweep {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

constexpr const char* kKnownDistributions =
    "uniform(a, b), normal(mu, sigma), lognormal(mu, sigma)";

// A plain number, the whole text: "1", "-2.5e-3". Expressions are not evaluated here; a
// distribution's arguments are numbers.
std::optional<double> ParseNumber(std::string_view text) {
  text = Trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// "word(x, y)" split into the word and its top-level arguments; nullopt for any other text.
struct Call {
  std::string word;
  std::vector<std::string> args;
};
std::optional<Call> SplitCall(std::string_view value) {
  const size_t open = value.find('(');
  if (open == std::string_view::npos || value.back() != ')') return std::nullopt;
  const std::string_view word = Trim(value.substr(0, open));
  if (!IsIdentifier(word)) return std::nullopt;
  // The parenthesis that closes `open` must be the last character: "f(1)+g(2)" is no call.
  int depth = 0;
  for (size_t i = open; i < value.size(); ++i) {
    if (value[i] == '(') ++depth;
    if (value[i] == ')' && --depth == 0 && i + 1 != value.size()) return std::nullopt;
  }
  return Call{std::string(word), SplitTopLevel(value.substr(open + 1, value.size() - open - 2))};
}

std::optional<Distribution::Kind> DistributionKind(std::string_view word) {
  if (word == "uniform") return Distribution::Kind::kUniform;
  if (word == "normal") return Distribution::Kind::kNormal;
  if (word == "lognormal") return Distribution::Kind::kLognormal;
  return std::nullopt;
}

Distribution ParseDistribution(const std::string& setting, Distribution::Kind kind,
                               const Call& call) {
  const std::string written = call.word + "(...)";
  if (call.args.size() != 2) {
    throw SweepError("--set '" + setting + "': " + written + " takes two numbers, not " +
                     std::to_string(call.args.size()) + " (" + kKnownDistributions + ")");
  }
  Distribution d;
  d.kind = kind;
  const std::optional<double> a = ParseNumber(call.args[0]);
  const std::optional<double> b = ParseNumber(call.args[1]);
  if (!a || !b || !std::isfinite(*a) || !std::isfinite(*b)) {
    throw SweepError("--set '" + setting + "': the arguments of " + call.word +
                     " must be finite numbers, not '" + call.args[0] + "', '" + call.args[1] + "'");
  }
  d.a = *a;
  d.b = *b;
  if (kind == Distribution::Kind::kUniform && !(d.a < d.b)) {
    throw SweepError("--set '" + setting + "': uniform(a, b) needs a < b");
  }
  if (kind != Distribution::Kind::kUniform && d.b < 0.0) {
    throw SweepError("--set '" + setting + "': " + call.word + "(mu, sigma) needs sigma >= 0");
  }
  return d;
}

}  // namespace

double Distribution::Sample(RunRandom* random) const {
  switch (kind) {
    case Kind::kUniform:
      return a + (b - a) * random->Uniform01();
    case Kind::kNormal:
      return a + b * random->StandardNormal();
    case Kind::kLognormal:
      return std::exp(a + b * random->StandardNormal());
  }
  throw std::logic_error("Distribution::Sample: not a Kind");
}

std::string Distribution::ToString() const {
  const char* word = kind == Kind::kUniform  ? "uniform"
                     : kind == Kind::kNormal ? "normal"
                                             : "lognormal";
  return std::string(word) + "(" + graph::FormatNumber(a) + ", " + graph::FormatNumber(b) + ")";
}

std::vector<std::string> SplitTopLevel(std::string_view text) {
  std::vector<std::string> parts;
  std::vector<char> open;  // the brackets not closed yet, innermost last
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '(' || c == '[') {
      open.push_back(c);
    } else if (c == ')' || c == ']') {
      if (open.empty() || open.back() != (c == ')' ? '(' : '[')) {
        throw SweepError("'" + std::string(text) + "': unbalanced '" + std::string(1, c) + "'");
      }
      open.pop_back();
    } else if (c == ',' && open.empty()) {
      parts.emplace_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!open.empty()) {
    throw SweepError("'" + std::string(text) + "': '" + std::string(1, open.back()) +
                     "' is never closed");
  }
  return parts;
}

SweepParameter ParseSweepSetting(std::string_view text) {
  const std::string setting(text);
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || Trim(text.substr(0, eq)).empty()) {
    throw SweepError("--set '" + setting +
                     "': expected NAME=v1,v2,... or NAME=uniform(a,b) (NAME a model variable or "
                     "block/path.param)");
  }
  SweepParameter p;
  p.name = std::string(Trim(text.substr(0, eq)));
  std::vector<std::string> values;
  try {
    values = SplitTopLevel(text.substr(eq + 1));
  } catch (const SweepError& e) {
    throw SweepError("--set " + std::string(e.what()));
  }
  for (const std::string& v : values) {
    if (v.empty()) {
      throw SweepError("--set '" + setting + "': an empty value in the list (write v1,v2,...)");
    }
  }
  for (const std::string& v : values) {
    const std::optional<Call> call = SplitCall(v);
    if (!call || call->args.size() != 2) continue;  // a value, or a one-argument function
    const std::optional<Distribution::Kind> kind = DistributionKind(call->word);
    if (!kind) {
      throw SweepError("--set '" + setting + "': unknown distribution '" + call->word +
                       "' (known: " + kKnownDistributions +
                       "; to pass a two-argument expression as a value, wrap it in parentheses)");
    }
    if (values.size() != 1) {
      throw SweepError("--set '" + setting + "': a distribution (" + v +
                       ") must be the parameter's only value");
    }
    p.distribution = ParseDistribution(setting, *kind, *call);
    return p;
  }
  // A distribution written with the wrong number of arguments is still a distribution.
  if (values.size() == 1) {
    if (const std::optional<Call> call = SplitCall(values[0])) {
      if (const std::optional<Distribution::Kind> kind = DistributionKind(call->word)) {
        p.distribution = ParseDistribution(setting, *kind, *call);
        return p;
      }
    }
  }
  p.values = std::move(values);
  return p;
}

SweepPlan::SweepPlan(SweepSpec spec) : spec_(std::move(spec)) {
  if (spec_.parameters.empty()) {
    throw SweepError("a sweep needs at least one --set NAME=v1,v2,...");
  }
  std::set<std::string> names;
  bool any_random = false;
  for (const SweepParameter& p : spec_.parameters) {
    if (!names.insert(p.name).second) {
      throw SweepError("--set: '" + p.name + "' is set twice; give all its values in one --set");
    }
    if (!p.is_random() && p.values.empty()) {
      throw SweepError("--set '" + p.name + "': no values");
    }
    any_random = any_random || p.is_random();
  }
  if (spec_.samples < 0) {
    throw SweepError("--samples " + std::to_string(spec_.samples) + ": expected a count >= 1");
  }
  if (any_random && spec_.samples == 0) {
    throw SweepError(
        "a distribution needs --samples N (the number of random draws per fixed combination)");
  }
  if (!any_random && spec_.samples > 0) {
    throw SweepError("--samples needs a parameter with a distribution, e.g. --set k=uniform(1,2)");
  }

  // In doubles: a grid of twenty lists of ten is 10^20 runs, past any integer.
  double combinations = 1.0;
  if (spec_.combination == Combination::kGrid) {
    for (const SweepParameter& p : spec_.parameters) {
      if (p.is_random()) continue;
      combinations *= static_cast<double>(p.values.size());
    }
  } else {
    const SweepParameter* longest = nullptr;
    for (const SweepParameter& p : spec_.parameters) {
      if (p.is_random() || p.values.size() == 1) continue;
      if (longest != nullptr && p.values.size() != longest->values.size()) {
        throw SweepError("--zip: '" + longest->name + "' has " +
                         std::to_string(longest->values.size()) + " values but '" + p.name +
                         "' has " + std::to_string(p.values.size()) +
                         " (zipped lists need one length; a one-value list repeats)");
      }
      longest = &p;
    }
    combinations = longest != nullptr ? static_cast<double>(longest->values.size()) : 1.0;
  }
  const double runs = combinations * std::max(1, spec_.samples);
  if (runs > static_cast<double>(blocks::CurrentInputLimits().sweep_runs)) {
    char count[32];
    std::snprintf(count, sizeof count, "%.4g", runs);
    throw SweepError("the sweep has " + std::string(count) + " runs, " +
                     blocks::OverLimit("sweep_runs"));
  }
  num_combinations_ = static_cast<int>(combinations);
  num_runs_ = static_cast<int>(runs);
}

std::vector<std::string> SweepPlan::parameter_names() const {
  std::vector<std::string> names;
  for (const SweepParameter& p : spec_.parameters) names.push_back(p.name);
  return names;
}

SweepRun SweepPlan::Run(int index) const {
  if (index < 0 || index >= num_runs_) {
    throw std::out_of_range("SweepPlan::Run: index " + std::to_string(index) + " is not in [0, " +
                            std::to_string(num_runs_) + ")");
  }
  const int samples = std::max(1, spec_.samples);
  const int combination = index / samples;
  SweepRun run;
  run.index = index;
  run.values.resize(spec_.parameters.size());
  // Fixed lists: the combination's digits in mixed radix, the last parameter fastest.
  if (spec_.combination == Combination::kGrid) {
    int rest = combination;
    for (size_t k = spec_.parameters.size(); k-- > 0;) {
      const SweepParameter& p = spec_.parameters[k];
      if (p.is_random()) continue;
      const int n = static_cast<int>(p.values.size());
      run.values[k] = p.values[rest % n];
      rest /= n;
    }
  } else {
    for (size_t k = 0; k < spec_.parameters.size(); ++k) {
      const SweepParameter& p = spec_.parameters[k];
      if (!p.is_random()) run.values[k] = p.values[p.values.size() == 1 ? 0 : combination];
    }
  }
  // Random parameters: draws in the order of the --set options, from run i's own generator.
  RunRandom random(spec_.seed, static_cast<std::uint64_t>(index));
  for (size_t k = 0; k < spec_.parameters.size(); ++k) {
    const SweepParameter& p = spec_.parameters[k];
    if (p.is_random()) run.values[k] = graph::FormatNumber(p.distribution->Sample(&random));
  }
  return run;
}

std::string SweepPlan::Label(const SweepRun& run) const {
  std::string label;
  for (size_t k = 0; k < spec_.parameters.size(); ++k) {
    if (k > 0) label += ", ";
    label += spec_.parameters[k].name + "=" + run.values[k];
  }
  return label;
}

}  // namespace twinblocks::sweep
