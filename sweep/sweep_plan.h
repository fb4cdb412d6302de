#pragma once

// What a parameter sweep runs: the values each run gives the model's parameters. A sweep is
// written as `--set` options, each naming a parameter (a model variable `k`, or a block
// parameter `block/path.param`) and its values:
//
//   --set object.density=160,700,2300      a list of fixed values (model expression text)
//   --set k=uniform(1,2)                   a distribution, drawn once per run (Monte Carlo)
//
// Fixed lists combine as a grid (every combination; the first --set varies slowest) or, with
// zip, element by element (equal lengths, a one-value list repeats). With samples = N, each
// fixed combination is run N times and every distribution draws a new value per run: runs
// [c N, (c+1) N) are combination c. Run i's values depend only on the spec and i: its random
// draws come from a generator seeded with (seed, i) (run_random.h), so they do not depend on
// the number of threads or ranks, nor on the order in which runs execute.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sweep/run_random.h"

namespace twinblocks::sweep {

/// A sweep the user wrote wrongly (a value list that does not parse, zip lengths that differ,
/// an unknown distribution, samples without distributions...): the message is one line that
/// says what was expected. The command line prints it and exits with status 2.
class SweepError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A random parameter's law, written as a --set value.
struct Distribution {
  enum class Kind {
    kUniform,    ///< uniform(a, b): uniform on [a, b), a < b
    kNormal,     ///< normal(mu, sigma): Gaussian, sigma >= 0
    kLognormal,  ///< lognormal(mu, sigma): exp of normal(mu, sigma) (mu, sigma of the log)
  };
  Kind kind = Kind::kUniform;
  double a = 0.0;  ///< a or mu
  double b = 1.0;  ///< b or sigma

  /// One value: one uniform draw, or one standard normal draw (two uniforms), from `random`.
  double Sample(RunRandom* random) const;
  /// As written: "uniform(1, 2)".
  std::string ToString() const;
};

/// One --set: a parameter and its values.
struct SweepParameter {
  /// A model variable (`k`) or a block parameter (`block/path.param`).
  std::string name;
  /// Fixed values as model expression text, in order; empty for a distribution.
  std::vector<std::string> values;
  /// Set for a random parameter.
  std::optional<Distribution> distribution;

  bool is_random() const { return distribution.has_value(); }
};

/// How fixed value lists combine.
enum class Combination {
  kGrid,  ///< every combination, the first parameter varying slowest
  kZip,   ///< element by element: the lists have one length (a one-value list repeats)
};

/// A sweep as the user asked for it.
struct SweepSpec {
  std::vector<SweepParameter> parameters;  ///< in the order of the --set options
  Combination combination = Combination::kGrid;
  /// Runs per fixed combination, each with new draws of the distributions; 0 when no
  /// parameter is random. Must be > 0 when one is.
  int samples = 0;
  std::uint64_t seed = 0;  ///< of the Monte Carlo draws
};

/// Parses one --set text, "NAME=v1,v2,..." or "NAME=uniform(a,b)" (normal, lognormal):
/// values are split at the commas outside parentheses and brackets, so that a vector
/// `[0, 0, 1]` stays one value. A value of the form `word(x, y)` is a distribution; wrap a
/// two-argument expression in parentheses, `(max(1, k))`, to pass it as a fixed value.
/// @throws SweepError when the text does not parse (no '=', an empty value, unbalanced
///   brackets, an unknown distribution, a distribution beside other values, bad arguments).
SweepParameter ParseSweepSetting(std::string_view text);

/// The texts between the top-level commas of `text`, each trimmed.
/// @throws SweepError for unbalanced parentheses or brackets.
std::vector<std::string> SplitTopLevel(std::string_view text);

/// One run of a sweep.
struct SweepRun {
  int index = 0;
  /// A value per parameter, in the spec's order: the fixed text, or the random draw printed
  /// in the shortest form that reads back to the same double.
  std::vector<std::string> values;
};

/// The runs of a sweep, each computed from its index alone.
class SweepPlan {
 public:
  /// Checks the spec and counts its runs.
  /// @throws SweepError for an empty spec, lists of different lengths under zip, samples
  ///   without a distribution or a distribution without samples, a duplicated name, or more
  ///   runs than the sweep_runs limit (common/input_limits.h).
  explicit SweepPlan(SweepSpec spec);

  const SweepSpec& spec() const { return spec_; }
  int num_runs() const { return num_runs_; }
  /// Parameter names, in the spec's order.
  std::vector<std::string> parameter_names() const;

  /// Run `index`'s values. @throws std::out_of_range for an index outside [0, num_runs()).
  SweepRun Run(int index) const;

  /// "name=value, name=value": how plots and messages name a run.
  std::string Label(const SweepRun& run) const;

 private:
  SweepSpec spec_;
  int num_combinations_ = 1;  ///< of the fixed lists
  int num_runs_ = 1;
};

}  // namespace twinblocks::sweep
