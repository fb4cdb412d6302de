#include "blocks/user/block_library.h"

#include <dlfcn.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "blocks/user/user_block_adapter.h"
#include "common/detail/plugin_loader.h"
#include "common/suggest.h"

namespace twinblocks::blocks {

namespace {

namespace fs = std::filesystem;

bool IsIdentifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  }
  return true;
}

std::string Join(const std::vector<std::string>& items, const char* last = " and ") {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() ? last : ", ";
    text += items[i];
  }
  return text.empty() ? "none" : text;
}

// dlerror's text may hold line breaks; every message here is one line.
std::string OneLine(const char* text) {
  std::string line(text != nullptr ? text : "unknown error");
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line;
}

ParamKind FromUserKind(user::ParamKind kind) {
  switch (kind) {
    case user::ParamKind::kScalar:
      return ParamKind::kScalar;
    case user::ParamKind::kVector:
      return ParamKind::kVector;
    case user::ParamKind::kMatrix:
      return ParamKind::kMatrix;
    case user::ParamKind::kWord:
      return ParamKind::kWord;
    case user::ParamKind::kString:
      return ParamKind::kString;
  }
  throw BlockLibraryError("unknown parameter kind " + std::to_string(static_cast<int>(kind)));
}

user::ParamValue ToUserValue(const ParamValue& v) {
  user::ParamValue out;
  if (!v.is_numeric()) {
    out.text = v.text();
    return out;
  }
  const Eigen::MatrixXd& m = v.numeric();
  out.is_numeric = true;
  out.rows = static_cast<int>(m.rows());
  out.cols = static_cast<int>(m.cols());
  out.values.reserve(m.size());
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) out.values.push_back(m(r, c));
  }
  return out;
}

void CheckNames(const std::vector<user::PortDoc>& ports, const std::string& type,
                std::vector<std::string>* taken) {
  for (const user::PortDoc& p : ports) {
    if (!IsIdentifier(p.name)) {
      throw BlockLibraryError("block type '" + type + "': port name '" + p.name +
                              "' is not an identifier (letters, digits and '_')");
    }
    for (const std::string& t : *taken) {
      if (t == p.name) {
        throw BlockLibraryError("block type '" + type + "': port '" + p.name + "' listed twice");
      }
    }
    taken->push_back(p.name);
  }
}

// A library opened, and what it registered.
struct OpenedLibrary {
  std::string path;
  BlockRegistry types;
};

// The library's entry function's registry: it collects the types for the host to convert.
class Collector final : public user::Registry {
 public:
  void Add(user::BlockType type) override { types.push_back(std::move(type)); }
  void Fail(const std::string& message) override { failure = message; }

  std::vector<user::BlockType> types;
  std::string failure;
};

using Entry = int (*)(int, user::Registry*);

std::unique_ptr<OpenedLibrary> Open(const std::string& path) {
  // RTLD_LOCAL: what the library links stays out of the program's symbol lookups.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    throw BlockLibraryError("cannot open block library '" + path + "': " + OneLine(dlerror()));
  }
  auto entry = reinterpret_cast<Entry>(dlsym(handle, user::kEntryPoint));
  if (entry == nullptr) {
    dlclose(handle);
    throw BlockLibraryError("'" + path + "' is no twinblocks block library: it has no function " +
                            user::kEntryPoint + " (TWINBLOCKS_BLOCK_LIBRARY defines it)");
  }
  Collector collector;
  const int status = entry(user::kAbiVersion, &collector);
  if (status != 0) {
    // The handle stays open: a library may have registered what it made before it threw.
    if (status > 0) {
      throw BlockLibraryError("block library '" + path + "' was built for version " +
                              std::to_string(status) + " of the block API, and this twinblocks " +
                              "has version " + std::to_string(user::kAbiVersion) +
                              ": rebuild it against this twinblocks");
    }
    throw BlockLibraryError("block library '" + path + "' failed to register its types: " +
                            OneLine(collector.failure.c_str()));
  }
  auto opened = std::make_unique<OpenedLibrary>();
  opened->path = path;
  for (user::BlockType& t : collector.types) {
    const std::string name = t.name;
    try {
      if (opened->types.Find(name) != nullptr) {
        throw BlockLibraryError("block type '" + name + "' is registered twice");
      }
      // The compiler knows a few catalog types by name (World, Goto, From): a library's type
      // of such a name would be taken for them.
      if (Catalog().Find(name) != nullptr) {
        throw BlockLibraryError("block type '" + name +
                                "' has the name of a catalog type; give it a name of its own");
      }
      opened->types.Add(FromUserBlockType(std::move(t)));
    } catch (const BlockLibraryError& e) {
      throw BlockLibraryError("block library '" + path + "': " + e.what());
    }
  }
  // The handle is never closed: the types' functions and the blocks made live in it.
  return opened;
}

}  // namespace

std::string FindBlockLibrary(const std::string& library, const std::string& base_dir) {
  if (library.empty()) throw BlockLibraryError("the library attribute is empty");
  std::error_code ec;
  const fs::path given(library);
  if (given.is_absolute()) {
    if (fs::is_regular_file(given, ec)) return given.lexically_normal().string();
    throw BlockLibraryError("block library '" + library + "' does not exist");
  }
  std::vector<std::string> dirs;
  dirs.push_back(base_dir.empty() ? "." : base_dir);
  std::string block_path = "TWINBLOCKS_BLOCK_PATH (not set)";
  if (const char* env = std::getenv(kBlockPathVariable); env != nullptr && *env != '\0') {
    block_path = std::string("TWINBLOCKS_BLOCK_PATH (") + env + ")";
    std::string list(env);
    size_t start = 0;
    while (start <= list.size()) {
      const size_t colon = std::min(list.find(':', start), list.size());
      if (colon > start) dirs.push_back(list.substr(start, colon - start));
      start = colon + 1;
    }
  }
  const size_t first_plugin_dir = dirs.size();
  for (const std::string& d : internal::PluginDirectories()) dirs.push_back(d);
  for (const std::string& dir : dirs) {
    const fs::path candidate = fs::path(dir) / given;
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
  }
  std::vector<std::string> plugin_dirs(dirs.begin() + first_plugin_dir, dirs.end());
  throw BlockLibraryError(
      "block library '" + library + "' not found: looked in the model's folder " + dirs.front() +
      ", " + block_path + " and twinblocks' plugin folders " + Join(plugin_dirs, " and "));
}

const BlockRegistry& LoadBlockLibrary(const std::string& library, const std::string& base_dir) {
  const std::string path = FindBlockLibrary(library, base_dir);
  std::error_code ec;
  fs::path canonical = fs::canonical(path, ec);
  const std::string key = ec ? path : canonical.string();
  static std::mutex mutex;
  // Never destroyed: blocks made from these types may outlive static destruction (a Python
  // interpreter's last objects).
  static auto* opened = new std::map<std::string, std::unique_ptr<OpenedLibrary>>();
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = opened->find(key);
  if (it == opened->end()) it = opened->emplace(key, Open(path)).first;
  return it->second->types;
}

const BlockType& FindLibraryBlockType(const std::string& type, const std::string& library,
                                      const std::string& base_dir) {
  const BlockRegistry& types = LoadBlockLibrary(library, base_dir);
  if (const BlockType* t = types.Find(type)) return *t;
  const std::vector<std::string> names = types.Names();
  throw BlockLibraryError("block library '" + library + "' has no block type '" + type + "'" +
                          graph::SuggestionFor(type, names) + " (its types: " + Join(names, ", ") +
                          ")");
}

BlockType FromUserBlockType(user::BlockType type) {
  if (!IsIdentifier(type.name)) {
    throw BlockLibraryError("block type name '" + type.name +
                            "' is not an identifier (letters, digits and '_')");
  }
  if (!type.create) throw BlockLibraryError("block type '" + type.name + "' has no create");
  BlockType t;
  t.name = type.name;
  t.category = type.category;
  t.summary = type.summary;
  t.doc = type.doc;
  t.reference = type.reference;
  std::vector<std::string> param_names;
  for (const user::ParamSpec& p : type.params) {
    if (!IsIdentifier(p.name)) {
      throw BlockLibraryError("block type '" + type.name + "': parameter name '" + p.name +
                              "' is not an identifier (letters, digits and '_')");
    }
    if (p.name == "type" || p.name == "name" || p.name == "commented" || p.name == "library") {
      throw BlockLibraryError("block type '" + type.name + "': parameter '" + p.name +
                              "' has a name the block element keeps for itself (type, name, "
                              "commented, library)");
    }
    for (const std::string& n : param_names) {
      if (n == p.name) {
        throw BlockLibraryError("block type '" + type.name + "': parameter '" + p.name +
                                "' listed twice");
      }
    }
    if (p.kind == user::ParamKind::kWord && p.words.empty()) {
      throw BlockLibraryError("block type '" + type.name + "': word parameter '" + p.name +
                              "' lists no words");
    }
    param_names.push_back(p.name);
    ParamSpec spec;
    spec.name = p.name;
    spec.kind = FromUserKind(p.kind);
    spec.default_text = p.default_text;
    spec.doc = p.doc;
    spec.words = p.words;
    spec.required = p.required;
    t.params.push_back(std::move(spec));
  }
  std::vector<std::string> port_names;
  CheckNames(type.inputs, type.name, &port_names);
  CheckNames(type.outputs, type.name, &port_names);
  for (const user::PortDoc& p : type.inputs) t.inputs.push_back({p.name, p.doc});
  for (const user::PortDoc& p : type.outputs) t.outputs.push_back({p.name, p.doc});
  t.create = [create = std::move(type.create), param_names = std::move(param_names)](
                 const Params& params) -> std::unique_ptr<Block> {
    user::Params converted;
    for (const std::string& name : param_names) {
      if (params.has(name)) converted.Set(name, ToUserValue(params.Get(name)));
    }
    converted.set_base_dir(params.base_dir());
    std::unique_ptr<user::Block> block;
    try {
      block = create(converted);
    } catch (const BlockError&) {
      throw;
    } catch (const std::exception& e) {
      throw BlockError(OneLine(e.what()));
    }
    if (block == nullptr) throw BlockError("the type's create made no block");
    return std::make_unique<UserBlockAdapter>(std::move(block));
  };
  return t;
}

}  // namespace twinblocks::blocks
