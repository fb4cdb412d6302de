// `twinblocks blocks [TYPE] [--library LIB]`: the block catalog, or a block library's types,
// and one type's documentation.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "blocks/block_registry.h"
#include "blocks/user/block_library.h"
#include "cli/commands.h"
#include "common/suggest.h"

namespace twinblocks::cli {

namespace {

struct BlocksArgs {
  std::string type;
  std::string library;
};

int Blocks(const BlocksArgs& args) {
  const blocks::BlockRegistry* types = &blocks::Catalog();
  std::string list_hint = "twinblocks blocks lists them all";
  if (!args.library.empty()) {
    // Relative to the working directory, then TWINBLOCKS_BLOCK_PATH, then twinblocks' plugin
    // folders: as a model file in this folder would name it.
    try {
      types = &blocks::LoadBlockLibrary(args.library, ".");
    } catch (const blocks::BlockLibraryError& e) {
      throw UsageError(std::string("--library: ") + e.what());
    }
    list_hint = "twinblocks blocks --library " + args.library + " lists them all";
  }
  if (!args.type.empty()) {
    const blocks::BlockType* t = types->Find(args.type);
    if (t == nullptr) {
      throw UsageError("unknown block type '" + args.type + "'" +
                       (args.library.empty() ? "" : " in block library '" + args.library + "'") +
                       graph::SuggestionFor(args.type, types->Names()) + " (" + list_hint + ")");
    }
    std::fputs(blocks::FormatBlockDoc(*t).c_str(), stdout);
    if (!args.library.empty()) {
      std::printf("\nLibrary: %s (write library=\"%s\" on the block)\n",
                  blocks::FindBlockLibrary(args.library, ".").c_str(), args.library.c_str());
    }
    return kExitOk;
  }
  std::map<std::string, std::vector<const blocks::BlockType*>> by_category;
  std::vector<std::string> order;
  for (const blocks::BlockType& t : types->types()) {
    if (by_category.find(t.category) == by_category.end()) order.push_back(t.category);
    by_category[t.category].push_back(&t);
  }
  for (const std::string& category : order) {
    std::printf("%s\n", category.c_str());
    for (const blocks::BlockType* t : by_category[category]) {
      std::printf("  %-20s %s\n", t->name.c_str(), t->summary.c_str());
    }
  }
  if (args.library.empty()) {
    std::printf("\n`twinblocks blocks TYPE` prints a type's equation, ports and parameters.\n");
  } else {
    std::printf(
        "\n`twinblocks blocks TYPE --library %s` prints a type's equation, ports and "
        "parameters.\n",
        args.library.c_str());
  }
  return kExitOk;
}

}  // namespace

Runner AddBlocksCommand(CLI::App& app) {
  auto args = std::make_shared<BlocksArgs>();
  CLI::App* cmd = app.add_subcommand(
      "blocks", "List the block catalog (or a block library's types), or document one type");
  cmd->add_option("type", args->type, "Block type, e.g. Gain");
  cmd->add_option("--library", args->library,
                  "A block library (libNAME.so): its types instead of the catalog's; found in "
                  "the working directory, on TWINBLOCKS_BLOCK_PATH, or in twinblocks' plugin "
                  "folder (docs/user-blocks.md)")
      ->type_name("LIB");
  return [args] { return Blocks(*args); };
}

}  // namespace twinblocks::cli
