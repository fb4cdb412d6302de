// `twinblocks blocks [TYPE]`: the block catalog, and one type's documentation.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "blocks/block_registry.h"
#include "cli/commands.h"
#include "common/suggest.h"

namespace twinblocks::cli {

namespace {

int Blocks(const std::string& type) {
  const blocks::BlockRegistry& catalog = blocks::Catalog();
  if (!type.empty()) {
    const blocks::BlockType* t = catalog.Find(type);
    if (t == nullptr) {
      throw UsageError("unknown block type '" + type + "'" +
                       graph::SuggestionFor(type, catalog.Names()) +
                       " (twinblocks blocks lists them all)");
    }
    std::fputs(blocks::FormatBlockDoc(*t).c_str(), stdout);
    return kExitOk;
  }
  std::map<std::string, std::vector<const blocks::BlockType*>> by_category;
  std::vector<std::string> order;
  for (const blocks::BlockType& t : catalog.types()) {
    if (by_category.find(t.category) == by_category.end()) order.push_back(t.category);
    by_category[t.category].push_back(&t);
  }
  for (const std::string& category : order) {
    std::printf("%s\n", category.c_str());
    for (const blocks::BlockType* t : by_category[category]) {
      std::printf("  %-20s %s\n", t->name.c_str(), t->summary.c_str());
    }
  }
  std::printf("\n`twinblocks blocks TYPE` prints a type's equation, ports and parameters.\n");
  return kExitOk;
}

}  // namespace

Runner AddBlocksCommand(CLI::App& app) {
  auto type = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("blocks", "List the block catalog, or document one type");
  cmd->add_option("type", *type, "Block type, e.g. Gain");
  return [type] { return Blocks(*type); };
}

}  // namespace twinblocks::cli
