#include "blocks/multibody/tendon.h"

#include <cmath>
#include <memory>
#include <string>

#include "blocks/block_error.h"
#include "blocks/math_expression.h"
#include "blocks/multibody/frame_element.h"
#include "blocks/multibody/mechanism_builder.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::BlockType;
using blocks::ParamKind;
using blocks::Params;

namespace {

bool IsSet(const Params& p, const char* name) { return p.has(name) && p.Get(name).is_set(); }

/// The texts between ';' of R_functions, trimmed.
std::vector<std::string> SplitFunctions(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  auto flush = [&] {
    const size_t b = current.find_first_not_of(" \t\r\n");
    const size_t e = current.find_last_not_of(" \t\r\n");
    parts.push_back(b == std::string::npos ? "" : current.substr(b, e - b + 1));
    current.clear();
  };
  for (char ch : text) {
    if (ch == ';') {
      flush();
    } else {
      current += ch;
    }
  }
  flush();
  return parts;
}

/// A vector parameter of n elements (a scalar stands for n equal ones), each finite.
Eigen::VectorXd PerJoint(const Params& p, const char* name, int n, const char* unit) {
  Eigen::VectorXd v = p.Vector(name);
  if (v.size() == 1 && n > 1) v = Eigen::VectorXd::Constant(n, v[0]);
  if (v.size() != n) {
    throw BlockError("parameter '" + std::string(name) +
                         "' must have one element per joint of "
                         "the tendon (" +
                         std::to_string(n) + ", the length of R), got " + std::to_string(v.size()),
                     name);
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    if (!std::isfinite(v[j])) {
      throw BlockError("parameter '" + std::string(name) + "' element " + std::to_string(j + 1) +
                           " is not finite (" + unit + ")",
                       name);
    }
  }
  return v;
}

}  // namespace

TendonElement::TendonElement(const Params& p) {
  const bool constant = IsSet(p, "R"), functions = IsSet(p, "R_functions");
  if (constant == functions) {
    throw BlockError(constant ? "give the moment arms once: either R (constant) or R_functions "
                                "(functions of each joint's angle q), not both"
                              : "parameter 'R' (the moment arms, one per joint the tendon "
                                "pulls) or 'R_functions' is required",
                     constant ? "R_functions" : "R");
  }
  int n = 0;
  if (constant) {
    arms = p.Vector("R");
    n = static_cast<int>(arms.size());
  } else {
    arm_expressions = SplitFunctions(p.String("R_functions"));
    n = static_cast<int>(arm_expressions.size());
    if (n == 1 && arm_expressions[0].empty()) n = 0;
  }
  const char* arm_param = constant ? "R" : "R_functions";
  if (n == 0) {
    throw BlockError(std::string("parameter '") + arm_param +
                         "' is empty: a tendon pulls at least one joint (one moment arm per "
                         "joint, in the order of ports J1, J2, ...)",
                     arm_param);
  }
  CheckPortCountParam(n, arm_param);
  if (constant) {
    for (int j = 0; j < n; ++j) {
      if (!std::isfinite(arms[j])) {
        throw BlockError("parameter 'R' element " + std::to_string(j + 1) + " is not finite", "R");
      }
    }
  } else {
    arms = Eigen::VectorXd::Zero(n);
    variables = p.variables();
    // Parse each now, so that a bad one is an error at compile.
    for (int j = 0; j < n; ++j) {
      if (arm_expressions[j].empty()) {
        throw BlockError("parameter 'R_functions': function " + std::to_string(j + 1) +
                             " is empty; write one expression in q per joint, separated by ';'",
                         "R_functions");
      }
      double q = 0.0;
      blocks::MathExpression e;
      try {
        e.DefineVariable("q", &q);
        for (const auto& [name, value] : variables) {
          if (name != "q" && !blocks::MathExpression::IsReservedName(name)) {
            e.DefineConstant(name, value);
          }
        }
        e.SetExpression(arm_expressions[j]);
        (void)e.Evaluate();
      } catch (const blocks::ExpressionError& err) {
        throw BlockError("parameter 'R_functions', function " + std::to_string(j + 1) + " ('" +
                             arm_expressions[j] + "'): " + err.what(),
                         "R_functions");
      }
    }
  }
  q_rest = IsSet(p, "q_rest") ? PerJoint(p, "q_rest", n, "rad or m") : Eigen::VectorXd::Zero(n);
  if (IsSet(p, "E")) {
    E = PerJoint(p, "E", n, "N m/rad or N/m");
    for (int j = 0; j < n; ++j) {
      if (!(E[j] > 0.0)) {
        throw BlockError("parameter 'E' element " + std::to_string(j + 1) + " is " +
                             std::to_string(E[j]) +
                             "; the joints' stiffnesses must be positive (N m/rad or N/m): leave "
                             "E out for a tendon without springs of its own",
                         "E");
      }
    }
  }
  force_driven = p.Word("drive") == "force";
  elastic = p.Word("transmission") == "elastic";
  if (force_driven && elastic) {
    throw BlockError(
        "transmission=\"elastic\" needs drive=\"displacement\": a force-driven "
        "tendon's tension is its input",
        "transmission");
  }
  stiffness = p.Scalar("stiffness");
  damping = p.Scalar("damping");
  if (elastic && !(stiffness > 0.0 && std::isfinite(stiffness))) {
    throw BlockError(
        "parameter 'stiffness' must be positive for transmission=\"elastic\" (N/m, "
        "or N m/rad for a tendon whose arms are dimensionless)",
        "stiffness");
  }
  if (!(damping >= 0.0 && std::isfinite(damping))) {
    throw BlockError("parameter 'damping' must be zero or positive", "damping");
  }
  sigma_scaling = p.Scalar("sigma_scaling");
  sigma_offset = p.Scalar("sigma_offset");
  if (sigma_scaling == 0.0 || !std::isfinite(sigma_scaling)) {
    throw BlockError("parameter 'sigma_scaling' must be non-zero and finite", "sigma_scaling");
  }
  if (!std::isfinite(sigma_offset)) {
    throw BlockError("parameter 'sigma_offset' must be finite", "sigma_offset");
  }
  filter_tc = p.Scalar("filter_tc");
  if (!(filter_tc > 0.0 && std::isfinite(filter_tc))) {
    throw BlockError("parameter 'filter_tc' must be positive (s)", "filter_tc");
  }
  chain = p.Word("routing") == "chain";
  for (int j = 0; j < n; ++j) {
    joint_ports.push_back(DeclarePhysicalPort("J" + std::to_string(j + 1), "rotational"));
  }
  port_t = DeclarePhysicalPort("T", "tendon");
  // Nothing of stage 0 (the joints' positions, the length) reads the command.
  in_command = force_driven
                   ? DeclareInput("force", 1, blocks::FeedthroughToStage(1))
                   : DeclareInput("s", blocks::kDynamicWidth, blocks::FeedthroughToStage(1));
  out_f = DeclareOutput("f", 1, 1);
  out_length = DeclareOutput("length", 1, 0);
}

void TendonElement::Contribute(MechanismBuilder& builder) const { builder.AddTendon(*this); }

std::string TendonElement::UnconnectedPortError(const std::string& path, int port) const {
  if (port == port_t) return {};  // for a SynergyEquilibrium; may stay open
  return "tendon '" + path + "': port " + physical_port(port).name +
         " is not connected; connect J1..Jn to the `shaft` ports of the n joints it pulls (one "
         "per moment arm, actuation=\"port\")";
}

BlockType TendonType() {
  BlockType t = internal::MultibodyType(
      "Tendon", "A tendon over n joints: s = l(q), joint torques R^T f (adaptive synergy).");
  t.doc =
      "The transmission of an underactuated hand (Rocchi & Hauser 2016, \"A Generic Simulator "
      "for Underactuated Compliant Hands\", the adaptive-synergy model). Ports J1..Jn join the "
      "`shaft` ports of the n joints the tendon pulls (revolute or prismatic, "
      "actuation=\"port\"; the same shaft may carry couplers, gears or motors). Moment arm r_j: "
      "a number (R, m or dimensionless) or a function of that joint's angle q (R_functions, "
      "for a linkage like the Reflex's). The tendon's displacement is its length "
      "l(q) = sum_j integral from q_rest_j to q_j of r_j, so that l = R (q - q_rest) for "
      "constant arms (eq. 2) and dl/dt = R(q) qd. Its tension f > 0 pulls: it gives joint j "
      "the torque r_j f, and with E the tendon's joints also carry the springs "
      "-E_j (q_j - q_rest_j): tau = R^T f - E (q - q_rest) (eq. 3, 8).\n"
      "drive=\"displacement\": input s is the command sigma, and the tendon is held at "
      "s = sigma_scaling (sigma + sigma_offset) (eq. 7): rigidly (transmission=\"rigid\", the "
      "constraint l(q) = s kept exactly, as a JointCoupler's, its multiplier the tension) or "
      "through the cable's stiffness (transmission=\"elastic\": "
      "f = stiffness (s - l) + damping (sd - R qd), which may push). The command is [s, sd, sdd] "
      "(width 3) or s alone (width 1), then smoothed by a critically damped filter of time "
      "constant filter_tc that starts at rest at the tendon's initial length. "
      "drive=\"force\": input `force` is the tension f. Outputs: f, and length l(q). Port T "
      "connects a SynergyEquilibrium. Several tendons may share joints.";
  t.reference =
      "No Simscape block (Simscape Multibody has no tendon); MuJoCo's fixed tendon with a "
      "position actuator (constant arms, and a length of its own rather than a constraint)";
  t.params = {
      {"R", ParamKind::kVector, "", "constant moment arms, one per joint (m, or dimensionless)"},
      {"R_functions", ParamKind::kString, "",
       "moment arms as functions of each joint's angle q, separated by ';'"},
      {"q_rest", ParamKind::kVector, "0", "joint positions where l = 0 and E's springs rest"},
      {"E", ParamKind::kVector, "", "joint stiffnesses, > 0 (N m/rad or N/m); unset: none"},
      {"drive",
       ParamKind::kWord,
       "displacement",
       "displacement (input s) | force (input force)",
       {"displacement", "force"}},
      {"transmission",
       ParamKind::kWord,
       "rigid",
       "rigid (constraint) | elastic (cable stiffness)",
       {"rigid", "elastic"}},
      {"stiffness", ParamKind::kScalar, "0", "cable stiffness for transmission=elastic, N/m"},
      {"damping", ParamKind::kScalar, "0", "cable damping for transmission=elastic, N s/m"},
      {"sigma_scaling", ParamKind::kScalar, "1", "s = sigma_scaling (sigma + sigma_offset)"},
      {"sigma_offset", ParamKind::kScalar, "0", "see sigma_scaling"},
      {"filter_tc", ParamKind::kScalar, "0.01", "s: the filter of a width-1 command"},
      {"routing",
       ParamKind::kWord,
       "free",
       "free (any joints: a fixed tendon, as the SoftHand's over five fingers) | chain (J1..Jn "
       "in order along one chain from the base outward, as a cable routed along one finger; "
       "checked)",
       {"free", "chain"}}};
  t.inputs = {{"s", "command sigma, [s, sd, sdd] (3) or s (1) (drive=displacement)"},
              {"force", "tension f, N (drive=force)"}};
  t.outputs = {{"f", "tension, N (N m for dimensionless arms); > 0 pulls"},
               {"length", "l(q), m (rad for dimensionless arms)"}};
  t.physical_ports = {{"J1..Jn", "rotational: the shafts of the joints the tendon pulls"},
                      {"T", "tendon: for a SynergyEquilibrium (may stay open)"}};
  t.create = [](const Params& p) { return std::make_unique<TendonElement>(p); };
  return t;
}

}  // namespace twinblocks::multibody
