#pragma once

#include <stdexcept>
#include <string>

namespace twinblocks::blocks {

/// A problem with one block instance (a parameter of the wrong shape, an input of the wrong
/// width). The block does not know where it was written: the compiler adds the file, line and
/// block path. `param` or `port` names the part at fault when there is one.
class BlockError : public std::runtime_error {
 public:
  explicit BlockError(const std::string& what, std::string param = {}, std::string port = {})
      : std::runtime_error(what), param_(std::move(param)), port_(std::move(port)) {}
  const std::string& param() const { return param_; }
  const std::string& port() const { return port_; }

 private:
  std::string param_;
  std::string port_;
};

}  // namespace twinblocks::blocks
