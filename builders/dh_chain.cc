#include "builders/dh_chain.h"

#include <stdexcept>
#include <utility>

#include "builders/detail/diagram_text.h"
#include "common/suggest.h"
#include "model/model_error.h"

namespace twinblocks::graph {

namespace {

using internal::Block;
using internal::Matrix3Text;
using internal::Vector3Text;

// The joint's actuation word and the link's inport for it ("" for none).
const char* ActuationWord(DhActuation actuation) {
  switch (actuation) {
    case DhActuation::kNone:
      return "none";
    case DhActuation::kTorque:
      return "torque";
    case DhActuation::kMotion:
      return "motion";
  }
  return "none";
}

const char* InputName(DhActuation actuation) {
  switch (actuation) {
    case DhActuation::kNone:
      return "";
    case DhActuation::kTorque:
      return "tau";
    case DhActuation::kMotion:
      return "motion";
  }
  return "";
}

}  // namespace

Diagram DhLinkBody(DhConvention convention, DhActuation actuation, const DhLinkTexts& texts) {
  Diagram d;
  d.ports.push_back({PortDecl::Kind::kPhysical, "B", "frame", {}});
  d.ports.push_back({PortDecl::Kind::kPhysical, "F", "frame", {}});
  const std::string input = InputName(actuation);
  if (!input.empty()) d.ports.push_back({PortDecl::Kind::kInport, input, "", {}});
  for (const char* out : {"q", "qd", "qdd", "torque"}) {
    d.ports.push_back({PortDecl::Kind::kOutport, out, "", {}});
  }

  // Each transform holds one rotation: Rz(offset) commutes with the joint's Rz(q), so it goes
  // after the joint in the modified convention and before it in the standard one.
  if (convention == DhConvention::kModified) {
    d.blocks.push_back(Block("RigidTransform", "pre",
                             {{"translation", "[" + texts.a + ", 0, 0]"},
                              {"rotation", "axis_angle"},
                              {"axis", "[1, 0, 0]"},
                              {"angle", texts.alpha}}));
  } else {
    d.blocks.push_back(
        Block("RigidTransform", "pre",
              {{"rotation", "axis_angle"}, {"axis", "[0, 0, 1]"}, {"angle", texts.offset}}));
  }
  d.blocks.push_back(Block("RevoluteJoint", "joint",
                           {{"axis", "[0, 0, 1]"},
                            {"q0", texts.q0},
                            {"damping", texts.damping},
                            {"actuation", ActuationWord(actuation)}}));
  if (convention == DhConvention::kModified) {
    d.blocks.push_back(Block("RigidTransform", "post",
                             {{"translation", "[0, 0, " + texts.d + "]"},
                              {"rotation", "axis_angle"},
                              {"axis", "[0, 0, 1]"},
                              {"angle", texts.offset}}));
  } else {
    d.blocks.push_back(Block("RigidTransform", "post",
                             {{"translation", "[" + texts.a + ", 0, " + texts.d + "]"},
                              {"rotation", "axis_angle"},
                              {"axis", "[1, 0, 0]"},
                              {"angle", texts.alpha}}));
  }
  d.blocks.push_back(Block(
      "Solid", "solid",
      {{"shape", "none"}, {"mass", texts.mass}, {"com", texts.com}, {"inertia", texts.inertia}}));

  d.connections = {{".B", "pre.B", {}},
                   {"pre.F", "joint.B", {}},
                   {"joint.F", "post.B", {}},
                   {"post.F", "solid.R", {}},
                   {"post.F", ".F", {}}};
  if (!input.empty()) d.connections.push_back({"." + input, "joint." + input, {}});
  for (const char* out : {"q", "qd", "qdd", "torque"}) {
    d.connections.push_back({std::string("joint.") + out, std::string(".") + out, {}});
  }
  return d;
}

std::string DhLinkDefineName(DhConvention convention, DhActuation actuation) {
  std::string name = convention == DhConvention::kModified ? "ModifiedDhLink" : "StandardDhLink";
  if (actuation == DhActuation::kMotion) name += "Motion";
  if (actuation == DhActuation::kNone) name += "Passive";
  return name;
}

std::vector<Define> DhLinkDefines() {
  // In a define the texts are the define's parameter names, substituted at instantiation.
  // Built in place, not assigned: GCC 12 warns falsely (-Wrestrict) on short literal
  // assignments to std::string.
  const DhLinkTexts names{.alpha = "alpha",
                          .a = "a",
                          .d = "d",
                          .offset = "offset",
                          .mass = "mass",
                          .com = "com",
                          .inertia = "inertia",
                          .q0 = "q0",
                          .damping = "damping"};
  std::vector<Define> defines;
  for (DhConvention c : {DhConvention::kModified, DhConvention::kStandard}) {
    for (DhActuation a : {DhActuation::kTorque, DhActuation::kMotion, DhActuation::kNone}) {
      Define d;
      d.name = DhLinkDefineName(c, a);
      d.params = {"alpha", "a", "d", "offset", "mass", "com", "inertia", "q0", "damping"};
      d.body = DhLinkBody(c, a, names);
      defines.push_back(std::move(d));
    }
  }
  return defines;
}

DhChain AddDhChain(Model& model, std::string_view diagram_path, const DhChainSpec& spec) {
  if (spec.joints.empty()) throw std::logic_error("AddDhChain: the DH table has no rows");
  const int n = static_cast<int>(spec.joints.size());
  // Everything is checked before anything is added: a failing call leaves the model as it was.
  if (!IsEndpoint(spec.base) || (spec.base[0] == '.' && diagram_path.empty())) {
    throw ModelError({}, "AddDhChain: invalid base frame port '" + spec.base +
                             "'; expected 'block.port', e.g. 'world.W', or '.port' inside a "
                             "subsystem");
  }
  const Diagram& target = model.GetDiagram(diagram_path);
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    names.push_back(spec.prefix + std::to_string(i + 1));
    if (!IsIdentifier(names.back())) {
      throw ModelError({}, "AddDhChain: invalid link name '" + names.back() + "' (prefix '" +
                               spec.prefix +
                               "'); expected letters, digits and '_', not starting with a digit");
    }
    if (target.Find(names.back()) != nullptr) {
      throw ModelError({}, "AddDhChain: a block named '" + names.back() + "' already exists in " +
                               (diagram_path.empty() ? std::string("the top-level diagram")
                                                     : "'" + std::string(diagram_path) + "'"));
    }
  }

  DhChain chain;
  for (int i = 0; i < n; ++i) {
    const DhJointSpec& j = spec.joints[i];
    DhLinkTexts texts;
    texts.alpha = FormatNumber(j.link.alpha);
    texts.a = FormatNumber(j.link.a);
    texts.d = FormatNumber(j.link.d);
    texts.offset = FormatNumber(j.link.theta_offset);
    texts.mass = FormatNumber(j.link.mass);
    texts.com = Vector3Text(j.link.com);
    texts.inertia = Matrix3Text(j.link.inertia_com);
    texts.q0 = FormatNumber(j.q0);
    texts.damping = FormatNumber(j.damping);
    model.AddSubsystem(diagram_path, names[i]) = DhLinkBody(spec.convention, j.actuation, texts);
    model.Connect(diagram_path, i == 0 ? spec.base : names[i - 1] + ".F", names[i] + ".B");

    chain.links.push_back(names[i]);
    chain.joints.push_back(names[i] + "/joint");
    const std::string input = InputName(j.actuation);
    chain.inputs.push_back(input.empty() ? "" : names[i] + "." + input);
  }
  chain.tip = names.back() + ".F";
  return chain;
}

}  // namespace twinblocks::graph
