// jacobian_method on the G2 power grasp (a mechanism whose contacts give their stiff
// Jacobian): `blocks` hands that Jacobian to CVODE, which otherwise differences all 37 states,
// and `perturbation` hands differences to ode23s, which otherwise takes the blocks'. Over the
// grasp's first 0.32 s (the fingers' first contacts, the palm, and fingers 1 and 3 closing the
// grasp), each pair of runs
// gives the same grasp: every contact signal first sets within 0.5 ms of the other run's and
// the sphere ends within 0.1 mm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/acceptance_helpers.h"

namespace twinblocks::testing {
namespace {

using JacobianMethod = graph::SimulationSettingsValues::JacobianMethod;

struct Grasp {
  std::vector<double> first_set;  // s per contact signal, -1: not by the end
  double x = 0.0, z = 0.0;        // m, the sphere at the end
  graph::SimulationStats stats;
};

Grasp RunG2(const std::string& solver, JacobianMethod method) {
  const RunOutput out =
      RunModelFile("models/gripper4/g2_power.xml", [&](graph::SimulationSettingsValues* s) {
        s->solver = solver;
        s->rtol = 1e-3;
        s->atol = solver == "ode23s" ? 1e-5 : 1e-6;
        s->jacobian_method = method;
        s->t_end = 0.32;
      });
  EXPECT_TRUE(out.outcome.ok) << out.outcome.error;
  Grasp g;
  g.first_set = FirstSetTimes(out.recording);
  g.x = Column(out.recording, "object_position[0]").back();
  g.z = Column(out.recording, "object_position[2]").back();
  g.stats = out.stats;
  return g;
}

void ExpectSameGrasp(const Grasp& a, const Grasp& b) {
  int contacts = 0;
  for (size_t i = 0; i < a.first_set.size(); ++i) {
    SCOPED_TRACE(kGraspContacts[i]);
    EXPECT_EQ(a.first_set[i] < 0.0, b.first_set[i] < 0.0);
    if (a.first_set[i] >= 0.0) {
      EXPECT_NEAR(a.first_set[i], b.first_set[i], 5e-4);
    }
    contacts += a.first_set[i] >= 0.0 ? 1 : 0;
  }
  EXPECT_GE(contacts, 6);  // F2P1, F4P1, F2P2, F4P2, the palm and more: the grasp is closed
  EXPECT_NEAR(a.x, b.x, 1e-4);
  EXPECT_NEAR(a.z, b.z, 1e-4);
}

TEST(JacobianMethodGrasp, CvodeWithTheBlocksJacobianGivesTheSameGraspForAFifthOfTheEvaluations) {
  const Grasp differences = RunG2("cvode-bdf", JacobianMethod::kAuto);
  const Grasp blocks = RunG2("cvode-bdf", JacobianMethod::kBlocks);
  ExpectSameGrasp(differences, blocks);
  EXPECT_LT(blocks.stats.solver.rhs_evals, 0.35 * differences.stats.solver.rhs_evals)
      << blocks.stats.solver.rhs_evals << " vs " << differences.stats.solver.rhs_evals;
  EXPECT_LT(blocks.stats.solver.steps, 1.2 * differences.stats.solver.steps);
}

TEST(JacobianMethodGrasp, Ode23sWithDifferencesGivesTheSameGrasp) {
  const Grasp own = RunG2("ode23s", JacobianMethod::kAuto);
  const Grasp differences = RunG2("ode23s", JacobianMethod::kPerturbation);
  ExpectSameGrasp(own, differences);
  // Differences cost an evaluation per state (37) with each Jacobian.
  EXPECT_GT(differences.stats.solver.rhs_evals,
            own.stats.solver.rhs_evals + 30 * differences.stats.solver.jacobian_evals);
}

TEST(JacobianMethodGrasp, BlocksIsRefusedForADiagramWhoseBlocksGiveNone) {
  try {
    RunModelFile("examples/van_der_pol.xml", [](graph::SimulationSettingsValues* s) {
      s->solver = "cvode-bdf";
      s->jacobian_method = JacobianMethod::kBlocks;
    });
    ADD_FAILURE() << "jacobian_method = blocks ran without a block that gives a Jacobian";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "jacobian_method = blocks: no block of this model gives a Jacobian of its own"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace twinblocks::testing
