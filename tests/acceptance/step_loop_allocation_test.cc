// No heap allocation inside the step loop. A counting allocator replaces the global
// operator new for this test program, and malloc, calloc and realloc are counted too
// (tests/physics/malloc_count.h: Eigen's temporaries come from malloc); counting is on only
// while Simulator::Run steps.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <span>
#include <string>

#include "bench/signal_chain_model.h"
#include "compiler/compile.h"
#include "runtime/simulator.h"
#include "tests/physics/malloc_count.h"
#include "tests/support/acceptance_helpers.h"
#include "xml/model_reader.h"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

// This program's operator new is malloc, so its deletes free: GCC 12 cannot see that the two
// are replaced together and warns that free() meets memory from new.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace twinblocks::testing {
namespace {

long AllocationsDuringRun(const graph::System& system, graph::SimulationSettingsValues settings) {
  graph::Simulator sim(system, settings);
  sim.Initialize();
  g_allocations = 0;
  g_counting = true;
  StartCountingAllocations();
  const graph::SimulationOutcome outcome = sim.Run();
  const long mallocs = StopCountingAllocations();
  g_counting = false;
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_GT(sim.recording().num_rows(), 2);
  return g_allocations.load() + mallocs;
}

// From an initialized simulator: saves a snapshot at t_save, goes on to t_back, restores the
// snapshot and runs to the end, counting the allocations of all of it (the snapshot's storage
// sized before).
long AllocationsAcrossARestore(graph::Simulator* sim, double t_save, double t_back) {
  graph::SimulationSnapshot snapshot;
  sim->SaveState(&snapshot);
  g_allocations = 0;
  g_counting = true;
  bool ok = sim->AdvanceTo(t_save).ok;
  sim->SaveState(&snapshot);
  ok = ok && sim->AdvanceTo(t_back).ok;
  sim->RestoreState(snapshot);
  ok = ok && sim->Run().ok;
  g_counting = false;
  EXPECT_TRUE(ok);
  EXPECT_EQ(sim->time(), sim->settings().t_end);
  return g_allocations.load();
}

class NoAllocation : public ::testing::TestWithParam<std::string> {};

TEST_P(NoAllocation, SignalChainStepLoopAllocatesNothing) {
  const graph::System system = graph::Compile(bench::MakeSignalChain(1000));
  graph::SimulationSettingsValues settings;
  settings.solver = GetParam();
  settings.step = 1e-3;
  settings.t_end = 0.2;
  settings.output_interval = 0.01;  // rows known in advance: the recording is reserved
  EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
}

TEST_P(NoAllocation, MultirateModelStepLoopAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("examples/multirate_pid.xml")));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = GetParam();
  settings.step = 1e-4;
  settings.t_end = 0.1;
  settings.output_interval = 1e-3;
  EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
}

// The discrete controllers (integrator, transfer function, filter, state space, derivative,
// PIDs with limits and anti-windup) of examples/discrete_controllers.xml.
TEST_P(NoAllocation, DiscreteControllersStepLoopAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("examples/discrete_controllers.xml")));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = GetParam();
  settings.step = 0.05;
  settings.output_interval = 0.05;
  EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
}

// Continuous PIDs with output limits and anti-windup (modes chosen at major steps, zero
// crossings located) around integrating plants.
TEST_P(NoAllocation, SaturatedContinuousPidStepLoopAllocatesNothing) {
  const graph::System system = graph::Compile(xml::ReadModelString(R"(
<model name="saturated_pids" format="1">
  <simulation solver="ode45" t_end="3"/>
  <block type="Step" name="r" time="0.1" after="1"/>
  <block type="Sum" name="e" signs="+-"/>
  <block type="PID" name="pid" Kp="2" Ki="4" Kd="0.1" upper="1" lower="-1" anti_windup="clamping"/>
  <block type="Integrator" name="plant"/>
  <block type="PID2DOF" name="pid2" Kp="2" Ki="4" b="0" upper="1" lower="-1"
         anti_windup="back-calculation" Kb="3"/>
  <block type="Integrator" name="plant2"/>
  <connect from="r.y" to="e.u1"/>
  <connect from="plant.y" to="e.u2"/>
  <connect from="e.y" to="pid.e"/>
  <connect from="pid.u" to="plant.u"/>
  <connect from="r.y" to="pid2.r"/>
  <connect from="plant2.y" to="pid2.y"/>
  <connect from="pid2.u" to="plant2.u"/>
  <log signal="plant.y"/>
  <log signal="plant2.y"/>
</model>
)"));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = GetParam();
  settings.step = 1e-3;
  settings.output_interval = 0.05;
  EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
}

// The math, matrix and bus blocks (MatrixMultiply's inverse in its work memory, Rounding's and
// MultiportSwitch's held modes and zero crossings, BusSelector's slices).
TEST_P(NoAllocation, MathAndBusesStepLoopAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("examples/math_and_buses.xml")));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = GetParam();
  settings.step = 1e-3;
  EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
}

// The arm's mechanism (hybrid ABA, sensors) and the robotics blocks that run beside it.
TEST_P(NoAllocation, RobotArmExperimentsStepLoopAllocatesNothing) {
  for (const char* file :
       {"models/robot6dof/e1_forward_dynamics.xml", "models/robot6dof/e2_inverse_dynamics.xml",
        "models/robot6dof/e3_kinematic_control.xml"}) {
    SCOPED_TRACE(file);
    const graph::System system = graph::Compile(xml::ReadModelFile(SourcePath(file)));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = GetParam();
    settings.step = 1e-3;
    settings.t_end = 0.5;
    settings.output_interval = 0.01;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
  }
}

// The source blocks (noise streams, chirp, square wave, repeating sequence, table playback) and
// the Assertion checking at every major step: examples/test_bench_sources.xml up to just
// before its StopSimulation, whose outcome names the block (strings made once, at the end).
TEST_P(NoAllocation, SourceBlocksStepLoopAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("examples/test_bench_sources.xml")));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = GetParam();
  settings.step = 1e-3;
  settings.t_end = 4.4;
  settings.output_interval = 0.01;
  EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
}

// Drivetrains in the mechanism (gears, friction, PMSMs with their current loops) and the
// computed-torque controller: the digital twin and its variants. Fixed steps below the current
// loops' stability limit (2 kHz bandwidth).
TEST_P(NoAllocation, DigitalTwinStepLoopAllocatesNothing) {
  for (const char* file : {"models/robot6dof/twin.xml", "models/robot6dof/e4_gears_pmsm.xml",
                           "models/robot6dof/e1_gears.xml", "models/robot6dof/e1_friction.xml"}) {
    SCOPED_TRACE(file);
    const graph::System system = graph::Compile(xml::ReadModelFile(SourcePath(file)));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = GetParam();
    settings.step = 5e-5;
    settings.t_end = 0.05;
    settings.output_interval = 0.005;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
  }
}

// G2 through the first contacts (fingertips at 0.067 s, sphere launched towards the palm):
// collision queries, contact forces, detectors and closure logic, all in the loop.
graph::SimulationSettingsValues G2ThroughFirstContacts(const graph::System& g2,
                                                       const std::string& solver) {
  graph::SimulationSettingsValues settings = g2.settings();
  settings.solver = solver;
  settings.step = 2e-5;
  settings.t_end = 0.08;
  settings.output_interval = 0.005;
  return settings;
}

TEST_P(NoAllocation, GraspStepLoopAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("models/gripper4/g2_power.xml")));
  EXPECT_EQ(AllocationsDuringRun(system, G2ThroughFirstContacts(system, GetParam())), 0);
}

// Scaled absolute tolerances (auto_scale_atol): their growth after each step, SUNDIALS' error
// weights from them, and a snapshot that holds them, saved and restored.
TEST_P(NoAllocation, ScaledTolerancesAllocateNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("models/gripper4/g2_power.xml")));
  graph::SimulationSettingsValues settings = G2ThroughFirstContacts(system, GetParam());
  settings.auto_scale_atol = true;
  graph::Simulator sim(system, settings);
  sim.Initialize();
  EXPECT_EQ(AllocationsAcrossARestore(&sim, 0.03, 0.05), 0);
}

// Zero crossings located inside fixed steps (the contacts' distances of G2): the check at each
// step's end, the Hermite interpolant and the search allocate nothing either.
TEST(NoAllocationFixedStepCrossings, GraspStepLoopAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("models/gripper4/g2_power.xml")));
  for (const char* solver : {"ode4", "ros2"}) {
    SCOPED_TRACE(solver);
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    settings.step = 5e-5;
    settings.t_end = 0.08;
    settings.output_interval = 0.005;
    settings.fixed_step_zero_crossings = true;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
  }
}

// The step-by-step API of co-simulation (E6): after the handles are made, a loop of
// SetInput, AdvanceTo and Read allocates nothing; nor do saving into an existing snapshot
// and restoring it (with the Runge-Kutta solvers, which restore their memory; SUNDIALS
// solvers restart).
TEST_P(NoAllocation, CoSimulationStepApiAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("models/robot6dof/cosim_plant.xml")));
  graph::SimulationSettingsValues settings = system.settings();
  settings.solver = GetParam();
  settings.t_end = 0.05;
  graph::Simulator sim(system, settings);
  sim.Initialize();
  const graph::InputHandle tau_ref = sim.FindInput("tau_ref");
  const graph::SignalHandle q = sim.FindSignal("plant.q");
  const graph::SignalHandle qd = sim.FindSignal("plant.qd");
  const graph::StatesHandle states = sim.FindContinuousStates("plant/world:mechanism");
  graph::SimulationSnapshot snapshot;
  sim.SaveState(&snapshot);  // sizes the snapshot's storage
  const bool restores_memory = GetParam().rfind("ode", 0) == 0;
  double command[6];
  g_allocations = 0;
  g_counting = true;
  for (int k = 1; k <= 20; ++k) {
    const std::span<const double> q_now = sim.Read(q);
    const std::span<const double> qd_now = sim.Read(qd);
    for (int i = 0; i < 6; ++i) command[i] = 0.01 * (0.1 - q_now[i]) - 0.001 * qd_now[i];
    sim.SetInput(tau_ref, command);
    if (!sim.AdvanceTo(k * 1e-3).ok) break;
    if (sim.ReadContinuousStates(states).empty()) break;
    if (restores_memory && k == 10) sim.SaveState(&snapshot);
  }
  if (restores_memory) {
    sim.RestoreState(snapshot);
    sim.AdvanceTo(0.02);
  }
  g_counting = false;
  EXPECT_EQ(sim.time(), 0.02);
  EXPECT_EQ(g_allocations.load(), 0);
}

TEST_P(NoAllocation, ClosedLoopStepLoopAllocatesNothing) {
  // Multipliers of the loops every evaluation, projections at major steps (docs/loops.md) or, with
  // cvode-bdf, in every step (CVODE's projection); joint couplers, a motor on a loop, the
  // Stewart platform's six loops and its StewartIK.
  for (const char* file :
       {"models/mechanisms/four_bar.xml", "models/mechanisms/four_bar_redundant.xml",
        "models/mechanisms/slider_crank_motor.xml", "models/mechanisms/stewart.xml",
        "models/mechanisms/barrett_hand.xml"}) {
    SCOPED_TRACE(file);
    const graph::System system = graph::Compile(xml::ReadModelFile(SourcePath(file)));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = GetParam();
    settings.step = 1e-3;
    settings.t_end = 0.5;
    settings.rtol = 1e-6;
    settings.output_interval = 0.01;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
  }
}

// The mechanism's Jacobian of joint springs and dampers through the coupler's constrained
// inverse (ode23s, ros2), with and without a contact.
TEST_P(NoAllocation, LightChainJacobianStepLoopAllocatesNothing) {
  for (const char* file :
       {"tests/data/xml/light_coupled_chain.xml", "tests/data/xml/light_chain_pressing_ball.xml"}) {
    SCOPED_TRACE(file);
    const graph::System system = graph::Compile(xml::ReadModelFile(SourcePath(file)));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = GetParam();
    settings.step = 1e-4;
    settings.t_end = 0.05;
    settings.rtol = 1e-3;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
  }
}

// A deformable body pressed by a fingertip (issue 45): the springs, the contact and its
// anchors, the sparse factors of the implicit solvers (KLU's refactorizations) and avf's Newton
// iterations allocate nothing once the run has started.
TEST(NoAllocationDeformable, TipPressStepLoopAllocatesNothing) {
  const graph::System system =
      graph::Compile(xml::ReadModelFile(SourcePath("tests/data/xml/deformable_tip_press.xml")));
  for (const char* solver : {"ode23s", "ros2", "avf", "ode45"}) {
    SCOPED_TRACE(solver);
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = solver;
    settings.step = 1e-3;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
  }
}

// The tendon hands: the planar finger closing on its cylinder with its predicted equilibrium
// (SynergyEquilibrium every major step), and, with the solvers made for it (the stiff ones),
// the SoftHand's first 0.4 s (14 couplers, the tendon, contacts with the sphere, the stiff
// Jacobian).
TEST_P(NoAllocation, TendonHandsStepLoopAllocatesNothing) {
  const bool stiff = GetParam() == "ros2" || GetParam() == "ode23s" || GetParam() == "cvode-bdf";
  for (const char* file :
       {"tests/data/xml/af_finger_cylinder.xml", "models/hands/rh1_grasp_lift.xml"}) {
    if (!stiff && std::string(file).find("rh1") != std::string::npos) continue;
    SCOPED_TRACE(file);
    const graph::System system = graph::Compile(xml::ReadModelFile(SourcePath(file)));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = GetParam();
    settings.step = 1e-4;
    settings.t_end = 0.4;
    settings.rtol = 1e-2;
    settings.atol = 1e-3;
    settings.output_interval = 0.01;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
  }
}

// The delays' histories (ring buffers in the work memory, read by their ENO quintic), the
// discontinuities' modes and located events (relay, quantizer, hit crossing, backlash,
// friction), and a snapshot of it all saved and restored.
TEST_P(NoAllocation, DelaysAndDiscontinuitiesStepLoopAllocatesNothing) {
  for (const char* file :
       {"examples/delays_and_relays.xml", "examples/backlash_friction_conveyor.xml"}) {
    SCOPED_TRACE(file);
    const graph::System system = graph::Compile(xml::ReadModelFile(SourcePath(file)));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = GetParam();
    settings.step = 1e-2;  // the conveyor's 1024 samples hold 10 s of them, over its 3 s
    settings.t_end = 12.0;
    settings.output_interval = 0.01;
    EXPECT_EQ(AllocationsDuringRun(system, settings), 0);
    graph::Simulator sim(system, settings);
    sim.Initialize();
    EXPECT_EQ(AllocationsAcrossARestore(&sim, 4.0, 8.0), 0);
  }
}

// ida integrates the loops as a stabilized index-2 DAE (its residual, the multipliers as
// algebraic variables); saving and restoring (a restart with a consistent start) too.
TEST(NoAllocationDae, ClosedLoopDaeStepLoopAllocatesNothing) {
  for (const char* file :
       {"models/mechanisms/four_bar.xml", "models/mechanisms/four_bar_redundant.xml"}) {
    SCOPED_TRACE(file);
    const graph::System system = graph::Compile(xml::ReadModelFile(SourcePath(file)));
    graph::SimulationSettingsValues settings = system.settings();
    settings.solver = "ida";
    settings.t_end = 0.5;
    settings.rtol = 1e-6;
    settings.output_interval = 0.01;
    graph::Simulator sim(system, settings);
    sim.Initialize();
    ASSERT_TRUE(sim.is_dae());
    EXPECT_EQ(AllocationsAcrossARestore(&sim, 0.2, 0.3), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, NoAllocation,
                         ::testing::Values("ode4", "ode45", "ode23", "cvode-bdf", "arkode-erk",
                                           "ros2", "ode23s"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) {
                             if (c == '-') c = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace twinblocks::testing
