#include "blocks/multibody/solid.h"

#include <Eigen/Eigenvalues>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "blocks/multibody/detail/frame_params.h"
#include "blocks/multibody/mechanism_builder.h"
#include "common/format_value.h"
#include "physics/multibody/mesh.h"

namespace twinblocks::multibody {

using blocks::BlockError;
using blocks::BlockType;
using blocks::FormatValue;
using blocks::ParamKind;
using blocks::Params;
using namespace internal;

namespace {

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
    throw BlockError("parameter 'inertia' violates the triangle inequality of principal moments (" +
                         std::to_string(m[0]) + " + " + std::to_string(m[1]) + " < " +
                         std::to_string(m[2]) + "): no rigid body has it",
                     "inertia");
  }
}

}  // namespace

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
      TriangleMesh loaded = LoadMesh(file);
      if (p.has("scale") && p.Get("scale").is_set()) {
        // Files in other units (mm is common in CAD exports and URDFs) or mirrored parts.
        const Eigen::Vector3d k = Vector3(p, "scale");
        if (!k.allFinite() || (k.array() == 0.0).any()) {
          throw BlockError("parameter 'scale' must be three finite, non-zero factors", "scale");
        }
        for (Eigen::Vector3d& v : loaded.vertices) v = v.cwiseProduct(k);
      }
      mesh = std::make_shared<const TriangleMesh>(std::move(loaded));
      // With mass, centre of mass and inertia all given (an imported robot's link), the mesh
      // only shows the body, and visual meshes are often open surfaces; only computing the
      // enclosed solid's properties needs a closed one.
      const auto is_set = [&p](const char* name) { return p.has(name) && p.Get(name).is_set(); };
      if (!(mass_given && is_set("com") && is_set("inertia"))) {
        props = MeshProperties(*mesh, density);
      }
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
    throw BlockError("parameter 'density' must be positive, got " + FormatValue(density),
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
      throw BlockError("parameter 'mass' must be zero or positive, got " + FormatValue(m), "mass");
    }
    if (props.mass > 0.0 && m > 0.0) {
      props = ScaledToMass(props, m);
    } else {
      // A massless solid (a contact geometry, a frame marker): no inertia either.
      props.mass = m;
      if (m == 0.0) props.inertia_com.setZero();
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
    throw BlockError(
        "zero mass with non-zero inertia: a massless body has no rotational inertia "
        "either (give a mass, or leave the inertia out)",
        "mass");
  }
  inertia = SpatialInertia(props.mass, props.com, props.inertia_com);
  if (p.has("color") && p.Get("color").is_set()) color = Vector3(p, "color");
}

BlockType SolidType() {
  BlockType t =
      internal::MultibodyType("Solid", "A rigid body: shape, mass and inertia at frame R.");
  t.doc =
      "Mass properties come from the shape and `density`, or from `mass` (the shape's inertia "
      "scaled to it); `com` and `inertia` (3x3 about the centre of mass, axes of R) override "
      "them. Shapes: sphere (radius), box (size [x, y, z]), cylinder and capsule (radius, "
      "length of the cylindrical part; along z of R, centred on R; a capsule adds hemispherical "
      "caps), plane (the half-space z <= 0 of R, for fixed bodies; no mass), mesh (an STL, OBJ "
      "or other assimp-readable `file`, relative to the model file; volume, centre of mass and "
      "inertia by the divergence theorem, which needs a closed surface, unless `mass`, `com` and "
      "`inertia` are all given; contact needs a closed mesh too), none (`mass` required; a point "
      "mass unless `inertia` is given). "
      "Solids joined by rigid connections add into one body: I = sum of each X^T I_i X.";
  t.reference = "Simscape Multibody Solid (File Solid for meshes)";
  t.params = {{"shape",
               ParamKind::kWord,
               "sphere",
               "geometry",
               {"sphere", "box", "cylinder", "capsule", "plane", "mesh", "none"}},
              {"radius", ParamKind::kScalar, "", "m (sphere, cylinder, capsule)"},
              {"size", ParamKind::kVector, "", "box edge lengths [x, y, z], m"},
              {"length", ParamKind::kScalar, "", "m (cylinder, capsule: the cylindrical part)"},
              {"file", ParamKind::kString, "", "STL or OBJ file (mesh), in m"},
              {"scale", ParamKind::kVector, "",
               "mesh: factors [sx, sy, sz] on the file's coordinates (0.001 for a file in mm)"},
              {"mass", ParamKind::kScalar, "", "kg; instead of density"},
              {"density", ParamKind::kScalar, "1000", "kg/m^3"},
              {"com", ParamKind::kVector, "", "centre of mass in R, m (default: the shape's)"},
              {"inertia", ParamKind::kMatrix, "", "3x3 about com, axes of R, kg m^2"},
              {"color", ParamKind::kVector, "", "[r, g, b] in 0..1, for viewers"}};
  t.physical_ports = {{"R", "frame: the solid's reference frame"}};
  t.create = [](const Params& p) { return std::make_unique<SolidElement>(p); };
  return t;
}

void SolidElement::Contribute(MechanismBuilder& builder) const { builder.AddSolid(*this); }

}  // namespace twinblocks::multibody
