#include "builders/hand_builder.h"

#include <cmath>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "builders/detail/diagram_text.h"
#include "common/suggest.h"
#include "model/detail/model_support.h"
#include "model/model_error.h"

namespace twinblocks::graph {

namespace {

using internal::Block;
using internal::JoinPath;
using internal::Matrix3Text;
using internal::Vector3Text;

// A link shorter than this (m) has no body: its joint and the next coincide.
constexpr double kZeroLength = 1e-12;

PortDecl Frame(const std::string& name) { return {PortDecl::Kind::kPhysical, name, "frame", {}}; }
PortDecl Inport(const std::string& name) { return {PortDecl::Kind::kInport, name, "", {}}; }
PortDecl Outport(const std::string& name) { return {PortDecl::Kind::kOutport, name, "", {}}; }

// The Phalanx define's parameters in order, each with the text that carries it.
struct PhalanxField {
  const char* name;
  std::string PhalanxTexts::*text;
};
constexpr PhalanxField kPhalanxFields[] = {{"alpha", &PhalanxTexts::alpha},
                                           {"a", &PhalanxTexts::a},
                                           {"d", &PhalanxTexts::d},
                                           {"offset", &PhalanxTexts::offset},
                                           {"radius", &PhalanxTexts::radius},
                                           {"density", &PhalanxTexts::density},
                                           {"q0", &PhalanxTexts::q0},
                                           {"rate", &PhalanxTexts::rate},
                                           {"filter_tc", &PhalanxTexts::filter_tc},
                                           {"stiffness", &PhalanxTexts::stiffness},
                                           {"damping", &PhalanxTexts::damping},
                                           {"transition_width", &PhalanxTexts::transition_width},
                                           {"friction", &PhalanxTexts::friction},
                                           {"mu_s", &PhalanxTexts::mu_s},
                                           {"mu_d", &PhalanxTexts::mu_d},
                                           {"v_crit", &PhalanxTexts::v_crit},
                                           {"threshold", &PhalanxTexts::threshold},
                                           {"Ts", &PhalanxTexts::Ts}};

// What the palm shares with the phalanges: contact and detection, in the Palm define's order.
constexpr const char* kContactFields[] = {"stiffness", "damping",   "transition_width",
                                          "friction",  "mu_s",      "mu_d",
                                          "v_crit",    "threshold", "Ts"};

std::string& Field(PhalanxTexts& t, std::string_view name) {
  for (const PhalanxField& f : kPhalanxFields) {
    if (name == f.name) return t.*f.text;
  }
  throw std::logic_error("no phalanx parameter " + std::string(name));
}

// A number as it goes into an expression of the phalanx body ("[a/2, 0, d/2]"): negative
// numbers in parentheses, so that "(-0.04)^2" squares the number rather than negating a square.
std::string Operand(double value) {
  const std::string text = FormatNumber(value);
  return value < 0 ? "(" + text + ")" : text;
}

// The contact parameters of a SpatialContactForce, from the texts.
std::vector<Parameter> ContactParams(const PhalanxTexts& t) {
  return {
      {"stiffness", t.stiffness}, {"damping", t.damping}, {"transition_width", t.transition_width},
      {"friction", t.friction},   {"mu_s", t.mu_s},       {"mu_d", t.mu_d},
      {"v_crit", t.v_crit}};
}

// Pozzi et al. 2022, "Modeling and Simulation of Robotic Grasping in Simulink Through Simscape
// Multibody", section 2.2.3.2: the command grows by rate*Ts each sample while no contact is
// detected on this phalanx or a more distal one; the Delay holds it otherwise.
Diagram JointClosureBody() {
  Diagram d;
  d.ports = {Inport("contact"), Inport("distal"), Outport("q"), Outport("hold")};
  d.blocks.push_back(Block("LogicalOperator", "any_contact", {{"op", "OR"}, {"inputs", "2"}}));
  d.blocks.push_back(Block("LogicalOperator", "free", {{"op", "NOT"}}));
  d.blocks.push_back(Block("Gain", "increment", {{"k", "rate*Ts"}}));
  d.blocks.push_back(Block("Sum", "command", {{"signs", "++"}}));
  d.blocks.push_back(Block("Delay", "last", {{"n", "1"}, {"x0", "q0"}, {"Ts", "Ts"}}));
  d.connections = {{".contact", "any_contact.u1", {}}, {".distal", "any_contact.u2", {}},
                   {"any_contact.y", "free.u1", {}},   {"free.y", "increment.u", {}},
                   {"last.y", "command.u1", {}},       {"increment.y", "command.u2", {}},
                   {"command.y", "last.u", {}},        {"command.y", ".q", {}},
                   {"any_contact.y", ".hold", {}}};
  return d;
}

struct PalmTexts {
  std::string length, width, thickness;
};

// The contact's point, normal and total force (W) as one signal, `touch`: 9 values for a
// grasp analysis of the object (the Mux "touch" is in the body already).
void AddTouch(Diagram* d) {
  d->connections.push_back({"contact.point", "touch.u1", {}});
  d->connections.push_back({"contact.normal", "touch.u2", {}});
  d->connections.push_back({"contact.force", "touch.u3", {}});
  d->connections.push_back({"touch.y", ".touch", {}});
}

Diagram PalmBody(const PalmTexts& palm, const PhalanxTexts& t) {
  Diagram d;
  d.ports = {Frame("base"), Frame("object"), Outport("contact"), Outport("fn"),
             Outport("touch")};
  d.blocks.push_back(
      Block("RigidTransform", "centre", {{"translation", "[0, 0, -" + palm.thickness + "/2]"}}));
  d.blocks.push_back(
      Block("Solid", "solid",
            {{"shape", "box"},
             {"size", "[" + palm.length + ", " + palm.width + ", " + palm.thickness + "]"}}));
  d.blocks.push_back(Block("SpatialContactForce", "contact", ContactParams(t)));
  d.blocks.push_back(
      Block("ContactDetector", "detector", {{"threshold", t.threshold}, {"Ts", t.Ts}}));
  d.blocks.push_back(Block("Mux", "touch", {{"inputs", "3"}}));
  d.connections = {{".base", "centre.B", {}},         {"centre.F", "solid.R", {}},
                   {"centre.F", "contact.B", {}},     {".object", "contact.F", {}},
                   {"contact.fn", "detector.fn", {}}, {"detector.contact", ".contact", {}},
                   {"contact.fn", ".fn", {}}};
  AddTouch(&d);
  return d;
}

// The parameters of the Phalanx define, in order, with the texts they take.
std::vector<Parameter> PhalanxParams(const PhalanxTexts& t) {
  std::vector<Parameter> params;
  for (const PhalanxField& f : kPhalanxFields) params.push_back({f.name, t.*f.text});
  return params;
}

// The hand-wide settings as texts: the spec's numbers (AddHand) or the hand define's parameter
// names (HandDefine). The friction law is always a word from the spec: a word passes through
// one level of define (Phalanx) but not two (hand define -> Phalanx).
PhalanxTexts SettingsTexts(const HandSpec& spec, bool as_names) {
  PhalanxTexts t;
  const GraspContactSpec& c = spec.contact;
  t.friction = c.friction;
  if (as_names) {
    for (const std::string& name : HandDefineParams()) Field(t, name) = name;
    return t;
  }
  t.rate = FormatNumber(spec.rate);
  t.filter_tc = FormatNumber(spec.filter_tc);
  t.stiffness = FormatNumber(c.stiffness);
  t.damping = FormatNumber(c.damping);
  t.transition_width = FormatNumber(c.transition_width);
  t.mu_s = FormatNumber(c.mu_s);
  t.mu_d = FormatNumber(c.mu_d);
  t.v_crit = FormatNumber(c.v_crit);
  t.threshold = FormatNumber(c.threshold);
  t.Ts = FormatNumber(c.Ts);
  return t;
}

std::string Indexed(const std::string& prefix, size_t i) { return prefix + std::to_string(i + 1); }

// Adds the phalanges of one finger to the finger subsystem at `finger_path`.
void AddPhalanges(Model& model, const std::string& finger_path, const FingerSpec& finger,
                  const PhalanxTexts& settings, size_t k, Hand* out) {
  std::vector<std::string>& paths = out->phalanges.emplace_back();
  for (size_t j = 0; j < finger.phalanges.size(); ++j) {
    const PhalanxSpec& p = finger.phalanges[j];
    const std::string name = Indexed("phalanx", j);
    const std::string path = finger_path + "/" + name;
    PhalanxTexts t = settings;
    t.radius = FormatNumber(finger.radius);
    t.density = FormatNumber(finger.density);
    t.q0 = FormatNumber(p.q0);
    t.alpha = FormatNumber(p.alpha);
    t.a = FormatNumber(p.a);
    t.d = FormatNumber(p.d);
    t.offset = FormatNumber(p.offset);
    if (std::abs(p.a) > kZeroLength || std::abs(p.d) > kZeroLength) {
      model.AddBlock(finger_path, "Phalanx", name, PhalanxParams(t));
    } else {
      // Pozzi et al. 2022 section 2.2.1: two joints at one place, no link between them. The module
      // is expanded so that its body can be commented out; its detector reads a zero force.
      t.a = Operand(p.a);
      t.d = Operand(p.d);
      model.AddSubsystem(finger_path, name) = PhalanxBody(t);
      model.SetCommented(path + "/link", true);  // the body's placement goes with it
      model.SetCommented(path + "/solid", true);
      model.SetCommented(path + "/contact", true);
      model.SetCommented(path + "/touch", true);
      model.AddBlock(path, "Constant", "no_contact", {{"value", "0"}});
      model.Connect(path, "no_contact.y", "detector.fn");
      model.Connect(path, "no_contact.y", ".fn");
      // Nothing to touch: no point, normal or force.
      model.AddBlock(path, "Constant", "no_touch", {{"value", "[0, 0, 0, 0, 0, 0, 0, 0, 0]"}});
      model.Connect(path, "no_touch.y", ".touch");
      out->bodiless.push_back(path);
    }
    paths.push_back(path);
    const std::string tag = "F" + std::to_string(k + 1) + "P" + std::to_string(j + 1);
    out->contact_names.push_back(tag);
    out->contact_signals.push_back(path + ".contact");
    out->joint_signals.push_back(path + ".q");
  }
}

// The hand as a subsystem `spec.name` of the diagram at `diagram_path`.
Hand BuildHand(Model& model, std::string_view diagram_path, const HandSpec& spec,
               const PhalanxTexts& settings) {
  Hand out;
  out.subsystem = JoinPath(diagram_path, spec.name);
  const std::string& hand = out.subsystem;
  model.AddSubsystem(diagram_path, spec.name).ports = {
      Frame("base"), Frame("object"), Outport("contacts"), Outport("q"), Outport("tips"),
      Outport("touches")};
  std::vector<Parameter> palm{{"length", FormatNumber(spec.palm.length)},
                              {"width", FormatNumber(spec.palm.width)},
                              {"thickness", FormatNumber(spec.palm.thickness)}};
  PhalanxTexts shared = settings;
  for (const char* name : kContactFields) palm.push_back({name, Field(shared, name)});
  model.AddBlock(hand, "Palm", "palm", std::move(palm));

  const size_t num_fingers = spec.fingers.size();
  for (size_t k = 0; k < num_fingers; ++k) {
    const FingerSpec& finger = spec.fingers[k];
    const size_t n = finger.phalanges.size();
    const std::string finger_name = Indexed("finger", k);
    const std::string path = hand + "/" + finger_name;
    model.AddSubsystem(hand, finger_name).ports = {
        Frame("base"), Frame("object"), Outport("contacts"), Outport("q"), Outport("tip"),
        Outport("touches")};
    model.AddBlock(path, "RigidTransform", "mount",
                   {{"translation", Vector3Text(finger.base_position)},
                    {"rotation", "matrix"},
                    {"matrix", Matrix3Text(finger.base_rotation)}});
    AddPhalanges(model, path, finger, settings, k, &out);
    // Every frame port must be joined: the fingertip's frame goes to a sensor of its position.
    model.AddBlock(path, "TransformSensor", "fingertip");
    model.AddBlock(path, "Constant", "beyond_tip", {{"value", "0"}});
    model.AddBlock(path, "Mux", "contacts", {{"inputs", std::to_string(n)}});
    model.AddBlock(path, "Mux", "angles", {{"inputs", std::to_string(n)}});
    model.AddBlock(path, "Mux", "touches", {{"inputs", std::to_string(n)}});

    // The chain of frames, each phalanx against the object, then the closure logic: a joint
    // holds while its phalanx or a more distal one touches (each `hold` feeds the previous
    // phalanx's `distal`; nothing lies beyond the fingertip).
    model.Connect(path, ".base", "mount.B");
    model.Connect(path, "mount.F", "phalanx1.B");
    for (size_t j = 0; j + 1 < n; ++j) {
      model.Connect(path, Indexed("phalanx", j) + ".F", Indexed("phalanx", j + 1) + ".B");
    }
    model.Connect(path, ".base", "fingertip.B");
    model.Connect(path, Indexed("phalanx", n - 1) + ".F", "fingertip.F");
    for (size_t j = 0; j < n; ++j)
      model.Connect(path, ".object", Indexed("phalanx", j) + ".object");
    for (size_t j = 0; j + 1 < n; ++j) {
      model.Connect(path, Indexed("phalanx", j + 1) + ".hold", Indexed("phalanx", j) + ".distal");
    }
    model.Connect(path, "beyond_tip.y", Indexed("phalanx", n - 1) + ".distal");
    for (size_t j = 0; j < n; ++j) {
      model.Connect(path, Indexed("phalanx", j) + ".contact", Indexed("contacts.u", j));
    }
    for (size_t j = 0; j < n; ++j) {
      model.Connect(path, Indexed("phalanx", j) + ".q", Indexed("angles.u", j));
    }
    for (size_t j = 0; j < n; ++j) {
      model.Connect(path, Indexed("phalanx", j) + ".touch", Indexed("touches.u", j));
    }
    model.Connect(path, "contacts.y", ".contacts");
    model.Connect(path, "angles.y", ".q");
    model.Connect(path, "fingertip.position", ".tip");
    model.Connect(path, "touches.y", ".touches");
  }
  out.contact_names.push_back("palm");
  out.contact_signals.push_back(hand + "/palm.contact");

  model.AddBlock(hand, "Mux", "contacts", {{"inputs", std::to_string(num_fingers + 1)}});
  model.AddBlock(hand, "Mux", "angles", {{"inputs", std::to_string(num_fingers)}});
  model.AddBlock(hand, "Mux", "tips", {{"inputs", std::to_string(num_fingers)}});
  model.AddBlock(hand, "Mux", "touches", {{"inputs", std::to_string(num_fingers + 1)}});
  model.Connect(hand, ".base", "palm.base");
  model.Connect(hand, ".object", "palm.object");
  for (size_t k = 0; k < num_fingers; ++k) {
    model.Connect(hand, ".base", Indexed("finger", k) + ".base");
    model.Connect(hand, ".object", Indexed("finger", k) + ".object");
  }
  for (size_t k = 0; k < num_fingers; ++k) {
    model.Connect(hand, Indexed("finger", k) + ".contacts", Indexed("contacts.u", k));
  }
  model.Connect(hand, "palm.contact", Indexed("contacts.u", num_fingers));
  for (size_t k = 0; k < num_fingers; ++k) {
    model.Connect(hand, Indexed("finger", k) + ".q", Indexed("angles.u", k));
  }
  for (size_t k = 0; k < num_fingers; ++k) {
    model.Connect(hand, Indexed("finger", k) + ".tip", Indexed("tips.u", k));
  }
  for (size_t k = 0; k < num_fingers; ++k) {
    model.Connect(hand, Indexed("finger", k) + ".touches", Indexed("touches.u", k));
  }
  model.Connect(hand, "palm.touch", Indexed("touches.u", num_fingers));
  model.Connect(hand, "contacts.y", ".contacts");
  model.Connect(hand, "angles.y", ".q");
  model.Connect(hand, "tips.y", ".tips");
  model.Connect(hand, "touches.y", ".touches");
  return out;
}

void CheckShape(const HandSpec& spec) {
  if (spec.fingers.empty()) throw std::logic_error("AddHand: the hand has no finger");
  for (size_t k = 0; k < spec.fingers.size(); ++k) {
    if (spec.fingers[k].phalanges.empty()) {
      throw std::logic_error("AddHand: finger " + std::to_string(k + 1) + " has no phalanx");
    }
  }
}

}  // namespace

Diagram PhalanxBody(const PhalanxTexts& t) {
  Diagram d;
  d.ports = {Frame("B"),         Frame("F"),      Frame("object"), Inport("distal"),
             Outport("contact"), Outport("hold"), Outport("q"),    Outport("fn"),
             Outport("touch")};
  d.blocks.push_back(
      Block("RigidTransform", "pre",
            {{"rotation", "axis_angle"}, {"axis", "[0, 0, 1]"}, {"angle", t.offset}}));
  d.blocks.push_back(Block(
      "RevoluteJoint", "joint",
      {{"axis", "[0, 0, 1]"}, {"q0", t.q0}, {"actuation", "motion"}, {"filter_tc", t.filter_tc}}));
  d.blocks.push_back(Block("RigidTransform", "post",
                           {{"translation", "[" + t.a + ", 0, " + t.d + "]"},
                            {"rotation", "axis_angle"},
                            {"axis", "[1, 0, 0]"},
                            {"angle", t.alpha}}));
  // The body runs from the joint (the origin of joint.F) to the origin of frame i, at
  // [a, 0, d] in joint.F; a cylinder lies along z of its frame, so Ry(atan2(a, d)) turns z
  // onto that segment.
  d.blocks.push_back(Block("RigidTransform", "link",
                           {{"translation", "[" + t.a + "/2, 0, " + t.d + "/2]"},
                            {"rotation", "axis_angle"},
                            {"axis", "[0, 1, 0]"},
                            {"angle", "atan2(" + t.a + ", " + t.d + ")"}}));
  d.blocks.push_back(Block("Solid", "solid",
                           {{"shape", "cylinder"},
                            {"radius", t.radius},
                            {"length", "sqrt(" + t.a + "^2 + " + t.d + "^2)"},
                            {"density", t.density}}));
  d.blocks.push_back(Block("SpatialContactForce", "contact", ContactParams(t)));
  d.blocks.push_back(
      Block("ContactDetector", "detector", {{"threshold", t.threshold}, {"Ts", t.Ts}}));
  d.blocks.push_back(
      Block("JointClosure", "closure", {{"rate", t.rate}, {"Ts", t.Ts}, {"q0", t.q0}}));
  d.connections = {{".B", "pre.B", {}},
                   {"pre.F", "joint.B", {}},
                   {"joint.F", "post.B", {}},
                   {"post.F", ".F", {}},
                   {"joint.F", "link.B", {}},
                   {"link.F", "solid.R", {}},
                   {"link.F", "contact.B", {}},
                   {".object", "contact.F", {}},
                   {"contact.fn", "detector.fn", {}},
                   {"detector.contact", "closure.contact", {}},
                   {".distal", "closure.distal", {}},
                   {"closure.q", "joint.motion", {}},
                   {"detector.contact", ".contact", {}},
                   {"closure.hold", ".hold", {}},
                   {"joint.q", ".q", {}},
                   {"contact.fn", ".fn", {}}};
  d.blocks.push_back(Block("Mux", "touch", {{"inputs", "3"}}));
  AddTouch(&d);
  return d;
}

std::vector<Define> GraspDefines() {
  // In a define the texts are the define's parameter names, substituted at instantiation.
  PhalanxTexts names;
  std::vector<std::string> phalanx_params;
  for (const PhalanxField& f : kPhalanxFields) {
    names.*f.text = f.name;
    phalanx_params.push_back(f.name);
  }

  std::vector<Define> defines;
  Define closure;
  closure.name = "JointClosure";
  closure.params = {"rate", "Ts", "q0"};
  closure.body = JointClosureBody();
  defines.push_back(std::move(closure));

  Define phalanx;
  phalanx.name = "Phalanx";
  phalanx.params = phalanx_params;
  phalanx.body = PhalanxBody(names);
  defines.push_back(std::move(phalanx));

  Define palm;
  palm.name = "Palm";
  palm.params = {"length", "width", "thickness"};
  palm.params.insert(palm.params.end(), std::begin(kContactFields), std::end(kContactFields));
  palm.body = PalmBody({"length", "width", "thickness"}, names);
  defines.push_back(std::move(palm));
  return defines;
}

Define ContactDetectorDefine() {
  // Pozzi et al. 2022 section 2.2.3.1: "passing through ten Delay blocks, [the signal] is processed
  // in a Product block": 1 only when the force exceeded the threshold now and at the ten samples
  // before.
  constexpr int kDelays = 10;
  Define def;
  def.name = "ContactDetector";
  def.params = {"threshold", "Ts"};
  Diagram& d = def.body;
  d.ports = {Inport("fn"), Outport("contact")};
  d.blocks.push_back(Block("ZeroOrderHold", "sample", {{"Ts", "Ts"}}));
  d.blocks.push_back(Block("CompareToConstant", "above", {{"op", ">"}, {"value", "threshold"}}));
  for (int i = 0; i < kDelays; ++i) {
    d.blocks.push_back(Block("Delay", Indexed("d", i), {{"n", "1"}, {"Ts", "Ts"}}));
  }
  d.blocks.push_back(Block("Product", "all", {{"ops", std::string(kDelays + 1, '*')}}));
  d.connections = {{".fn", "sample.u", {}}, {"sample.y", "above.u", {}}, {"above.y", "d1.u", {}}};
  for (int i = 1; i < kDelays; ++i) {
    d.connections.push_back({Indexed("d", i - 1) + ".y", Indexed("d", i) + ".u", {}});
  }
  d.connections.push_back({"above.y", "all.u1", {}});
  for (int i = 0; i < kDelays; ++i) {
    d.connections.push_back({Indexed("d", i) + ".y", Indexed("all.u", i + 1), {}});
  }
  d.connections.push_back({"all.y", ".contact", {}});
  return def;
}

HandSpec Gripper4Spec() {
  // Finger bases on the palm's top face (docs/grasp.md); DH frame 0 has x0 = +z (the finger
  // points up at q = 0) and z0 = the joint axis: -y for fingers 1, 3 (closing towards -x),
  // +y for 2, 4 (towards +x), so that a positive angle closes every finger.
  Eigen::Matrix3d towards_minus_x, towards_plus_x;
  // columns x0, y0, z0
  towards_minus_x << 0, -1, 0,  //
      0, 0, -1,                 //
      1, 0, 0;
  towards_plus_x << 0, 1, 0,  //
      0, 0, 1,                //
      1, 0, 0;
  const double lengths[] = {0.040, 0.030, 0.025};
  const Eigen::Vector3d bases[] = {
      {0.045, 0.025, 0}, {-0.045, 0.025, 0}, {0.045, -0.025, 0}, {-0.045, -0.025, 0}};
  HandSpec spec;
  for (int k = 0; k < 4; ++k) {
    FingerSpec finger;
    finger.base_position = bases[k];
    finger.base_rotation = k % 2 == 0 ? towards_minus_x : towards_plus_x;
    for (double length : lengths) {
      PhalanxSpec p;
      p.a = length;
      finger.phalanges.push_back(p);
    }
    spec.fingers.push_back(finger);
  }
  return spec;
}

std::vector<std::string> HandDefineParams() {
  return {"rate", "filter_tc", "stiffness", "damping",   "transition_width",
          "mu_s", "mu_d",      "v_crit",    "threshold", "Ts"};
}

Hand AddHand(Model& model, std::string_view diagram_path, const HandSpec& spec) {
  CheckShape(spec);
  // Everything is checked before anything is added: a failing call leaves the model as it was.
  if (!IsIdentifier(spec.name)) {
    throw ModelError({}, "AddHand: invalid hand name '" + spec.name +
                             "'; expected letters, digits and '_', not starting with a digit");
  }
  if (model.GetDiagram(diagram_path).Find(spec.name) != nullptr) {
    throw ModelError({}, "AddHand: a block named '" + spec.name + "' already exists in " +
                             (diagram_path.empty() ? std::string("the top-level diagram")
                                                   : "'" + std::string(diagram_path) + "'"));
  }
  for (const std::string* port : {&spec.base, &spec.object}) {
    if (!port->empty() && (!IsEndpoint(*port) || ((*port)[0] == '.' && diagram_path.empty()))) {
      throw ModelError({}, "AddHand: invalid frame port '" + *port +
                               "'; expected 'block.port', e.g. 'world.W', or '.port' inside a "
                               "subsystem");
    }
  }

  std::vector<Define> needed{ContactDetectorDefine()};
  for (Define& d : GraspDefines()) needed.push_back(std::move(d));
  for (Define& d : needed) {
    if (model.FindDefine(d.name) == nullptr) model.defines.push_back(std::move(d));
  }
  Hand hand = BuildHand(model, diagram_path, spec, SettingsTexts(spec, false));
  if (!spec.base.empty()) model.Connect(diagram_path, spec.base, spec.name + ".base");
  if (!spec.object.empty()) model.Connect(diagram_path, spec.object, spec.name + ".object");
  return hand;
}

Define HandDefine(const HandSpec& spec, const std::string& define_name) {
  CheckShape(spec);
  Model scratch;
  // The body's Phalanx blocks and their lines are checked against the defines they use.
  scratch.defines.push_back(ContactDetectorDefine());
  for (Define& d : GraspDefines()) scratch.defines.push_back(std::move(d));
  HandSpec named = spec;
  named.name = "hand";
  BuildHand(scratch, "", named, SettingsTexts(spec, true));
  Define def;
  def.name = define_name;
  def.params = HandDefineParams();
  def.body = std::move(*scratch.root.blocks.front().body);
  return def;
}

}  // namespace twinblocks::graph
