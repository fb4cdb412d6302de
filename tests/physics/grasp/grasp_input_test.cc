#include "physics/grasp/grasp_input.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numbers>

#include "physics/grasp/detail/text.h"
#include "physics/grasp/grasp_matrix.h"
#include "tests/physics/grasp/grasp_test_helpers.h"

namespace twinblocks::grasp {
namespace {

using ::testing::HasSubstr;

// The message of the std::invalid_argument `call` throws ("" if none).
template <typename Call>
std::string GraspInputError(Call call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(GraspInputTest, BadContactsNameTheContact) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, testing::kSphereRadius, &p, &n);
  const Eigen::Vector3d c = Eigen::Vector3d::Zero();
  EXPECT_NO_THROW(CheckContacts(p, n, c));
  EXPECT_THAT(GraspInputError([&] { CheckContacts(p.leftCols(1), n.leftCols(1), c); }),
              HasSubstr("expected at least 2"));
  Eigen::Matrix3Xd bad = n;
  bad.col(2) *= 1.1;
  EXPECT_THAT(GraspInputError([&] { CheckContacts(p, bad, c); }), HasSubstr("contact 2: normal"));
  EXPECT_THAT(GraspInputError([&] { CheckContacts(p, bad, c); }), HasSubstr("unit vector"));
  bad = p;
  bad(1, 1) = std::nan("");
  EXPECT_THAT(GraspInputError([&] { CheckContacts(bad, n, c); }), HasSubstr("contact 1: point"));
  EXPECT_THAT(GraspInputError([&] { CheckContacts(p, n.leftCols(2), c); }),
              HasSubstr("one normal per contact"));
  EXPECT_THAT(GraspInputError([&] {
                CheckContacts(p, n, Eigen::Vector3d(0, std::numeric_limits<double>::infinity(), 0));
              }),
              HasSubstr("reference point"));
  Eigen::Matrix3Xd many_p(3, kMaxContacts + 1), many_n(3, kMaxContacts + 1);
  many_p.setZero();
  many_n.colwise() = Eigen::Vector3d::UnitZ();
  EXPECT_THAT(GraspInputError([&] { CheckContacts(many_p, many_n, c); }), HasSubstr("at most"));
  // The analyses check their contacts.
  EXPECT_THROW(CalcGraspMatrix(p, bad, c, ContactModel::kHardFinger), std::invalid_argument);
}

TEST(GraspInputTest, BadFrictionIsRefused) {
  EXPECT_NO_THROW(CheckFrictionCone({0.0, 0.0, 3}));
  EXPECT_THAT(GraspInputError([] { CheckFrictionCone({-0.1, 0.0, 8}); }), HasSubstr("mu >= 0"));
  EXPECT_THAT(GraspInputError([] { CheckFrictionCone({std::nan(""), 0.0, 8}); }), HasSubstr("mu"));
  EXPECT_THAT(GraspInputError([] { CheckFrictionCone({0.5, -1.0, 8}); }), HasSubstr("torsional"));
  EXPECT_THAT(GraspInputError([] {
                CheckFrictionCone({0.5, 0.0, kMaxConeEdges + 1});
              }),
              HasSubstr("cone edges"));
}

TEST(GraspInputTest, ContactsOffTheObjectAreFound) {
  Eigen::Matrix3Xd p, n;
  testing::EquatorGrasp(3, testing::kSphereRadius, &p, &n);
  EXPECT_NO_THROW(CheckContactsOnSphere(p, Eigen::Vector3d::Zero(), testing::kSphereRadius, 1e-9));
  p.col(1) *= 1.01;
  EXPECT_THAT(GraspInputError([&] {
                CheckContactsOnSphere(p, Eigen::Vector3d::Zero(), testing::kSphereRadius, 1e-4);
              }),
              HasSubstr("contact 1"));
  Eigen::Matrix3Xd box(3, 3);
  box << 0.1, 0.0, 0.05, 0.0, -0.2, 0.0, 0.0, 0.0, 0.3;
  const multibody::Pose X_WB(multibody::Rz(0.0), Eigen::Vector3d::Zero());
  EXPECT_NO_THROW(CheckContactsOnBox(box, X_WB, Eigen::Vector3d(0.1, 0.2, 0.3), 1e-12));
  box(2, 0) = 0.01;  // still on the face x = 0.1
  EXPECT_NO_THROW(CheckContactsOnBox(box, X_WB, Eigen::Vector3d(0.1, 0.2, 0.3), 1e-12));
  box(0, 0) = 0.09;  // 1 cm inside
  EXPECT_THAT(
      GraspInputError([&] { CheckContactsOnBox(box, X_WB, Eigen::Vector3d(0.1, 0.2, 0.3), 1e-3); }),
      HasSubstr("contact 0"));
}

// A cylinder of radius 0.1 and height 0.4 with its axis along x_W: points on the side, on an
// end and on the rim pass; a point 1 cm inside the side and one beyond an end are named with
// their distance.
TEST(GraspInputTest, ContactsOffTheCylinderAreFound) {
  const multibody::Pose X_WC(multibody::Ry(std::numbers::pi / 2.0), Eigen::Vector3d(1.0, 2.0, 3.0));
  Eigen::Matrix3Xd p(3, 3);
  p.col(0) = X_WC.TransformPoint({0.1, 0.0, 0.05});    // side
  p.col(1) = X_WC.TransformPoint({0.03, -0.04, 0.2});  // end
  p.col(2) = X_WC.TransformPoint({0.0, -0.1, -0.2});   // rim
  EXPECT_NO_THROW(CheckContactsOnCylinder(p, X_WC, 0.1, 0.4, 1e-12));
  p.col(0) = X_WC.TransformPoint({0.09, 0.0, 0.05});
  EXPECT_EQ(GraspInputError([&] { CheckContactsOnCylinder(p, X_WC, 0.1, 0.4, 1e-3); }),
            "grasp: contact 0 at " + detail::VectorText(p.col(0)) +
                " is 0.01 m from the cylinder's surface; expected at most 0.001 m");
  p.col(0) = X_WC.TransformPoint({0.1, 0.0, 0.05});
  p.col(2) = X_WC.TransformPoint({0.0, 0.0, -0.23});
  EXPECT_THAT(GraspInputError([&] { CheckContactsOnCylinder(p, X_WC, 0.1, 0.4, 1e-3); }),
              HasSubstr("contact 2 at"));
  EXPECT_THAT(GraspInputError([&] { CheckContactsOnCylinder(p, X_WC, -0.1, 0.4, 1e-3); }),
              HasSubstr("expected finite values, r > 0, h > 0, tolerance >= 0"));
}

}  // namespace
}  // namespace twinblocks::grasp
