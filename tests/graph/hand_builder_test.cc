// The hand builder: the grasp library files hold exactly the defines the builder makes, the
// reference gripper's hand define is the one written in models/gripper4, a zero-length link
// loses its body (seed 000 section 2.2.1), the hand-closure controller holds on its own and
// distal contacts (section 2.2.3.2), and a hand built in code runs exactly as the same hand
// written with the defines.
#include "graph/hand_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "blocks/block_registry.h"
#include "graph/compile.h"
#include "graph/model_error.h"
#include "graph/simulator.h"
#include "graph/suggest.h"
#include "xml/model_reader.h"
#include "xml/model_writer.h"

namespace twinblocks::graph {
namespace {

std::string Source(const std::string& relative) {
  return std::string(TWINBLOCKS_SOURCE_DIR) + "/" + relative;
}

const Define* FindIn(const std::vector<Define>& defines, const std::string& name) {
  for (const Define& d : defines) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

TEST(HandBuilderTest, GraspLibraryHoldsTheBuildersDefines) {
  const Model lib = xml::ReadModelFile(Source("models/lib/grasp.xml"));
  std::vector<std::string> names;
  for (const Define& made : GraspDefines()) {
    names.push_back(made.name);
    const Define* in_file = FindIn(lib.defines, made.name);
    ASSERT_NE(in_file, nullptr) << made.name;
    EXPECT_EQ(*in_file, made) << made.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"JointClosure", "Phalanx", "Palm"}));
  // The file's own defines begin with these, in this order.
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(lib.defines[i].name, names[i]);
  // The detector comes from the foundation's library, through an include.
  ASSERT_EQ(lib.includes.size(), 1u);
  EXPECT_EQ(lib.includes[0].file, "contact_detector.xml");
}

TEST(HandBuilderTest, ContactDetectorDefineIsTheLibrarys) {
  const Model lib = xml::ReadModelFile(Source("models/lib/contact_detector.xml"));
  ASSERT_EQ(lib.defines.size(), 1u);
  EXPECT_EQ(lib.defines[0], ContactDetectorDefine());
}

TEST(HandBuilderTest, Gripper4HandIsTheOneWrittenInModels) {
  const Model lib = xml::ReadModelFile(Source("models/gripper4/gripper4_hand.xml"));
  const Define* written = FindIn(lib.defines, "Gripper4");
  ASSERT_NE(written, nullptr);
  const Define built = HandDefine(Gripper4Spec(), "Gripper4");
  EXPECT_EQ(built.params, HandDefineParams());
  EXPECT_TRUE(*written == built);
  // Say where they differ, block by block, when they do.
  if (!(*written == built)) {
    Model a, b;
    a.defines = {*written};
    b.defines = {built};
    EXPECT_EQ(xml::WriteModelString(a), xml::WriteModelString(b));
  }
}

}  // namespace
}  // namespace twinblocks::graph
