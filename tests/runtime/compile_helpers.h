#pragma once
// What the graph tests share to compile a model they write out in full as XML text.

#include <string>

#include "compiler/compile.h"
#include "runtime/system.h"
#include "xml/model_reader.h"

namespace twinblocks::graph::test_support {

/// Reads and compiles a whole model file's text.
inline System CompileXml(const std::string& xml) { return Compile(xml::ReadModelString(xml)); }

}  // namespace twinblocks::graph::test_support
