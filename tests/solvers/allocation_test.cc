// The simulation loop must not touch the heap: Step and Reset after the first Reset.
//
// malloc, calloc, realloc and free are replaced for the whole test program (glibc lets an
// executable interpose them; the real ones are __libc_*). That sees Eigen, SUNDIALS and
// operator new alike. Counting is always on and costs one relaxed atomic increment.

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

#include "solvers/integrator.h"
#include "tests/solvers/solver_test_util.h"
#include "tests/solvers/test_problems.h"

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* ptr, size_t size);
void __libc_free(void* ptr);
}

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

extern "C" {
void* malloc(size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* ptr, size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(ptr, size);
}
void free(void* ptr) { __libc_free(ptr); }
}

namespace twinblocks::solvers {
namespace {

long Allocations() { return g_allocations.load(std::memory_order_relaxed); }

class AllocationTest : public ::testing::TestWithParam<std::string> {};

// 200 stops (as sample hits would set them) with a Reset at every tenth, after one warm-up
// Reset: no allocation at all.
TEST_P(AllocationTest, StepAndResetDoNotAllocate) {
  testing::HarmonicOscillator problem;
  IntegratorOptions options;
  options.fixed_step = 1e-3;
  options.rtol = 1e-6;
  options.atol = 1e-8;
  auto integrator = MakeIntegrator(GetParam(), &problem, options);
  const Eigen::VectorXd x0 = Eigen::Vector2d(1.0, 0.0);
  integrator->Reset(0.0, x0);

  const long before = Allocations();
  long steps = 0;
  for (int k = 1; k <= 200; ++k) {
    const double t_stop = 0.01 * k;
    while (integrator->time() < t_stop) {
      integrator->Step(t_stop);
      ++steps;
    }
    if (k % 10 == 0) integrator->Reset(integrator->time(), integrator->state());
  }
  const long allocations = Allocations() - before;
  std::printf("[ measure  ] %-11s %ld allocations in %ld steps and 20 resets\n", GetParam().c_str(),
              allocations, steps);
  EXPECT_EQ(allocations, 0) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Solvers, AllocationTest, ::testing::ValuesIn(IntegratorNames()),
                         [](const auto& info) { return testing::SafeName(info.param); });

class CrossingAllocationTest : public ::testing::TestWithParam<std::string> {};

// A bouncing ball: the only allocation is StepResult::crossed at a located crossing (one
// small vector per crossing, by the contract's by-value return).
TEST_P(CrossingAllocationTest, OnlyTheCrossedListAllocates) {
  testing::FallingBall problem;
  IntegratorOptions options;
  options.rtol = 1e-8;
  options.atol = 1e-10;
  auto integrator = MakeIntegrator(GetParam(), &problem, options);
  integrator->Reset(0.0, Eigen::Vector2d(10.0, 0.0));
  const long before = Allocations();
  long crossings = 0;
  while (integrator->time() < 10.0 && crossings < 5) {
    const StepResult r = integrator->Step(10.0);
    if (r.zero_crossing) {
      ++crossings;
      const double v = integrator->state()[1];
      integrator->Reset(r.t, Eigen::Vector2d(0.0, -0.8 * v));
    }
  }
  const long allocations = Allocations() - before;
  std::printf("[ measure  ] %-11s %ld allocations over %ld bounces\n", GetParam().c_str(),
              allocations, crossings);
  EXPECT_EQ(crossings, 5);
  EXPECT_LE(allocations, crossings) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Solvers, CrossingAllocationTest,
                         ::testing::ValuesIn(testing::VariableStepNames()),
                         [](const auto& info) { return testing::SafeName(info.param); });

// IDA on a true DAE: Steps do not allocate. A Reset does, inside IDACalcIC (SUNDIALS 6.4
// clones its work vectors on every call: 8 allocations per Reset on this problem); the test
// states that bound so that a change shows.
TEST(AllocationTest, DaeStepsDoNotAllocateResetsOnlyInsideCalcIC) {
  testing::CartesianPendulum problem(9.81);
  IntegratorOptions options;
  options.rtol = 1e-6;
  options.atol = 1e-8;
  options.locate_zero_crossings = false;
  auto integrator = MakeDaeIntegrator(&problem, options);
  Eigen::VectorXd y0(5);
  y0 << std::sin(0.5), -std::cos(0.5), 0.0, 0.0, 0.0;
  integrator->Reset(0.0, y0);
  long in_steps = 0;
  long in_resets = 0;
  for (int k = 1; k <= 100; ++k) {
    const double t_stop = 0.02 * k;
    const long before_steps = Allocations();
    while (integrator->time() < t_stop) integrator->Step(t_stop);
    in_steps += Allocations() - before_steps;
    if (k % 10 == 0) {
      const long before_reset = Allocations();
      integrator->Reset(integrator->time(), integrator->state());
      in_resets += Allocations() - before_reset;
    }
  }
  std::printf("[ measure  ] ida (DAE)   %ld allocations in steps, %ld in 10 resets\n", in_steps,
              in_resets);
  EXPECT_EQ(in_steps, 0);
  EXPECT_LE(in_resets, 10 * 8);
}

}  // namespace
}  // namespace twinblocks::solvers
