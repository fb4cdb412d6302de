#pragma once

// Where the type a model's block names comes from: the catalog, a type registered at run time
// (a Python class, python/twinblocks/user_block.py), or a block library (block_library.h).

#include <string>
#include <string_view>
#include <vector>

#include "blocks/block_registry.h"

namespace twinblocks::blocks {

/// Adds a block type made while the program runs (a Python block class), which models then
/// name by its type alone, as a catalog type. A second registration of a name replaces the
/// first for what is compiled from then on; blocks made from the first keep it (registered
/// types are never destroyed). Thread-safe.
/// @throws BlockLibraryError when the name is a catalog type's.
void RegisterBlockType(BlockType type);

/// The type registered under `name`, or null.
const BlockType* FindRegisteredBlockType(std::string_view name);

/// The names of the types registered so far, sorted.
std::vector<std::string> RegisteredBlockTypeNames();

/// The type a block names: with `library` "", the catalog's or a registered one (null when
/// neither has it); otherwise the library's, found from `base_dir` (the folder of the model
/// file the block is written in) as FindBlockLibrary finds it.
/// @throws BlockLibraryError (one line) when the library cannot be used or has no such type.
const BlockType* FindBlockType(const std::string& type, const std::string& library,
                               const std::string& base_dir);

/// The catalog's names and the registered ones, for suggestions in messages.
std::vector<std::string> KnownBlockTypeNames();

}  // namespace twinblocks::blocks
