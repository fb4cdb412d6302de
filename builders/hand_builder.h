#pragma once

// Robotic hands from Denavit-Hartenberg descriptions, built as diagrams of the grasp library's
// blocks: the programmatic counterpart of models/lib/grasp.xml, in the way Pozzi et al. 2022,
// "Modeling and Simulation of Robotic Grasping in Simulink Through Simscape Multibody"
// (section 2.2.1), builds a Simscape hand from a SynGrasp hand structure with SG2Sim_Hand,
// SG2Sim_Palm and SGSim_Finger.
//
// A hand is a palm and fingers; a finger is a chain of phalanx modules (Pozzi et al. 2022 Fig. 3),
// one per row of its standard DH table, starting at the finger's base frame on the palm. Each
// phalanx carries its joint, a cylinder body from its joint to the next, the contact of that
// body with the object, a contact detector and the hand-closure controller of its joint
// (section 2.2.3). The palm has its own contact and detector. The defines that make these
// blocks (Phalanx, JointClosure, Palm, and the ContactDetector of models/lib/contact_detector.xml)
// are made here by the same functions that write grasp.xml's, so that a hand built in code and
// one written with the defines flatten to the same blocks.
//
// Like SGSim_Finger, the builder comments out the body (Solid, and the transform that places
// it) of a phalanx whose joint shares its position with the next one (a zero-length link,
// a = d = 0: two joints at a finger's base for flexion and abduction), and its contact; that
// phalanx's detector then reads a zero force, so its contact signal stays 0.

#include <Eigen/Core>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"

namespace twinblocks::graph {

/// The texts of one phalanx module's parameters, as they go into its blocks: numbers,
/// expressions, or (for the library's define) the names of the define's parameters.
struct PhalanxTexts {
  std::string alpha = "0";                     ///< standard DH twist alpha_i (rad)
  std::string a = "0";                         ///< standard DH length a_i (m)
  std::string d = "0";                         ///< standard DH offset d_i along z_{i-1} (m)
  std::string offset = "0";                    ///< theta_i = q_i + offset (rad)
  std::string radius = "0";                    ///< of the cylinder body (m)
  std::string density = "1000";                ///< of the body (kg/m^3)
  std::string q0 = "0";                        ///< initial joint angle and closure command (rad)
  std::string rate = "2";                      ///< closure speed (rad/s)
  std::string filter_tc = "0.001";             ///< time constant of the joint's motion filter (s)
  std::string stiffness = "1e+06";             ///< contact normal stiffness (N/m)
  std::string damping = "1000";                ///< contact normal damping (N/(m/s))
  std::string transition_width = "1e-04";      ///< contact transition region (m)
  std::string friction = "smooth_stick_slip";  ///< SpatialContactForce's friction law
  std::string mu_s = "0.5";                    ///< static friction coefficient
  std::string mu_d = "0.3";                    ///< dynamic friction coefficient
  std::string v_crit = "0.001";                ///< critical velocity of stick-slip (m/s)
  std::string threshold = "0.1";               ///< normal force above which contact is detected (N)
  std::string Ts = "1e-04";                    ///< sample time of detection and closure (s)
};

/// The body of one phalanx module: frame ports B (DH frame i-1), F (frame i) and object, inport
/// distal, outports contact, hold, q, fn; blocks pre, joint, post, link, solid, contact,
/// detector, closure. Texts holding an expression are parenthesized by the caller where
/// needed: they are substituted as written ("[a/2, 0, d/2]").
Diagram PhalanxBody(const PhalanxTexts& texts);

/// The hand-building defines of models/lib/grasp.xml, in file order: JointClosure, Phalanx,
/// Palm. (The file's object modules and ContactTimes are not used by the builder.)
std::vector<Define> GraspDefines();

/// The ContactDetector define of models/lib/contact_detector.xml (Pozzi et al. 2022
/// section 2.2.3.1: threshold on the normal force, ten Delay blocks and a Product).
Define ContactDetectorDefine();

/// One phalanx: the standard DH row of the joint at its base,
/// T(i-1 -> i) = Rz(offset + q) Dz(d) Dx(a) Rx(alpha).
struct PhalanxSpec {
  double alpha = 0.0;   ///< rad
  double a = 0.0;       ///< m
  double d = 0.0;       ///< m
  double offset = 0.0;  ///< rad
  double q0 = 0.0;      ///< initial joint angle (rad)
};

/// One finger: where its chain starts on the palm and its DH table.
struct FingerSpec {
  /// Origin of the finger's DH frame 0 in the hand's base frame (m).
  Eigen::Vector3d base_position = Eigen::Vector3d::Zero();
  /// Axes of DH frame 0 in the hand's base frame (columns x0, y0, z0; z0 is the first joint's
  /// axis, x0 the direction of the first phalanx at q = 0 when its d is 0).
  Eigen::Matrix3d base_rotation = Eigen::Matrix3d::Identity();
  std::vector<PhalanxSpec> phalanges;  ///< proximal first
  double radius = 0.008;               ///< of the phalanges' cylinders (m)
  double density = 1000.0;             ///< of the phalanges (kg/m^3)
};

/// The palm: a box whose top face is centred on the hand's base frame (Pozzi et al. 2022
/// SG2Sim_Palm).
struct PalmSpec {
  double length = 0.12;     ///< along x (m)
  double width = 0.08;      ///< along y (m)
  double thickness = 0.01;  ///< along z, below the base frame (m)
};

/// Contact between the hand and the object (Pozzi et al. 2022 Table 2, SpatialContactForce) and its
/// detection (section 2.2.3.1).
struct GraspContactSpec {
  double stiffness = 1e6;                      ///< N/m
  double damping = 1e3;                        ///< N/(m/s)
  double transition_width = 1e-4;              ///< m
  std::string friction = "smooth_stick_slip";  ///< none, smooth_stick_slip or coulomb
  double mu_s = 0.5;
  double mu_d = 0.3;
  double v_crit = 1e-3;    ///< m/s
  double threshold = 0.1;  ///< N
  double Ts = 1e-4;        ///< s: detection samples and closure steps
};

/// A whole hand.
struct HandSpec {
  std::string name = "hand";  ///< the subsystem AddHand adds
  PalmSpec palm;
  std::vector<FingerSpec> fingers;
  GraspContactSpec contact;
  double rate = 2.0;        ///< closure speed of every joint (rad/s)
  double filter_tc = 1e-3;  ///< time constant of the joints' motion filters (s)
  /// Frame port the hand's base is attached to ("world.W"), or "" to leave it for the caller.
  std::string base = "world.W";
  /// Frame port of the object's body (a Solid's R node, e.g. "object.body"), or "" to leave it.
  std::string object;
};

/// The four-fingered gripper of docs/grasp.md (Pozzi et al. 2022 Fig. 5): palm 0.12 x
/// 0.08 x 0.01 m; fingers 1, 3 at x = +0.045 closing towards -x, 2, 4 at x = -0.045 closing
/// towards +x, y = +0.025 for 1, 2 and -0.025 for 3, 4; phalanges 0.040, 0.030, 0.025 m long,
/// radius 0.008 m, density 1000 kg/m^3, all straight up at q = 0; Table 2's contact; 2 rad/s.
HandSpec Gripper4Spec();

/// What AddHand added, named from the diagram it was added to.
struct Hand {
  std::string subsystem;  ///< "hand"
  /// [finger][phalanx] module paths: "hand/finger1/phalanx1", ...
  std::vector<std::vector<std::string>> phalanges;
  /// The paper's names of the contact signals, F{k}P{j} for each phalanx, then "palm".
  std::vector<std::string> contact_names;
  /// Their signals, in the same order: "hand/finger1/phalanx1.contact", ..., "hand/palm.contact".
  std::vector<std::string> contact_signals;
  /// Joint angle signals q{k}{j}: "hand/finger1/phalanx1.q", ...
  std::vector<std::string> joint_signals;
  /// Phalanges whose body and contact were commented out (zero-length links).
  std::vector<std::string> bodiless;
};

/// Adds the hand as a subsystem `spec.name` of the diagram at `diagram_path`: frame ports base
/// (the palm's top-face centre) and object (to join to the object's Solid), outports contacts
/// (F1P1 ... FnPm, then the palm's: 0/1), q (every joint angle, rad) and tips (each fingertip's
/// position in the base frame, m: the origin of its last DH frame). Inside: palm (a Palm),
/// finger1 ... (subsystems of a RigidTransform `mount` to the finger's DH frame 0, phalanx1 ...
/// chained B to F, a TransformSensor `fingertip`, a Constant `beyond_tip` = 0 as the last
/// phalanx's distal input, and Muxes `contacts` and `angles`), and Muxes `contacts`, `angles`,
/// `tips`. A phalanx is a Phalanx block, or, for a zero-length link, a subsystem with
/// the Phalanx body whose link, solid and contact are commented out (and a Constant
/// `no_contact` = 0 in place of the contact's normal force). The defines it uses are added
/// to the model's own defines where the model does not have them yet (from an include or
/// earlier). Numbers are written in their shortest exact form.
/// @throws ModelError when the name is not an identifier or is taken, or base/object is not a
///   port reference; nothing is added then.
/// @throws std::logic_error when the hand has no finger or a finger no phalanx.
Hand AddHand(Model& model, std::string_view diagram_path, const HandSpec& spec);

/// The hand as a define `define_name`, with the hand-wide settings as its parameters (rate
/// filter_tc stiffness damping transition_width friction mu_s mu_d v_crit threshold Ts) and the
/// geometry written as numbers: the body AddHand gives a subsystem, with those names in place
/// of the settings' numbers. models/gripper4/gripper4_hand.xml holds Gripper4Spec()'s.
Define HandDefine(const HandSpec& spec, const std::string& define_name);

/// The parameters of a HandDefine, in order.
std::vector<std::string> HandDefineParams();

}  // namespace twinblocks::graph
