// `twinblocks settings` prints the schema's table of run settings, and docs/model-format.md
// holds the same table.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/acceptance_helpers.h"

namespace {

using twinblocks::testing::ReadBytes;
using twinblocks::testing::RunCli;

TEST(CliSettings, TheDocsTableIsTheSchemas) {
  const twinblocks::testing::CliResult r = RunCli("settings", /*with_stdout=*/true);
  ASSERT_EQ(r.status, 0) << r.text;
  const std::string table = r.text.substr(0, r.text.find("\n\n") + 1);
  ASSERT_NE(table.find("| `rtol` |"), std::string::npos) << r.text;
  const std::string docs =
      ReadBytes(std::string(TWINBLOCKS_SOURCE_DIR) + "/docs/model-format.md");
  const std::string begin = "<!-- settings table: printed by `twinblocks settings` -->\n";
  const std::string end = "<!-- end of settings table -->";
  const size_t from = docs.find(begin);
  const size_t to = docs.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(docs.substr(from + begin.size(), to - from - begin.size()), table)
      << "docs/model-format.md's settings table differs from `twinblocks settings`: paste the "
         "command's table between the markers";
}

TEST(CliSettings, ListsEverySolverOfTheTable) {
  const twinblocks::testing::CliResult r = RunCli("settings --solvers", /*with_stdout=*/true);
  ASSERT_EQ(r.status, 0) << r.text;
  for (const char* name : {"| `ode1` | fixed |", "| `ode45` | variable |", "| `ida` |"}) {
    EXPECT_NE(r.text.find(name), std::string::npos) << name << "\n" << r.text;
  }
}

// `check` prints the settings a run would take from the schema: each one set, with its unit,
// a new setting included without a line of its own.
TEST(CliSettings, CheckPrintsTheSettingsOfTheSchema) {
  const auto dir = twinblocks::testing::FreshDirectory("tb_settings_", "check");
  twinblocks::testing::WriteText(dir / "m.xml", R"(<model name="m" format="1">
  <simulation solver="ode23" t_end="2" rtol="1e-4" atol="auto" max_wall_time="30"/>
  <block type="Constant" name="c" value="1"/>
</model>)");
  const twinblocks::testing::CliResult r =
      RunCli("check " + (dir / "m.xml").string(), /*with_stdout=*/true);
  ASSERT_EQ(r.status, 0) << r.text;
  EXPECT_NE(r.text.find("settings: solver ode23, t_start 0 s, t_end 2 s, rtol 1e-04, atol auto, "
                        "auto_scale_atol on, "),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find(", max_wall_time 30 s"), std::string::npos) << r.text;
}

}  // namespace
