#pragma once

// Serial arms from Denavit-Hartenberg tables, built as diagrams of frame blocks: the
// programmatic counterpart of the `define`s in models/lib/dh.xml, in the way Pozzi et al. 2022,
// "Modeling and Simulation of Robotic Grasping in Simulink Through Simscape Multibody", builds its
// hands from DH tables with Simulink's programmatic model editing. One link is a RigidTransform, a
// RevoluteJoint, a RigidTransform and a Solid; the link's body is built by one function
// (DhLinkBody) both for the library's defines and for the chains added here, so that a chain added
// in code and one written with the defines flatten to the same blocks, paths and parameter values.
//
// Both conventions, with theta_i = q_i + offset_i:
//   modified (Craig):  T(i-1 -> i) = Rx(alpha_{i-1}) Dx(a_{i-1}) Rz(theta_i) Dz(d_i)
//     pre  = Rx(alpha) Dx(a)     (translation [a, 0, 0], axis_angle about x)
//     joint: Rz(q)
//     post = Rz(offset) Dz(d)    (translation [0, 0, d], axis_angle about z)
//   standard:          T(i-1 -> i) = Rz(theta_i) Dz(d_i) Dx(a_i) Rx(alpha_i)
//     pre  = Rz(offset)
//     joint: Rz(q)
//     post = Dz(d) Dx(a) Rx(alpha)  (translation [a, 0, d], axis_angle about x)
// Rz(offset) commutes with the joint's Rz(q), so each transform needs one rotation. The Solid
// sits at DH frame i (post.F), with its com and inertia given in that frame, as
// multibody::DhLink has them.

#include <string>
#include <vector>

#include "model/model.h"
#include "physics/multibody/dh.h"

namespace twinblocks::graph {

enum class DhConvention { kModified, kStandard };

/// How a joint of the chain is driven; each gives the link different signal inputs (the
/// RevoluteJoint's actuation input exists only in its mode).
enum class DhActuation {
  kNone,    ///< passive: no input
  kTorque,  ///< inport `tau` (N m)
  kMotion,  ///< inport `motion`: [q, qd, qdd] or q alone
};

/// The parameter texts of one link, as they go into the blocks: numbers, expressions, or
/// (for the library's defines) the names of the define's parameters.
struct DhLinkTexts {
  std::string alpha = "0";        ///< twist (rad): alpha_{i-1} (modified) or alpha_i (standard)
  std::string a = "0";            ///< length (m): a_{i-1} (modified) or a_i (standard)
  std::string d = "0";            ///< offset along z (m)
  std::string offset = "0";       ///< theta_i = q_i + offset (rad)
  std::string mass = "1";         ///< kg
  std::string com = "[0, 0, 0]";  ///< centre of mass in DH frame i (m), [x, y, z]
  std::string inertia = "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]";  ///< about the com, axes of
                                                              ///< frame i (kg m^2), 3x3
  std::string q0 = "0";                                       ///< initial joint angle (rad)
  std::string damping = "0";                                  ///< viscous joint damping (N m s/rad)
};

/// The body of one link: frame ports B (frame i-1) and F (frame i), the actuation inport if
/// any, outports q, qd, qdd, torque; blocks `pre`, `joint`, `post`, `solid` and their lines.
Diagram DhLinkBody(DhConvention convention, DhActuation actuation, const DhLinkTexts& texts);

/// The name of the library define for a convention and actuation: ModifiedDhLink,
/// ModifiedDhLinkMotion, ModifiedDhLinkPassive, StandardDhLink, ...
std::string DhLinkDefineName(DhConvention convention, DhActuation actuation);

/// The six defines of models/lib/dh.xml (three actuations of each convention), with
/// parameters alpha a d offset mass com inertia q0 damping.
std::vector<Define> DhLinkDefines();

/// One joint of a chain: its DH row and link inertia, and how it is driven.
struct DhJointSpec {
  multibody::DhLink link;  ///< alpha, a, d, theta_offset, mass, com, inertia_com
  double q0 = 0.0;         ///< rad
  double damping = 0.0;    ///< N m s/rad
  DhActuation actuation = DhActuation::kTorque;
};

/// A whole DH table to add to a diagram.
struct DhChainSpec {
  DhConvention convention = DhConvention::kModified;
  std::vector<DhJointSpec> joints;
  /// Links are subsystems named prefix1, prefix2, ... in the diagram.
  std::string prefix = "link";
  /// The frame port link 1's B is attached to, as the diagram names it: "world.W", or
  /// ".base" for a boundary port of the subsystem the chain is added to.
  std::string base = "world.W";
};

/// What AddDhChain added, named from the diagram it was added to.
struct DhChain {
  std::vector<std::string> links;   ///< subsystems: "link1", "link2", ...
  std::vector<std::string> joints;  ///< RevoluteJoint blocks: "link1/joint", ...
  std::vector<std::string> inputs;  ///< per joint: "link1.tau", "link2.motion", "" (passive)
  std::string tip;                  ///< the last link's frame port F: "link6.F"
};

/// Adds a serial chain to the diagram at `diagram_path` of `model`: one subsystem per row of
/// the table, each with the body DhLinkBody gives for the row's numbers (written in their
/// shortest exact form), link 1 attached to `spec.base`, link i's F to link i+1's B. The
/// result compiles to the same blocks as the dh.xml defines with the same numbers.
/// @throws ModelError when a subsystem name is taken, the prefix is not an identifier or the
///   base is not a port reference; nothing is added then.
/// @throws std::logic_error when the table is empty.
DhChain AddDhChain(Model& model, std::string_view diagram_path, const DhChainSpec& spec);

}  // namespace twinblocks::graph
