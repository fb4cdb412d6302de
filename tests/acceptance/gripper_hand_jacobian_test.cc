// H3 of the grasp analysis on the four-fingered gripper of Pozzi et al. 2022 (G1's model): the
// hand Jacobian at contact points on each finger's phalanges, from the compiled mechanism's
// tree, matches central differences of the points' positions over the joint angles to 1e-7.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "blocks/multibody/mechanism.h"
#include "compiler/compile.h"
#include "physics/grasp/grasp_matrix.h"
#include "physics/grasp/hand_jacobian.h"
#include "tests/physics/grasp/grasp_test_helpers.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace twinblocks::testing {
namespace {

// At a closing pose (every joint between 0.1 and 0.4 rad, as the fingers are when they touch),
// one contact per phalanx, 0.008 m (the phalanx radius) off its body's origin: hard fingers,
// the frame's normal pointing inwards, towards the palm's centre line. h = 1e-6: truncation
// h^2 |p'''| ~ 1e-13, rounding eps |p| / h ~ 1e-11, well inside 1e-7.
TEST(GripperHandJacobian, MatchesFiniteDifferencesAtEveryPhalanx) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("models/gripper4/g1_precision.xml")));
  const int index = system.FindBlock("world:mechanism");
  ASSERT_GE(index, 0);
  const auto& mechanism = dynamic_cast<const multibody::Mechanism&>(system.block(index));
  const multibody::MechanismModel& m = mechanism.model();
  const multibody::KinematicTree& tree = *m.tree;

  std::mt19937 rng(5);
  std::uniform_real_distribution<double> angle(0.1, 0.4);
  Eigen::VectorXd q = m.q0;
  for (const multibody::MechanismJoint& j : m.joints) {
    if (j.nq == 1) q[j.q_index] = angle(rng);
  }
  std::vector<grasp::HandContact> contacts;
  std::vector<std::pair<int, Eigen::Vector3d>> points;  // body, point in the body
  for (const multibody::MechanismJoint& j : m.joints) {
    if (j.name.find("/phalanx") == std::string::npos || j.nq != 1) continue;
    const Eigen::Vector3d p_B(0.01, 0.008, 0.0);
    const multibody::Pose X_WB = grasp::testing::BodyPoseAt(tree, q, j.body);
    grasp::HandContact c;
    c.body = j.body;
    c.p_W = X_WB.TransformPoint(p_B);
    Eigen::Vector3d inward(-c.p_W.x(), 0.0, 0.0);
    if (inward.norm() < 1e-9) inward = Eigen::Vector3d::UnitX();
    c.R_WC = grasp::CalcContactFrame(inward.normalized());
    contacts.push_back(c);
    points.emplace_back(j.body, p_B);
  }
  ASSERT_EQ(contacts.size(), 12u);  // four fingers of three phalanges

  Eigen::MatrixXd J;
  grasp::CalcHandJacobian(tree, q, contacts, grasp::ContactModel::kHardFinger, &J);
  ASSERT_EQ(J.rows(), 36);
  ASSERT_EQ(J.cols(), tree.nv());
  const double h = 1e-6;
  double worst = 0.0;
  for (int k = 0; k < tree.nv(); ++k) {
    for (size_t i = 0; i < contacts.size(); ++i) {
      const auto& [body, p_B] = points[i];
      const Eigen::Vector3d v =
          grasp::testing::PointVelocityByDifferences(tree, q, k, body, p_B, h);
      const Eigen::Vector3d expected = contacts[i].R_WC.transpose() * v;
      const double error = (J.block<3, 1>(3 * i, k) - expected).cwiseAbs().maxCoeff();
      EXPECT_LT(error, 1e-7) << "contact " << i << ", coordinate " << k;
      worst = std::max(worst, error);
    }
  }
  std::printf("gripper hand Jacobian (36 x %d) vs central differences: worst %.3g m/s per rad/s\n",
              tree.nv(), worst);
  RecordProperty("worst_error", Figure(worst));
}

}  // namespace
}  // namespace twinblocks::testing
