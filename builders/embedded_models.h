#pragma once
// The model files of the source tree's models/ that built models include, compiled into the
// program (from the files as they were at configure time), so that a command can write a model
// that runs where no source tree is: it writes these beside the model, in the same layout.

#include <string_view>
#include <vector>

namespace twinblocks::graph {

struct EmbeddedModelFile {
  std::string_view path;  ///< relative to models/: "lib/barrett.xml"
  std::string_view text;  ///< the file's content
};

/// lib/barrett.xml, lib/dh.xml and robot6dof/arm.xml (which includes ../lib/dh.xml).
const std::vector<EmbeddedModelFile>& EmbeddedModelFiles();

}  // namespace twinblocks::graph
