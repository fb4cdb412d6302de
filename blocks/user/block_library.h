#pragma once

// Block libraries: shared libraries of user block types (blocks/user/user_block.h) that a model
// names with `<block type="T" library="libmy_blocks.so">`, loaded the first time a model names
// them and kept for the life of the program. docs/user-blocks.md is the guide.

#include <stdexcept>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "blocks/user/user_block.h"

namespace twinblocks::blocks {

/// Why a block library cannot be used, or does not have a type: one line.
class BlockLibraryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The environment variable that names further folders (':'-separated) to look for block
/// libraries in.
inline constexpr char kBlockPathVariable[] = "TWINBLOCKS_BLOCK_PATH";

/// The file `library` names: an absolute path as it is; a relative one looked for, in order,
/// in `base_dir` (the folder of the model file that names it), in each folder of
/// TWINBLOCKS_BLOCK_PATH, and in twinblocks' own plugin folders (where the example library is
/// built and installed; common/detail/plugin_loader.h).
/// @throws BlockLibraryError naming every place looked in when none has it.
std::string FindBlockLibrary(const std::string& library, const std::string& base_dir);

/// The block types of the library `library` (found as FindBlockLibrary finds it), opened and
/// registered once per process for each file; thread-safe. The types are converted as
/// FromUserBlockType converts them.
/// @throws BlockLibraryError (one line, naming the file) when it is not found, cannot be
///   opened, has no entry function twinblocks_register_blocks, was built against another
///   version of the block API, its registration throws, or a type it registers is invalid.
const BlockRegistry& LoadBlockLibrary(const std::string& library, const std::string& base_dir);

/// The type `type` of the library, as LoadBlockLibrary loads it.
/// @throws BlockLibraryError as LoadBlockLibrary does, and when the library has no such type
///   (with a suggestion and the types it has).
const BlockType& FindLibraryBlockType(const std::string& type, const std::string& library,
                                      const std::string& base_dir);

/// A user block type in the catalog's form: the same docs, parameters and ports; its create
/// converts the evaluated parameters, calls the user's create and wraps the block in a
/// UserBlockAdapter (a std::exception the user's code throws becomes a BlockError).
/// @throws BlockLibraryError when the name, a parameter or a port name is not an identifier,
///   a name is used twice, a parameter takes a reserved name (type, name, commented,
///   library), a word parameter has no words, or create is empty.
BlockType FromUserBlockType(user::BlockType type);

}  // namespace twinblocks::blocks
