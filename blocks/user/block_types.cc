#include "blocks/user/block_types.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "blocks/user/block_library.h"

namespace twinblocks::blocks {

namespace {

struct Registered {
  std::mutex mutex;
  std::map<std::string, const BlockType*, std::less<>> by_name;
  /// Every type ever registered, replaced ones too: compiled systems point at them.
  std::vector<std::unique_ptr<BlockType>> all;
};

Registered& registered() {
  // Never destroyed: the types may hold Python objects, which must not be released after the
  // interpreter has finalized.
  static auto* r = new Registered();
  return *r;
}

}  // namespace

void RegisterBlockType(BlockType type) {
  if (Catalog().Find(type.name) != nullptr) {
    throw BlockLibraryError("'" + type.name +
                            "' is a block type of the catalog; a registered type needs a name "
                            "of its own");
  }
  Registered& r = registered();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.all.push_back(std::make_unique<BlockType>(std::move(type)));
  r.by_name[r.all.back()->name] = r.all.back().get();
}

const BlockType* FindRegisteredBlockType(std::string_view name) {
  Registered& r = registered();
  const std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.by_name.find(name);
  return it != r.by_name.end() ? it->second : nullptr;
}

std::vector<std::string> RegisteredBlockTypeNames() {
  Registered& r = registered();
  const std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [name, type] : r.by_name) names.push_back(name);
  return names;
}

const BlockType* FindBlockType(const std::string& type, const std::string& library,
                               const std::string& base_dir) {
  if (!library.empty()) return &FindLibraryBlockType(type, library, base_dir);
  if (const BlockType* t = Catalog().Find(type)) return t;
  return FindRegisteredBlockType(type);
}

std::vector<std::string> KnownBlockTypeNames() {
  std::vector<std::string> names = Catalog().Names();
  for (std::string& n : RegisteredBlockTypeNames()) names.push_back(std::move(n));
  return names;
}

}  // namespace twinblocks::blocks
