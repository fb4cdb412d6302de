// The pregrasp of the Barrett hand for the three test objects of Zaidi et al. 2020, "Grasp
// Planning Pipeline for Robust Manipulation of 3D Deformable Objects with Industrial Robotic
// Hand + Arm Systems": each object's surface is sampled (the stand-in for its mesh's surface
// nodes), Algorithm 1 chooses the grasp triangle and Algorithm 2 places the hand
// (physics/grasp/barrett_pregrasp.h, docs/grasp-analysis.md). Prints, per object, the triangle,
// Q1, Q2, the palm distance L, the wrist pose, the spread and, per finger, the exact planar IK
// (Theta2, Theta3), its coupling error |Theta3 - Theta2 / 3| and out-of-plane distance, and the
// coupled closing angle Theta2c the encoder counts set, with its tip's distance from the target;
// when no palm distance meets the 2 deg, the nearest miss.
//
// Usage: build/bin/barrett_pregrasp [SPACING_M]   (default 0.012)
// Exit status: 0 when every object has a hand pose (a pregrasp, or the nearest miss of the
// 2-degree test), 1 otherwise, 2 on bad input.

#include "physics/grasp/barrett_pregrasp.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numbers>

#include "physics/grasp/object_surface.h"

namespace {

using twinblocks::grasp::BarrettPregrasp;
using twinblocks::grasp::ReferenceObject;

constexpr double kToDeg = 180.0 / std::numbers::pi;

void Print(ReferenceObject object, int num_points, const BarrettPregrasp& plan) {
  std::printf("%s: %d candidate points\n", twinblocks::grasp::ReferenceObjectName(object),
              num_points);
  if (!plan.found) {
    std::printf("  no pregrasp: %s\n", plan.message.c_str());
    if (!plan.has_hand) {
      return;
    }
    std::printf("  the nearest miss:\n");
  }
  std::printf("  triangle (%d, %d, %d), F1/F2/F3 at %d/%d/%d, Q1 %.4f, Q2 %.5f m\n",
              plan.triangle[0], plan.triangle[1], plan.triangle[2], plan.finger_vertex[0],
              plan.finger_vertex[1], plan.finger_vertex[2], plan.q1, plan.q2);
  std::printf("  C_T (%.5f, %.5f, %.5f) m, n (%.4f, %.4f, %.4f)\n", plan.p_OT.x(), plan.p_OT.y(),
              plan.p_OT.z(), plan.n_O.x(), plan.n_O.y(), plan.n_O.z());
  std::printf("  L %.3f m (%d steps), palm clearance %.4f m, plane residual %.3g m^2\n",
              plan.palm_distance, plan.num_l_steps, plan.palm_clearance, plan.plane_residual);
  const auto& p = plan.X_OW.translation;
  const auto& R = plan.X_OW.rotation;
  std::printf(
      "  W at (%.5f, %.5f, %.5f) m, x_W (%.4f, %.4f, %.4f), y_W (%.4f, %.4f, %.4f),"
      " z_W (%.4f, %.4f, %.4f)\n",
      p.x(), p.y(), p.z(), R(0, 0), R(1, 0), R(2, 0), R(0, 1), R(1, 1), R(2, 1), R(0, 2), R(1, 2),
      R(2, 2));
  std::printf("  spread %.3f deg, q_M (%.1f, %.1f, %.1f, %.1f) (of Theta2c)\n",
              plan.spread * kToDeg, plan.q_M[0], plan.q_M[1], plan.q_M[2], plan.q_M[3]);
  for (int f = 0; f < 3; ++f) {
    std::printf(
        "  F%d: exact Theta2 %.3f deg, Theta3 %.3f deg, coupling error %.3f deg, %.2g m off its "
        "plane; coupled Theta2c %.3f deg, tip %.2f mm off\n",
        f + 1, plan.theta2[f] * kToDeg, plan.theta3[f] * kToDeg, plan.coupling_error_deg[f],
        plan.plane_distance[f], plan.coupled_theta2[f] * kToDeg,
        plan.coupled_tip_distance[f] * 1e3);
  }
}

}  // namespace

int main(int argc, char** argv) {
  double spacing = twinblocks::grasp::kReferenceSpacing;
  if (argc > 2 || (argc == 2 && (spacing = std::atof(argv[1])) <= 0.0)) {
    std::fprintf(stderr, "usage: barrett_pregrasp [SPACING_M > 0]\n");
    return 2;
  }
  int missing = 0;
  try {
    for (const ReferenceObject object :
         {ReferenceObject::kSphere, ReferenceObject::kCube, ReferenceObject::kCylinder}) {
      const auto samples = twinblocks::grasp::SampleReferenceObject(object, spacing);
      const BarrettPregrasp plan = twinblocks::grasp::PlanBarrettPregrasp(
          samples.p_W, samples.n_W, twinblocks::grasp::ReferenceObjectCentre(object));
      Print(object, static_cast<int>(samples.p_W.cols()), plan);
      missing += plan.has_hand ? 0 : 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "barrett_pregrasp: %s\n", e.what());
    return 2;
  }
  return missing == 0 ? 0 : 1;
}
