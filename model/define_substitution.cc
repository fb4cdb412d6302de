#include "model/detail/define_substitution.h"

#include <cctype>

namespace twinblocks::graph::internal {

namespace {

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string Trimmed(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// A plain number or a name stands alone in an expression; anything else gets parentheses.
bool IsAtom(const std::string& text) {
  if (text.empty()) return false;
  if (IsNameStart(text[0])) {
    for (char c : text) {
      if (!IsNameChar(c)) return false;
    }
    return true;
  }
  size_t i = 0;
  bool digits = false;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    digits = digits || text[i] != '.';
    ++i;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  }
  return digits && i == text.size();
}

}  // namespace

bool IsFormulaParam(blocks::ParamKind kind, const std::string& param_name) {
  return kind == blocks::ParamKind::kString && param_name == "expr";
}

const std::string& DefineWordText(const std::string& text,
                                  const std::map<std::string, std::string>& define_texts) {
  auto it = define_texts.find(text);
  return it == define_texts.end() ? text : it->second;
}

std::string SubstituteDefineParams(const std::string& text,
                                   const std::map<std::string, std::string>& define_texts) {
  const std::string whole = Trimmed(text);
  if (auto it = define_texts.find(whole); it != define_texts.end()) return it->second;
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      // A number, with its exponent: the 'e5' of 1e5 is not a name.
      size_t j = i;
      while (j < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.')) {
        ++j;
      }
      if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
        size_t k = j + 1;
        if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
        if (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) {
          j = k;
          while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
        }
      }
      out.append(text, i, j - i);
      i = j;
      continue;
    }
    if (!IsNameStart(c)) {
      out += c;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && IsNameChar(text[j])) ++j;
    const std::string name = text.substr(i, j - i);
    size_t next = j;
    while (next < text.size() && text[next] == ' ') ++next;
    const bool is_call = next < text.size() && text[next] == '(';
    auto it = define_texts.find(name);
    if (it == define_texts.end() || is_call) {
      out += name;
    } else {
      const std::string value = Trimmed(it->second);
      out += IsAtom(value) ? value : "(" + value + ")";
    }
    i = j;
  }
  return out;
}

std::string ExpandParamText(blocks::ParamKind kind, const std::string& param_name,
                            const std::string& text,
                            const std::map<std::string, std::string>& define_texts) {
  const bool formula = IsFormulaParam(kind, param_name);
  if ((kind == blocks::ParamKind::kWord || kind == blocks::ParamKind::kString) && !formula) {
    return DefineWordText(text, define_texts);
  }
  return SubstituteDefineParams(text, define_texts);
}

}  // namespace twinblocks::graph::internal
