// What a retune reaches and the values it sees (compiler/detail/tuning_scopes.h).
#include "compiler/detail/tuning_scopes.h"

#include <cctype>
#include <string_view>

#include "blocks/math_expression.h"
#include "compiler/detail/tuning.h"
#include "model/detail/block_params.h"
#include "model/model_error.h"

namespace twinblocks::graph::internal {

namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool StartsName(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool InName(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

Names IdentifiersIn(const std::string& text) {
  Names names;
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    if (IsDigit(text[i]) || (text[i] == '.' && i + 1 < n && IsDigit(text[i + 1]))) {
      // A number, with its exponent: the e of 1e6 starts no name.
      while (i < n && (IsDigit(text[i]) || text[i] == '.')) ++i;
      if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < n && IsDigit(text[j])) {
          i = j;
          while (i < n && IsDigit(text[i])) ++i;
        }
      }
    } else if (StartsName(text[i])) {
      size_t end = i + 1;
      while (end < n && InName(text[end])) ++end;
      names.emplace(text, i, end - i);
      i = end;
    } else {
      ++i;
    }
  }
  return names;
}

const std::vector<Names>& TextIndex::Of(const TunableBlock& t) {
  auto it = blocks_.find(&t);
  if (it != blocks_.end()) return it->second;
  std::vector<Names> names;
  names.reserve(t.params.size());
  for (const Parameter& p : t.params) names.push_back(IdentifiersIn(p.value));
  return blocks_.emplace(&t, std::move(names)).first->second;
}

const std::vector<Names>& TextIndex::Of(const DefineLevel& level) {
  auto it = levels_.find(&level);
  if (it != levels_.end()) return it->second;
  std::vector<Names> names;
  names.reserve(level.params.size());
  for (const auto& [name, text] : level.params) names.push_back(IdentifiersIn(text));
  return levels_.emplace(&level, std::move(names)).first->second;
}

VariableReach::VariableReach(const std::vector<Variable>& variables, const std::string& name,
                             TextIndex* index)
    : index_(*index) {
  if (name.empty()) return;
  vars_.insert(name);
  for (const Variable& v : variables) {
    if (vars_.count(v.name)) continue;
    for (const std::string& used : IdentifiersIn(v.value)) {
      if (vars_.count(used)) {
        vars_.insert(v.name);
        break;
      }
    }
  }
}

const std::vector<unsigned char>& VariableReach::LevelReach(const DefineLevel* level) {
  auto it = levels_.find(level);
  if (it != levels_.end()) return it->second;
  std::vector<unsigned char> reach(level->params.size(), 0);
  if (!vars_.empty()) {
    const std::vector<Names>& names = index_.Of(*level);
    for (size_t i = 0; i < names.size(); ++i) reach[i] = Reached(names[i], level->parent.get());
  }
  return levels_.emplace(level, std::move(reach)).first->second;
}

bool VariableReach::Reached(const Names& names, const DefineLevel* level) {
  if (vars_.empty()) return false;
  const std::vector<unsigned char>* params = level ? &LevelReach(level) : nullptr;
  for (const std::string& name : names) {
    // Over-approximate where a define parameter shadows a variable of the same name.
    if (vars_.count(name)) return true;
    if (params == nullptr) continue;
    for (size_t i = 0; i < level->params.size(); ++i) {
      if ((*params)[i] && level->params[i].first == name) return true;
    }
  }
  return false;
}

bool VariableReach::ReachesDefineParam(const DefineLevel& level, size_t param) {
  return LevelReach(&level)[param] != 0;
}

std::vector<unsigned char> VariableReach::ReachedParams(const TunableBlock& t) {
  std::vector<unsigned char> reached(t.params.size(), 0);
  bool any = ReadsVariables(*t.type);
  if (!vars_.empty()) {
    const std::vector<Names>& names = index_.Of(t);
    for (size_t i = 0; i < names.size(); ++i) {
      reached[i] = Reached(names[i], t.level.get());
      any = any || reached[i];
    }
  }
  if (!any) reached.clear();
  return reached;
}

void TuningScopes::Assign(Scope* scope, const std::string& name,
                          std::optional<Eigen::MatrixXd> value) {
  const Eigen::MatrixXd* before = scope->FindHere(name);
  undo_.push_back({scope, name, before ? std::optional<Eigen::MatrixXd>(*before) : std::nullopt});
  if (value) {
    scope->Set(name, std::move(*value));
  } else {
    scope->Erase(name);
  }
}

void TuningScopes::Begin(const std::vector<Variable>& variables, VariableReach* reach) {
  reach_ = reach;
  const bool first = !started_;
  started_ = true;
  for (const Variable& v : variables) {
    if (!first && !reach->ReachesVariable(v.name)) continue;
    try {
      Eigen::MatrixXd value = EvaluateNumeric(v.value, root_);
      if (first) {
        root_.Set(v.name, std::move(value));
      } else {
        Assign(&root_, v.name, std::move(value));
      }
    } catch (const blocks::ExpressionError& e) {
      if (first) {
        started_ = false;
        root_ = Scope();
      } else {
        Undo();
      }
      throw ModelError(v.where, "variable '" + v.name + "': " + e.what());
    }
  }
  if (first) made_root_ = true;
}

const Scope& TuningScopes::For(const std::shared_ptr<const DefineLevel>& level) {
  if (!level) return root_;
  const DefineLevel* l = level.get();
  auto it = levels_.find(l);
  if (it != levels_.end() && fresh_.count(l)) return *it->second;
  const Scope& outer = For(level->parent);
  auto evaluate = [&outer](const std::string& text) -> std::optional<Eigen::MatrixXd> {
    try {
      return EvaluateNumeric(text, outer);
    } catch (const blocks::ExpressionError&) {
      return std::nullopt;  // a word for the blocks inside, as in compile
    }
  };
  if (it == levels_.end()) {
    auto scope = std::make_unique<Scope>(&root_);
    for (const auto& [name, text] : l->params) {
      if (std::optional<Eigen::MatrixXd> value = evaluate(text)) scope->Set(name, *value);
    }
    made_.push_back(l);
    it = levels_.emplace(l, std::move(scope)).first;
  } else {
    for (size_t i = 0; i < l->params.size(); ++i) {
      if (!reach_->ReachesDefineParam(*l, i)) continue;
      Assign(it->second.get(), l->params[i].first, evaluate(l->params[i].second));
    }
  }
  fresh_.insert(l);
  return *it->second;
}

void TuningScopes::Commit() {
  undo_.clear();
  fresh_.clear();
  made_.clear();
  made_root_ = false;
  reach_ = nullptr;
}

void TuningScopes::Undo() {
  for (auto c = undo_.rbegin(); c != undo_.rend(); ++c) {
    if (c->before) {
      c->scope->Set(c->name, *c->before);
    } else {
      c->scope->Erase(c->name);
    }
  }
  // Levels first seen in this change were evaluated with its values.
  for (const DefineLevel* l : made_) levels_.erase(l);
  if (made_root_) {
    started_ = false;
    root_ = Scope();
    levels_.clear();
  }
  Commit();
}

}  // namespace twinblocks::graph::internal
