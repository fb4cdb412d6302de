#pragma once

// Candidate contact points, with outward normals, on the surfaces of simple objects resting on
// a table (top at z = 0): the set Omega of step 1 of the grasp procedure of Zaidi et al. 2020
// ("Grasp Planning Pipeline for Robust Manipulation of 3D Deformable Objects with Industrial
// Robotic Hand + Arm Systems"), and their three test objects. The paper takes the surface nodes
// of each object's tetrahedral mesh; these deterministic samplings stand in for them until the
// objects are meshed. Points at or below z_min (on or just above the table) are dropped: a
// finger cannot reach them.

#include <Eigen/Core>
#include <string>

namespace twinblocks::grasp {

/// Points with z at or below this (m) are left out: the table top is z = 0.
inline constexpr double kTableClearance = 0.005;

/// Surface points and their outward unit normals, column by column (3 x n each, m).
struct SurfaceSamples {
  Eigen::Matrix3Xd p_W;
  Eigen::Matrix3Xd n_W;
};

/// A sphere sampled on rings of latitude: m = max(2, round(pi R / spacing)) polar steps from
/// pole to pole (the poles one point each), ring k with max(1, round(2 pi R sin(theta_k) /
/// spacing)) points evenly in longitude from longitude 0.
/// @throws std::invalid_argument if radius or spacing is not positive and finite, a value is
///         not finite, or more than kMaxTrianglePoints points remain.
SurfaceSamples SampleSphereSurface(const Eigen::Vector3d& p_WC, double radius, double spacing,
                                   double z_min = kTableClearance);

/// A box with faces parallel to the axes: each face divided into a grid of cells of about
/// `spacing` (max(1, round(side / spacing)) per side), one point at each cell's centre, so no
/// point lies on an edge, where the normal is not defined.
/// @param half_extents  half the box's sides along x, y, z (m).
/// @throws std::invalid_argument as SampleSphereSurface, for a half extent.
SurfaceSamples SampleBoxSurface(const Eigen::Vector3d& p_WC, const Eigen::Vector3d& half_extents,
                                double spacing, double z_min = kTableClearance);

/// An upright cylinder (axis along z): on the side, max(1, round(height / spacing)) rings at
/// the centres of equal height bands, max(3, round(2 pi R / spacing)) points each; on each
/// flat end, the centre and rings spaced R / (m + 1/2) apart (m = round(R / spacing - 1/2)),
/// so the outermost is half a step inside the rim, each with max(3, round(2 pi r / spacing))
/// points.
/// @throws std::invalid_argument as SampleSphereSurface.
SurfaceSamples SampleCylinderSurface(const Eigen::Vector3d& p_WC, double radius, double height,
                                     double spacing, double z_min = kTableClearance);

/// The three objects of Zaidi et al. 2020, Table 1 (sizes; centres fixed by the project).
enum class ReferenceObject { kSphere, kCube, kCylinder };

/// Reference sizes (m): sphere diameter 0.080, cube edge 0.080, cylinder radius 0.035 and
/// height 0.140, all standing on the table at x = 0.60, y = 0.
inline constexpr double kReferenceSphereRadius = 0.040;
inline constexpr double kReferenceCubeEdge = 0.080;
inline constexpr double kReferenceCylinderRadius = 0.035;
inline constexpr double kReferenceCylinderHeight = 0.140;
inline constexpr double kReferenceObjectX = 0.60;
/// A spacing (m) that keeps every reference object within kMaxTrianglePoints: 126 points on
/// the sphere, 245 on the cube, 239 on the cylinder.
inline constexpr double kReferenceSpacing = 0.012;

/// The centre (mass centre, m) of a reference object: (0.60, 0, 0.040) for the sphere and the
/// cube, (0.60, 0, 0.070) for the cylinder.
Eigen::Vector3d ReferenceObjectCentre(ReferenceObject object);

/// A reference object's surface sampled at `spacing` by the functions above, z > 0.005.
/// @throws std::invalid_argument as those functions.
SurfaceSamples SampleReferenceObject(ReferenceObject object, double spacing = kReferenceSpacing);

/// "sphere", "cube" or "cylinder".
const char* ReferenceObjectName(ReferenceObject object);

/// The candidates of a reference object at least `margin` (m) from the nearest edge of their
/// face (cube) or rim (cylinder); every point of the sphere. A fingertip lands a few
/// millimetres from its target, and on a rigid object an edge turns the contact normal.
/// @throws std::invalid_argument if margin is negative or not finite.
SurfaceSamples KeepAwayFromEdges(ReferenceObject object, const SurfaceSamples& samples,
                                 double margin);

/// The reference object named "sphere", "cube" or "cylinder".
/// @throws std::invalid_argument naming the unknown name and the known ones.
ReferenceObject ParseReferenceObject(const std::string& name);

/// Checks that candidate points lie on a reference object's surface within tolerance (m), by
/// CheckContactsOnSphere, CheckContactsOnBox or CheckContactsOnCylinder (grasp_input.h).
/// @throws std::invalid_argument with one line naming the first point off the object.
void CheckOnReferenceObject(ReferenceObject object, const Eigen::Matrix3Xd& p_W,
                            double tolerance = 1e-9);

}  // namespace twinblocks::grasp
