#include "physics/grasp/hand_jacobian.h"

#include <Eigen/SVD>
#include <limits>
#include <stdexcept>
#include <string>

#include "physics/grasp/detail/text.h"
#include "physics/multibody/algorithms.h"
#include "physics/multibody/jacobian.h"

namespace twinblocks::grasp {

void CalcHandJacobian(const multibody::KinematicTree& tree, const Eigen::VectorXd& q,
                      const std::vector<HandContact>& contacts, ContactModel model,
                      Eigen::MatrixXd* J_h) {
  if (q.size() != tree.nq() || !q.allFinite()) {
    throw std::invalid_argument("grasp: hand configuration q has " + std::to_string(q.size()) +
                                " entries" + (q.allFinite() ? "" : ", not all finite") +
                                "; expected " + std::to_string(tree.nq()) + " finite values");
  }
  if (contacts.empty() || static_cast<int>(contacts.size()) > kMaxContacts) {
    throw std::invalid_argument("grasp: " + std::to_string(contacts.size()) +
                                " hand contacts; expected 1 to " + std::to_string(kMaxContacts));
  }
  for (size_t i = 0; i < contacts.size(); ++i) {
    const HandContact& contact = contacts[i];
    const std::string name = "grasp: hand contact " + std::to_string(i);
    if (contact.body < -1 || contact.body >= tree.num_bodies()) {
      throw std::invalid_argument(name + ": body " + std::to_string(contact.body) +
                                  "; expected -1 to " + std::to_string(tree.num_bodies() - 1));
    }
    if (!contact.p_W.allFinite()) {
      throw std::invalid_argument(name + ": point " + detail::VectorText(contact.p_W) +
                                  " is not finite");
    }
    if (!contact.R_WC.allFinite() || !(contact.R_WC.transpose() * contact.R_WC).isIdentity(1e-6)) {
      throw std::invalid_argument(name + ": the contact frame R_WC is not orthonormal");
    }
  }
  const int c = NumContactComponents(model);
  multibody::KinematicTreeData data(tree);
  multibody::ForwardKinematics(tree, &data, q);
  J_h->setZero(static_cast<Eigen::Index>(contacts.size()) * c, tree.nv());
  Eigen::MatrixXd J(6, tree.nv());
  for (size_t i = 0; i < contacts.size(); ++i) {
    const HandContact& contact = contacts[i];
    const multibody::Pose X_WB =
        contact.body < 0 ? multibody::Pose::Identity() : data.X_WB[contact.body];
    // The hand's point at p_W, fixed in the body: its origin is the contact point.
    const multibody::Pose X_BF =
        multibody::Pose::Translation(X_WB.Inverse().TransformPoint(contact.p_W));
    multibody::FrameJacobian(tree, data, contact.body, X_BF, J);
    const Eigen::Index row = static_cast<Eigen::Index>(i) * c;
    const int directions = c == 1 ? 1 : 3;
    J_h->middleRows(row, directions).noalias() =
        contact.R_WC.leftCols(directions).transpose() * J.bottomRows<3>();
    if (model == ContactModel::kSoftFinger) {
      J_h->row(row + 3).noalias() = contact.R_WC.col(0).transpose() * J.topRows<3>();
    }
  }
}

Manipulability CalcManipulability(const Eigen::MatrixXd& J) {
  if (J.size() == 0 || !J.allFinite()) {
    throw std::invalid_argument("grasp: manipulability of an empty or non-finite Jacobian (" +
                                std::to_string(J.rows()) + " x " + std::to_string(J.cols()) + ")");
  }
  Manipulability out;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(J);
  out.singular_values = svd.singularValues();
  const double tolerance = static_cast<double>(std::max(J.rows(), J.cols())) *
                           std::numeric_limits<double>::epsilon() * out.singular_values[0];
  out.value = 1.0;
  for (Eigen::Index i = 0; i < out.singular_values.size(); ++i) {
    if (out.singular_values[i] > tolerance) {
      out.value *= out.singular_values[i];
      ++out.rank;
    }
  }
  if (out.rank == 0) {
    out.value = 0.0;
  }
  out.full_row_rank = out.rank == J.rows();
  return out;
}

}  // namespace twinblocks::grasp
