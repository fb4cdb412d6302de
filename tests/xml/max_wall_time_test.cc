// max_wall_time in a model file: written back as read, and compiled into the run's settings.
#include <gtest/gtest.h>

#include <string>

#include "compiler/compile.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace twinblocks::xml {
namespace {

TEST(MaxWallTimeXml, RoundTripsAndCompiles) {
  const std::string text =
      "<model name=\"m\" format=\"1\">\n"
      "  <simulation t_end=\"1\" max_wall_time=\"0.2\"/>\n"
      "  <block type=\"Constant\" name=\"c\" value=\"1\"/>\n"
      "</model>\n";
  const graph::Model m = ReadModelString(text, "m.xml");
  const std::string written = WriteModelString(m);
  EXPECT_NE(written.find("max_wall_time=\"0.2\""), std::string::npos) << written;
  const graph::Model back = ReadModelString(written, "m.xml");
  EXPECT_TRUE(back == m) << written;
  const graph::System system = graph::Compile(back);
  ASSERT_TRUE(system.settings().max_wall_time.has_value());
  EXPECT_EQ(*system.settings().max_wall_time, 0.2);
  EXPECT_FALSE(
      graph::Compile(ReadModelString("<model name=\"m\" format=\"1\"><simulation t_end=\"1\"/>"
                                     "<block type=\"Constant\" name=\"c\" value=\"1\"/></model>",
                                     "m.xml"))
          .settings()
          .max_wall_time.has_value());
}

}  // namespace
}  // namespace twinblocks::xml
