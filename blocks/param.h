#pragma once

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

namespace twinblocks::blocks {

/// How a parameter's text is read (docs/model-format.md, "Parameter values").
enum class ParamKind {
  kScalar,  ///< one expression
  kVector,  ///< `[e1, e2]`, `0 0 -9.81`, or a scalar (a vector of one)
  kMatrix,  ///< `[[a, b], [c, d]]`, or a vector (one row) or a scalar
  kWord,    ///< one of `ParamSpec::words`
  kString,  ///< free text: file names, tags, expressions evaluated by the block itself
};

/// One parameter of a block type: drives parsing, validation, docs and writing back.
struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::kScalar;
  /// The default as it would be written in a model file; empty with `required` set means the
  /// user must give it, empty otherwise means "not set" (ParamValue::is_set() is false).
  std::string default_text;
  std::string doc;                 ///< one line, with the unit
  std::vector<std::string> words;  ///< the allowed words of a kWord parameter
  bool required = false;
  /// A numeric parameter that also takes the word `auto` (Simulink's "auto": the block or
  /// the simulation chooses); it then evaluates to the text "auto".
  bool allows_auto = false;
};

/// A parameter's value after compile: numbers (a matrix; scalars are 1x1, vectors n x 1),
/// or text (words and strings).
class ParamValue {
 public:
  ParamValue() = default;
  static ParamValue Numeric(Eigen::MatrixXd m) {
    ParamValue v;
    v.numeric_ = std::move(m);
    v.is_numeric_ = true;
    v.is_set_ = true;
    return v;
  }
  static ParamValue Text(std::string s) {
    ParamValue v;
    v.text_ = std::move(s);
    v.is_set_ = true;
    return v;
  }

  bool is_set() const { return is_set_; }
  bool is_numeric() const { return is_numeric_; }
  const Eigen::MatrixXd& numeric() const { return numeric_; }
  const std::string& text() const { return text_; }

 private:
  Eigen::MatrixXd numeric_;
  std::string text_;
  bool is_numeric_ = false;
  bool is_set_ = false;
};

/// The evaluated parameters a block is constructed from. Accessors check the shape and throw
/// BlockError naming the parameter, so a block constructor reads like its catalog entry.
class Params {
 public:
  Params() = default;

  void Set(const std::string& name, ParamValue value);

  bool has(const std::string& name) const;  ///< set by the user or by a default
  const ParamValue& Get(const std::string& name) const;

  double Scalar(const std::string& name) const;           ///< @throws BlockError unless 1x1
  int Integer(const std::string& name) const;             ///< a scalar that is a whole number
  Eigen::VectorXd Vector(const std::string& name) const;  ///< any 1 x n, n x 1
  Eigen::MatrixXd Matrix(const std::string& name) const;
  const std::string& Word(const std::string& name) const;
  const std::string& String(const std::string& name) const;
  bool Bool(const std::string& name) const;  ///< word "true" / "false"

  /// Scalar model variables visible where the block was written (for blocks that evaluate
  /// expressions of their own, like Expression). Set by the compiler.
  const std::vector<std::pair<std::string, double>>& variables() const { return variables_; }
  void set_variables(std::vector<std::pair<std::string, double>> v) { variables_ = std::move(v); }

  /// The directory of the model file the block was written in, for relative file names.
  const std::string& base_dir() const { return base_dir_; }
  void set_base_dir(std::string dir) { base_dir_ = std::move(dir); }

 private:
  std::vector<std::pair<std::string, ParamValue>> values_;
  std::vector<std::pair<std::string, double>> variables_;
  std::string base_dir_;
};

}  // namespace twinblocks::blocks
