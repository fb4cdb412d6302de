#include "tests/blocks/block_test_helpers.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "blocks/math_expression.h"

namespace twinblocks::blocks::testing {

namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\n");
  return s.substr(b, e - b + 1);
}

double EvaluateScalar(const std::string& text,
                      const std::vector<std::pair<std::string, double>>& variables) {
  MathExpression expr;
  for (const auto& [name, value] : variables) expr.DefineConstant(name, value);
  try {
    expr.SetExpression(text);
    return expr.Evaluate();
  } catch (const ExpressionError& e) {
    throw std::invalid_argument(e.what());
  }
}

// Splits "a, b, c" at top-level commas (brackets and parentheses nest).
std::vector<std::string> SplitTopLevel(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char ch : s) {
    if (ch == '[' || ch == '(') ++depth;
    if (ch == ']' || ch == ')') --depth;
    if (ch == ',' && depth == 0) {
      parts.push_back(Trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!Trim(cur).empty() || !parts.empty()) parts.push_back(Trim(cur));
  return parts;
}

std::string Unbracket(const std::string& s) {
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') {
    throw std::invalid_argument("expected [...]: " + s);
  }
  return s.substr(1, s.size() - 2);
}

Eigen::MatrixXd EvaluateNumeric(const std::string& raw,
                                const std::vector<std::pair<std::string, double>>& vars) {
  const std::string text = Trim(raw);
  if (text.rfind("[[", 0) == 0) {
    const std::vector<std::string> rows = SplitTopLevel(Unbracket(text));
    std::vector<std::vector<double>> values;
    for (const std::string& row : rows) {
      std::vector<double> r;
      for (const std::string& e : SplitTopLevel(Unbracket(row)))
        r.push_back(EvaluateScalar(e, vars));
      if (!values.empty() && r.size() != values[0].size()) {
        throw std::invalid_argument("ragged matrix: " + text);
      }
      values.push_back(std::move(r));
    }
    Eigen::MatrixXd m(values.size(), values.empty() ? 0 : values[0].size());
    for (size_t i = 0; i < values.size(); ++i) {
      for (size_t j = 0; j < values[i].size(); ++j) m(i, j) = values[i][j];
    }
    return m;
  }
  if (!text.empty() && text.front() == '[') {
    const std::vector<std::string> elems = SplitTopLevel(Unbracket(text));
    Eigen::MatrixXd m(elems.size(), 1);
    for (size_t i = 0; i < elems.size(); ++i) m(i, 0) = EvaluateScalar(elems[i], vars);
    return m;
  }
  Eigen::MatrixXd m(1, 1);
  m(0, 0) = EvaluateScalar(text, vars);
  return m;
}

}  // namespace

ParamValue EvaluateText(const std::string& text, const ParamSpec& spec,
                        const std::vector<std::pair<std::string, double>>& variables) {
  if (spec.allows_auto && Trim(text) == "auto") return ParamValue::Text("auto");
  switch (spec.kind) {
    case ParamKind::kScalar:
    case ParamKind::kVector:
    case ParamKind::kMatrix:
      return ParamValue::Numeric(EvaluateNumeric(text, variables));
    case ParamKind::kWord:
      if (std::find(spec.words.begin(), spec.words.end(), text) == spec.words.end()) {
        throw std::invalid_argument("'" + text + "' is not a word of parameter " + spec.name);
      }
      return ParamValue::Text(text);
    case ParamKind::kString:
      return ParamValue::Text(text);
  }
  return {};
}

Params MakeParams(const BlockType& type, const ParamTexts& texts, const std::string& base_dir,
                  const std::vector<std::pair<std::string, double>>& variables) {
  for (const auto& [name, text] : texts) {
    if (type.FindParam(name) == nullptr) {
      throw std::invalid_argument(type.name + " has no parameter '" + name + "'");
    }
  }
  Params params;
  for (const ParamSpec& spec : type.params) {
    const auto it = texts.find(spec.name);
    if (it != texts.end()) {
      params.Set(spec.name, EvaluateText(it->second, spec, variables));
    } else if (!spec.default_text.empty()) {
      params.Set(spec.name, EvaluateText(spec.default_text, spec, variables));
    }
  }
  params.set_base_dir(base_dir);
  params.set_variables(variables);
  return params;
}

const BlockType& TypeOf(const std::string& type) {
  const BlockType* t = Catalog().Find(type);
  if (t == nullptr) throw std::invalid_argument("no block type '" + type + "' in the catalog");
  return *t;
}

std::unique_ptr<Block> MakeBlock(const std::string& type, const ParamTexts& texts,
                                 const std::string& base_dir) {
  const BlockType& t = TypeOf(type);
  if (!t.create) throw std::invalid_argument(type + " is virtual");
  return t.create(MakeParams(t, texts, base_dir));
}

BlockHarness::BlockHarness(const std::string& type, const ParamTexts& texts,
                           const std::vector<int>& input_widths, Options options) {
  const BlockType& t = TypeOf(type);
  if (!t.create) throw std::invalid_argument(type + " is virtual");
  block_ = t.create(MakeParams(t, texts, options.base_dir, options.variables));
  block_->Configure(input_widths, options.input_shapes);

  Block::Layout layout;
  layout.index = 0;
  layout.sample_time = block_->sample_time();
  if (layout.sample_time.is_inherited()) layout.sample_time = options.inherited_as;
  layout.rate_index = layout.sample_time.is_discrete() ? 0 : -1;
  block_->SetLayout(layout);

  // Inputs first, then outputs, each port contiguous.
  int offset = 0;
  for (int i = 0; i < block_->num_inputs(); ++i) {
    block_->SetInputOffset(i, offset);
    offset += block_->input_port(i).width;
  }
  for (int i = 0; i < block_->num_outputs(); ++i) {
    block_->SetOutputOffset(i, offset);
    offset += block_->output_port(i).width;
  }
  // NaN everywhere, so that a block reading what it did not write shows in the results.
  signals_.assign(offset, 0.0);
  x_.assign(block_->num_continuous_states(), std::nan(""));
  xdot_.assign(block_->num_continuous_states(), std::nan(""));
  xd_.assign(block_->num_discrete_states(), std::nan(""));
  dwork_.assign(block_->num_dwork(), std::nan(""));
  zc_.assign(block_->num_zero_crossings(), std::nan(""));
  modes_.assign(block_->num_modes(), -12345);
  rate_hits_.assign(1, 0);
  workspace_ = block_->MakeWorkspace();
  workspaces_.assign(1, workspace_.get());

  c_.signals = signals_.data();
  c_.x = x_.data();
  c_.xdot = xdot_.data();
  c_.xd = xd_.data();
  c_.dwork = dwork_.data();
  c_.modes = modes_.data();
  c_.zc = zc_.data();
  c_.rate_hits = rate_hits_.data();
  c_.workspaces = workspaces_.data();
}

void BlockHarness::SetInput(int port, const std::vector<double>& values) {
  const Block::InputPort& p = block_->input_port(port);
  if (static_cast<int>(values.size()) != p.width) {
    throw std::invalid_argument("input " + p.name + " has width " + std::to_string(p.width));
  }
  std::copy(values.begin(), values.end(), signals_.begin() + p.offset);
}

void BlockHarness::SetInput(const std::string& port, const std::vector<double>& values) {
  const int i = block_->FindInput(port);
  if (i < 0) throw std::invalid_argument("no input " + port);
  SetInput(i, values);
}

void BlockHarness::SetInputs(const std::vector<double>& scalars) {
  for (int i = 0; i < static_cast<int>(scalars.size()); ++i) SetInput(i, {scalars[i]});
}

std::vector<double> BlockHarness::Output(int port) const {
  const Block::OutputPort& p = block_->output_port(port);
  return std::vector<double>(signals_.begin() + p.offset, signals_.begin() + p.offset + p.width);
}

std::vector<double> BlockHarness::Output(const std::string& port) const {
  const int i = block_->FindOutput(port);
  if (i < 0) throw std::invalid_argument("no output " + port);
  return Output(i);
}

void BlockHarness::Initialize(double t0) {
  c_.t = t0;
  c_.major = true;
  first_major_ = true;
  block_->Initialize(c_);
}

bool BlockHarness::IsHit(double t) const {
  const SampleTime& st = block_->sample_time();
  if (!st.is_discrete()) return false;
  const double k = (t - st.offset) / st.period;
  return k > -1e-9 && std::abs(k - std::round(k)) < 1e-9;
}

void BlockHarness::Outputs() {
  for (int stage = 0; stage < block_->num_stages(); ++stage) block_->CalcOutputs(c_, stage);
}

bool BlockHarness::MajorStep(double t) {
  c_.t = t;
  c_.major = true;
  c_.states_reset = false;
  const SampleTime& st = block_->sample_time();
  rate_hits_[0] = IsHit(t) ? 1 : 0;
  const bool runs = st.is_constant() ? first_major_ : (!st.is_discrete() || rate_hits_[0] != 0);
  first_major_ = false;
  if (runs) {
    Outputs();
    if (block_->has_update()) block_->Update(c_);
  }
  return c_.states_reset;
}

void BlockHarness::MinorOutputs(double t) {
  c_.t = t;
  c_.major = false;
  const SampleTime& st = block_->sample_time();
  if (st.is_discrete() || st.is_constant()) return;
  rate_hits_[0] = 0;
  Outputs();
}

std::vector<double> BlockHarness::Derivatives() {
  block_->CalcDerivatives(c_);
  return xdot_;
}

std::vector<double> BlockHarness::ZeroCrossings() {
  block_->CalcZeroCrossings(c_);
  return zc_;
}

void BlockHarness::SetState(const std::vector<double>& x) {
  if (x.size() != x_.size()) throw std::invalid_argument("wrong number of states");
  std::copy(x.begin(), x.end(), x_.begin());
}

}  // namespace twinblocks::blocks::testing
