#include "blocks/multibody/frame_elements.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <filesystem>

#include "blocks/block_error.h"
#include "blocks/multibody/mesh.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::Params;

namespace {

Eigen::Vector3d Vector3(const Params& p, const char* name) {
  const Eigen::VectorXd v = p.Vector(name);
  if (v.size() != 3) {
    throw BlockError("parameter '" + std::string(name) + "' must have 3 elements, got " +
                         std::to_string(v.size()),
                     name);
  }
  return v;
}

Eigen::VectorXd VectorOfSize(const Params& p, const char* name, int n) {
  Eigen::VectorXd v = p.Vector(name);
  if (v.size() == 1 && n > 1) return Eigen::VectorXd::Constant(n, v[0]);
  if (v.size() != n) {
    throw BlockError("parameter '" + std::string(name) + "' must have " + std::to_string(n) +
                         " element" + (n == 1 ? "" : "s") + ", got " + std::to_string(v.size()),
                     name);
  }
  return v;
}

Eigen::Vector3d UnitAxis(const Params& p, const char* name) {
  const Eigen::Vector3d a = Vector3(p, name);
  const double n = a.norm();
  if (!(n > 1e-12) || !std::isfinite(n)) {
    throw BlockError("parameter '" + std::string(name) +
                         "' must be a non-zero direction, got [" + std::to_string(a.x()) + ", " +
                         std::to_string(a.y()) + ", " + std::to_string(a.z()) + "]",
                     name);
  }
  return a / n;
}

Eigen::Quaterniond UnitQuaternion(const Eigen::VectorXd& v, const char* name) {
  if (v.size() != 4) {
    throw BlockError("parameter '" + std::string(name) +
                         "' must be a quaternion [w, x, y, z] (4 elements), got " +
                         std::to_string(v.size()),
                     name);
  }
  const double n = v.norm();
  if (!(n > 1e-12)) {
    throw BlockError("parameter '" + std::string(name) + "' must be a non-zero quaternion", name);
  }
  return Eigen::Quaterniond(v[0] / n, v[1] / n, v[2] / n, v[3] / n);
}

/// A 3x3 inertia about the CoM must be symmetric positive semi-definite and satisfy the
/// triangle inequality of principal moments: anything else is not a rigid body.
void CheckInertia(const Eigen::Matrix3d& I) {
  if (!I.allFinite() || (I - I.transpose()).cwiseAbs().maxCoeff() > 1e-9 * (1.0 + I.norm())) {
    throw BlockError("parameter 'inertia' must be a symmetric 3x3 matrix", "inertia");
  }
  const Eigen::Vector3d m = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues();
  const double tol = 1e-9 * (1.0 + m.cwiseAbs().maxCoeff());
  if (m.minCoeff() < -tol) {
    throw BlockError("parameter 'inertia' must be positive semi-definite (principal moments " +
                         std::to_string(m[0]) + ", " + std::to_string(m[1]) + ", " +
                         std::to_string(m[2]) + ")",
                     "inertia");
  }
  if (m[0] + m[1] < m[2] - tol) {
    throw BlockError(
        "parameter 'inertia' violates the triangle inequality of principal moments (" +
            std::to_string(m[0]) + " + " + std::to_string(m[1]) + " < " + std::to_string(m[2]) +
            "): no rigid body has it",
        "inertia");
  }
}

Actuation ParseActuation(const std::string& w) {
  if (w == "torque") return Actuation::kTorque;
  if (w == "motion") return Actuation::kMotion;
  if (w == "port") return Actuation::kPort;
  return Actuation::kNone;
}

double OptionalScalar(const Params& p, const char* name, double fallback) {
  return p.has(name) && p.Get(name).is_set() ? p.Scalar(name) : fallback;
}

}  // namespace

WorldElement::WorldElement(const Params& p) {
  FramePort("W");
  gravity = Vector3(p, "gravity");
  if (!gravity.allFinite()) throw BlockError("parameter 'gravity' must be finite", "gravity");
}

RigidTransformElement::RigidTransformElement(const Params& p) {
  FramePort("B");
  FramePort("F");
  X_BF.translation = Vector3(p, "translation");
  const std::string& rotation = p.Word("rotation");
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  if (rotation == "axis_angle") {
    R = Eigen::AngleAxisd(p.Scalar("angle"), UnitAxis(p, "axis")).toRotationMatrix();
  } else if (rotation == "rpy") {
    const Eigen::Vector3d rpy = Vector3(p, "rpy");
    R = Rz(rpy.z()) * Ry(rpy.y()) * Rx(rpy.x());  // roll, pitch, yaw about fixed x, y, z
  } else if (rotation == "quaternion") {
    R = UnitQuaternion(p.Vector("quaternion"), "quaternion").toRotationMatrix();
  } else if (rotation == "matrix") {
    const Eigen::MatrixXd m = p.Matrix("matrix");
    if (m.rows() != 3 || m.cols() != 3) {
      throw BlockError("parameter 'matrix' must be 3x3 (row-major rows), got " +
                           std::to_string(m.rows()) + "x" + std::to_string(m.cols()),
                       "matrix");
    }
    R = m;
    if ((R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > 1e-6 ||
        R.determinant() < 0.0) {
      throw BlockError("parameter 'matrix' must be a rotation (orthonormal, determinant +1)",
                       "matrix");
    }
    // Re-orthonormalize what passed the check so that round-off does not accumulate.
    R = Eigen::Quaterniond(R).normalized().toRotationMatrix();
  }
  X_BF.rotation = R;
  if (!X_BF.translation.allFinite() || !R.allFinite()) {
    throw BlockError("the transform is not finite");
  }
}

SolidElement::SolidElement(const Params& p) {
  FramePort("R");
  const std::string& s = p.Word("shape");
  const double density = p.Scalar("density");
  const bool mass_given = p.has("mass") && p.Get("mass").is_set();
  MassProperties props{};
  auto need = [&p, &s](const char* name, const char* what) {
    if (!p.has(name) || !p.Get(name).is_set()) {
      throw BlockError("shape '" + s + "' needs parameter '" + name + "' (" + what + ")", name);
    }
  };
  if (s == "sphere" || s == "cylinder" || s == "capsule") need("radius", "m");
  if (s == "cylinder" || s == "capsule") need("length", "m");
  if (s == "box") need("size", "[x, y, z] in m");
  try {
    if (s == "sphere") {
      shape = ShapeKind::kSphere;
      radius = p.Scalar("radius");
      props = SphereProperties(radius, density);
    } else if (s == "box") {
      shape = ShapeKind::kBox;
      size = Vector3(p, "size");
      props = BoxProperties(size, density);
    } else if (s == "cylinder") {
      shape = ShapeKind::kCylinder;
      radius = p.Scalar("radius");
      length = p.Scalar("length");
      props = CylinderProperties(radius, length, density);
    } else if (s == "capsule") {
      shape = ShapeKind::kCapsule;
      radius = p.Scalar("radius");
      length = p.Scalar("length");
      props = CapsuleProperties(radius, length, density);
    } else if (s == "mesh") {
      shape = ShapeKind::kMesh;
      if (!p.has("file") || p.String("file").empty()) {
        throw BlockError("shape 'mesh' needs parameter 'file' (an STL or OBJ file)", "file");
      }
      std::filesystem::path f(p.String("file"));
      if (f.is_relative()) f = std::filesystem::path(p.base_dir()) / f;
      file = f.lexically_normal().string();
      props = MeshProperties(LoadMesh(file), density);
    } else if (s == "plane") {
      shape = ShapeKind::kPlane;
    } else {
      shape = ShapeKind::kNone;
    }
  } catch (const std::invalid_argument& e) {
    throw BlockError(e.what());
  } catch (const MeshError& e) {
    throw BlockError(e.what(), "file");
  }
  if (!(density > 0.0) && !mass_given && shape != ShapeKind::kNone && shape != ShapeKind::kPlane) {
    throw BlockError("parameter 'density' must be positive, got " + std::to_string(density),
                     "density");
  }
  if (shape == ShapeKind::kNone || shape == ShapeKind::kPlane) {
    if (!mass_given && shape == ShapeKind::kNone) {
      throw BlockError("shape 'none' needs parameter 'mass' (kg)", "mass");
    }
    props = MassProperties{0.0, 0.0, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Zero()};
  }
  if (mass_given) {
    const double m = p.Scalar("mass");
    if (!(m >= 0.0) || !std::isfinite(m)) {
      throw BlockError("parameter 'mass' must be zero or positive, got " + std::to_string(m),
                       "mass");
    }
    if (props.mass > 0.0) {
      props = ScaledToMass(props, m);
    } else {
      props.mass = m;
    }
  }
  if (p.has("com") && p.Get("com").is_set()) props.com = Vector3(p, "com");
  if (p.has("inertia") && p.Get("inertia").is_set()) {
    const Eigen::MatrixXd I = p.Matrix("inertia");
    if (I.rows() != 3 || I.cols() != 3) {
      throw BlockError("parameter 'inertia' must be a 3x3 matrix about the centre of mass, got " +
                           std::to_string(I.rows()) + "x" + std::to_string(I.cols()),
                       "inertia");
    }
    props.inertia_com = I;
  }
  CheckInertia(props.inertia_com);
  if (props.mass == 0.0 && props.inertia_com.cwiseAbs().maxCoeff() > 0.0) {
    throw BlockError("zero mass with non-zero inertia: a massless body has no rotational inertia "
                     "either (give a mass, or leave the inertia out)",
                     "mass");
  }
  inertia = SpatialInertia(props.mass, props.com, props.inertia_com);
  if (p.has("color") && p.Get("color").is_set()) color = Vector3(p, "color");
}

JointElement::JointElement(JointKind k, const Params& p) : kind(k) {
  FramePort("B");
  FramePort("F");
  if (kind == JointKind::kWeld) return;
  auto exists = [&p](const char* name) { return p.has(name) && p.Get(name).is_set(); };
  if (kind == JointKind::kRevolute || kind == JointKind::kPrismatic) {
    axis = UnitAxis(p, "axis");
    q0 = VectorOfSize(p, "q0", 1);
    qd0 = VectorOfSize(p, "qd0", 1);
    priority_high = p.Word("priority") == "high";
    stiffness = VectorOfSize(p, "stiffness", 1);
    damping = VectorOfSize(p, "damping", 1);
    q_eq = VectorOfSize(p, "q_eq", 1);
    lower = OptionalScalar(p, "lower", lower);
    upper = OptionalScalar(p, "upper", upper);
    if (!(lower < upper)) {
      throw BlockError("limits need lower < upper, got lower " + std::to_string(lower) +
                           " and upper " + std::to_string(upper),
                       "lower");
    }
    limit_stiffness = p.Scalar("limit_stiffness");
    limit_damping = p.Scalar("limit_damping");
    limit_transition = p.Scalar("limit_transition");
    if (!(limit_transition > 0.0)) {
      throw BlockError("parameter 'limit_transition' must be positive", "limit_transition");
    }
    actuation = ParseActuation(p.Word("actuation"));
    filter_tc = p.Scalar("filter_tc");
    cut = p.Bool("cut");
    const bool revolute = kind == JointKind::kRevolute;
    if (actuation == Actuation::kPort) {
      throw BlockError("actuation 'port' (a rotational shaft) is not available yet: the "
                       "drivetrain domain comes with the drivetrain blocks; use torque or motion",
                       "actuation");
    }
    if (actuation == Actuation::kTorque) {
      in_actuation = DeclareInput(revolute ? "tau" : "f", 1, blocks::FeedthroughToStage(1));
    }
    if (actuation == Actuation::kMotion) {
      if (!(filter_tc > 0.0)) {
        throw BlockError("parameter 'filter_tc' must be positive (s)", "filter_tc");
      }
      in_actuation = DeclareInput("motion", blocks::kDynamicWidth,
                                  blocks::kFeedthrough | blocks::FeedthroughToStage(1));
    }
    out_q = DeclareOutput("q", 1, 0);
    out_qd = DeclareOutput("qd", 1, 0);
    out_qdd = DeclareOutput("qdd", 1, 1);
    out_torque = DeclareOutput(revolute ? "torque" : "force", 1, 1);
    out_wrench = DeclareOutput("wrench", 6, 1);
    return;
  }
  if (kind == JointKind::kSpherical) {
    q0 = UnitQuaternion(p.Vector("q0"), "q0").coeffs();  // (x, y, z, w): reordered below
    q0 = Eigen::Vector4d(q0[3], q0[0], q0[1], q0[2]);
    qd0 = VectorOfSize(p, "w0", 3);
    damping = VectorOfSize(p, "damping", 3);
    stiffness = Eigen::VectorXd::Zero(3);
    out_quaternion = DeclareOutput("quaternion", 4, 0);
    out_w = DeclareOutput("w", 3, 0);
    out_wrench = DeclareOutput("wrench", 6, 1);
    return;
  }
  if (kind == JointKind::kFree) {
    const Eigen::Vector3d p0 = Vector3(p, "position0");
    const Eigen::Quaterniond r0 = UnitQuaternion(p.Vector("quaternion0"), "quaternion0");
    q0.resize(7);
    q0 << p0, r0.w(), r0.x(), r0.y(), r0.z();
    qd0.resize(6);
    qd0 << Vector3(p, "v0"), Vector3(p, "w0");
    out_position = DeclareOutput("position", 3, 0);
    out_quaternion = DeclareOutput("quaternion", 4, 0);
    out_v = DeclareOutput("v", 3, 0);
    out_w = DeclareOutput("w", 3, 0);
    out_wrench = DeclareOutput("wrench", 6, 1);
    return;
  }
  // Bushing: translations x, y, z then rotations about x, y, z.
  q0 = VectorOfSize(p, "q0", 6);
  qd0 = VectorOfSize(p, "qd0", 6);
  stiffness = VectorOfSize(p, "stiffness", 6);
  damping = VectorOfSize(p, "damping", 6);
  q_eq = exists("q_eq") ? VectorOfSize(p, "q_eq", 6) : Eigen::VectorXd::Zero(6);
  out_q = DeclareOutput("q", 6, 0);
  out_qd = DeclareOutput("qd", 6, 0);
  out_wrench = DeclareOutput("wrench", 6, 1);
}

TransformSensorElement::TransformSensorElement(const Params&) {
  FramePort("B");
  FramePort("F");
  out_position = DeclareOutput("position", 3, 0);
  out_rotation = DeclareOutput("rotation", 9, 0);
  out_v = DeclareOutput("v", 3, 0);
  out_w = DeclareOutput("w", 3, 0);
  out_euler = DeclareOutput("euler_zyx", 3, 0);
}

ExternalForceTorqueElement::ExternalForceTorqueElement(const Params& p) {
  FramePort("F");
  world_frame = p.Word("frame") == "world";
  in_force = DeclareInput("force", 3, blocks::FeedthroughToStage(1));
  in_torque = DeclareInput("torque", 3, blocks::FeedthroughToStage(1));
}

InternalForceElement::InternalForceElement(const Params& p) {
  FramePort("B");
  FramePort("F");
  spring_damper = p.Word("mode") == "spring_damper";
  k = p.Scalar("k");
  c = p.Scalar("c");
  length0 = p.Scalar("length0");
  if (!spring_damper) in_f = DeclareInput("f", 1, blocks::FeedthroughToStage(1));
  out_distance = DeclareOutput("distance", 1, 0);
  out_speed = DeclareOutput("speed", 1, 0);
}

}  // namespace twinblocks::multibody
