#include "common/detail/plugin_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace twinblocks::blocks::internal {

namespace {

namespace fs = std::filesystem;

// The file that holds this code: the program, or the Python module that linked it.
fs::path OwnFile() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&OpenPlugin), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  std::error_code ec;
  // The main program's entry may be the bare name it was started by.
  fs::path file = fs::canonical(info.dli_fname, ec);
  if (ec || !fs::is_regular_file(file, ec)) file = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : file;
}

std::vector<fs::path> SearchDirectories() {
  std::vector<fs::path> dirs;
  auto add = [&dirs](const fs::path& dir) {
    if (dir.empty()) return;
    const fs::path normal = dir.lexically_normal();
    for (const fs::path& d : dirs) {
      if (d == normal) return;
    }
    dirs.push_back(normal);
  };
  if (const char* env = std::getenv("TWINBLOCKS_PLUGIN_DIR"); env != nullptr && *env != '\0') {
    add(env);
  }
  const fs::path own = OwnFile();
  if (!own.empty()) add(own.parent_path() / ".." / "lib" / "twinblocks");
  add(TWINBLOCKS_PLUGIN_BUILD_DIR);
  add(TWINBLOCKS_PLUGIN_INSTALL_DIR);
  return dirs;
}

// dlerror's text may hold line breaks; messages here are one line.
std::string OneLine(const char* text) {
  std::string line(text);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line;
}

std::string Join(const std::vector<fs::path>& dirs) {
  std::string text;
  for (size_t i = 0; i < dirs.size(); ++i) {
    if (i > 0) text += i + 1 == dirs.size() ? " or " : ", ";
    text += dirs[i].string();
  }
  return text;
}

using Entry = const void* (*)(int);

// The entry function of plugin `name`, from the first directory that has its library.
Entry Load(const std::string& name) {
  const std::string file = "libtwinblocks_" + name + ".so";
  const std::vector<fs::path> dirs = SearchDirectories();
  for (const fs::path& dir : dirs) {
    const fs::path path = dir / file;
    std::error_code ec;
    if (!fs::exists(path, ec)) continue;
    // RTLD_LOCAL: the plugin's libraries stay out of the program's symbol lookups.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      throw std::runtime_error("cannot open the plugin " + path.string() + ": " +
                               (why != nullptr ? OneLine(why) : "unknown error"));
    }
    const std::string symbol = "twinblocks_" + name + "_plugin";
    auto entry = reinterpret_cast<Entry>(dlsym(handle, symbol.c_str()));
    if (entry == nullptr) {
      dlclose(handle);
      throw std::runtime_error("the plugin " + path.string() + " has no " + symbol);
    }
    return entry;  // the handle stays open: the tables and their functions live in it
  }
  throw std::runtime_error("the plugin " + file + " is not in " + Join(dirs) +
                           " (TWINBLOCKS_PLUGIN_DIR may name the directory that has it)");
}

}  // namespace

std::vector<std::string> PluginDirectories() {
  std::vector<std::string> dirs;
  for (const fs::path& dir : SearchDirectories()) dirs.push_back(dir.string());
  return dirs;
}

const void* OpenPlugin(const std::string& name, int abi_version) {
  static std::mutex mutex;
  static std::map<std::string, Entry> opened;
  Entry entry = nullptr;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = opened.find(name);
    entry = it != opened.end() ? it->second : opened.emplace(name, Load(name)).first->second;
  }
  const void* table = entry(abi_version);
  if (table == nullptr) {
    throw std::runtime_error("the plugin libtwinblocks_" + name +
                             ".so is of another twinblocks version than this program");
  }
  return table;
}

}  // namespace twinblocks::blocks::internal
