#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "model/source_location.h"

namespace twinblocks::graph {

/// `s` with line breaks, tabs and other control characters shown escaped (\n, \r, \t, ?), so
/// that a name or value quoted in a message cannot break the one-line rule.
std::string OneLine(std::string_view s);

/// `message` as one readable line: OneLine's escapes, and any quoted text ('...') longer than
/// 200 characters elided to its start and end with its length ('x*x*...*x' (250000
/// characters)), so that a message quoting a 250,000-character expression stays a line a
/// person can read; past 2,000 characters the middle of the line itself is elided.
std::string ReadableLine(std::string_view message);

/// A problem with a model the user wrote: one line,
/// `FILE:LINE: block 'PATH' (TYPE): what is wrong, and what was expected`
/// (the block part left out where no block is concerned). The command line prints it and
/// exits with status 2.
class ModelError : public std::runtime_error {
 public:
  ModelError(const SourceLocation& where, const std::string& message)
      : ModelError(where, {}, {}, message) {}
  ModelError(const SourceLocation& where, const std::string& block_path,
             const std::string& block_type, const std::string& message);

  const SourceLocation& where() const { return where_; }
  const std::string& block_path() const { return block_path_; }
  const std::string& block_type() const { return block_type_; }
  /// The message without location and block.
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string block_path_;
  std::string block_type_;
  std::string message_;
};

}  // namespace twinblocks::graph
