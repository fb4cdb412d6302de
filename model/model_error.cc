#include "model/model_error.h"

#include <cstdio>

namespace twinblocks::graph {

std::string SourceLocation::ToString() const {
  if (file.empty()) return {};
  if (line <= 0) return file;
  return file + ":" + std::to_string(line);
}

namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 when the byte there starts none.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  size_t n = 0;
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF)
    n = 2;
  else if (b >= 0xE0 && b <= 0xEF)
    n = 3;
  else if (b >= 0xF0 && b <= 0xF4)
    n = 4;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  // Overlong forms, surrogates and code points past U+10FFFF.
  if (b == 0xE0 && byte(i + 1) < 0xA0) return 0;
  if (b == 0xED && byte(i + 1) > 0x9F) return 0;
  if (b == 0xF0 && byte(i + 1) < 0x90) return 0;
  if (b == 0xF4 && byte(i + 1) > 0x8F) return 0;
  return n;
}

}  // namespace

std::string OneLine(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    // Bytes that are no UTF-8 (a Latin-1 file, a binary fragment) are shown as \xNN: the line
    // stays valid text for whatever reads it.
    if (static_cast<unsigned char>(c) >= 0x80) {
      const size_t n = Utf8SequenceLength(s, i);
      if (n == 0) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(c));
        out += hex;
        ++i;
      } else {
        out.append(s, i, n);
        i += n;
      }
      continue;
    }
    ++i;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      out += "?";
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

constexpr size_t kLongestQuote = 200;
constexpr size_t kLongestLine = 2000;

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// `text` cut to its first `head` and last `tail` bytes, at UTF-8 character boundaries.
std::string Elide(std::string_view text, size_t head, size_t tail) {
  size_t end_of_head = head;
  while (end_of_head > 0 && IsContinuationByte(text[end_of_head])) --end_of_head;
  size_t start_of_tail = text.size() - tail;
  while (start_of_tail < text.size() && IsContinuationByte(text[start_of_tail])) ++start_of_tail;
  return std::string(text.substr(0, end_of_head)) + "..." + std::string(text.substr(start_of_tail));
}

}  // namespace

std::string ReadableLine(std::string_view message) {
  const std::string line = OneLine(message);
  std::string out;
  size_t i = 0;
  while (i < line.size()) {
    const size_t open = line.find('\'', i);
    const size_t close = open == std::string::npos ? open : line.find('\'', open + 1);
    if (close == std::string::npos) {
      out.append(line, i, std::string::npos);
      break;
    }
    const std::string_view quoted = std::string_view(line).substr(open + 1, close - open - 1);
    out.append(line, i, open + 1 - i);
    if (quoted.size() > kLongestQuote) {
      out += Elide(quoted, 80, 40) + "' (" + std::to_string(quoted.size()) + " characters)";
    } else {
      out.append(quoted);
      out += '\'';
    }
    i = close + 1;
  }
  if (out.size() > kLongestLine) out = Elide(out, kLongestLine / 2, kLongestLine / 4);
  return out;
}

namespace {

std::string Compose(const SourceLocation& where, const std::string& path, const std::string& type,
                    const std::string& message) {
  std::string s = where.ToString();
  if (!s.empty()) s += ": ";
  if (!path.empty()) {
    s += "block '" + path + "'";
    // The type is not quoted: elided here when long (a type nobody could have meant).
    if (!type.empty()) s += " (" + (type.size() > kLongestQuote ? Elide(type, 80, 40) : type) + ")";
    s += ": ";
  }
  // The one-line rule holds whatever the parts quote, and so does readability.
  return ReadableLine(s + message);
}

}  // namespace

ModelError::ModelError(const SourceLocation& where, const std::string& block_path,
                       const std::string& block_type, const std::string& message)
    : std::runtime_error(Compose(where, block_path, block_type, message)),
      where_(where),
      block_path_(block_path),
      block_type_(block_type),
      message_(message) {}

}  // namespace twinblocks::graph
