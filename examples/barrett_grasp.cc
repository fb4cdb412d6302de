// Grasp synthesis for the BarrettHand on the reference arm, end to end (Zaidi et al. 2020,
// "Grasp Planning Pipeline for Robust Manipulation of 3D Deformable Objects with Industrial
// Robotic Hand + Arm Systems", Algorithms 1 and 2), for the sphere, the cube and the cylinder
// (rigid here): sample the object's surface, choose the triangle and the pregrasp
// (physics/grasp/barrett_pregrasp.h), write the model of the hand (models/lib/barrett.xml) on
// the 6-DOF arm placed by its closed-form inverse kinematics, close until each fingertip's
// normal force reaches 2 N, and report the grasp reached: Q1 and Q2 of the three contacts,
// G's singular values, force closure and epsilon.
//
// Usage: barrett_grasp [--out DIR] [--object sphere|cube|cylinder]
//   Writes DIR/barrett_OBJECT.xml (default DIR: models/barrett of the source tree, where the
//   committed models are exactly this program's output) and simulates it. Exit status 0 when
//   every object's closing reached the target forces (within 0.05 N) with force closure.
#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "physics/grasp/barrett_pregrasp.h"
#include "physics/grasp/grasp_matrix.h"
#include "physics/grasp/grasp_quality.h"
#include "physics/grasp/object_surface.h"
#include "physics/grasp/triangle_measures.h"
#include "runtime/simulator.h"
#include "xml/model_reader.h"

namespace fs = std::filesystem;
using namespace twinblocks;

namespace {

const fs::path kRepo = TWINBLOCKS_SOURCE_DIR;
constexpr double kTargetForce = 2.0;    // N per finger (the reference procedure's f*)
constexpr double kWristOffset = 0.020;  // W is the arm's frame 6 moved 0.020 along z6

std::string Num(double v) {
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}

std::string Vec(const Eigen::Vector3d& v) {
  return "[" + Num(v.x()) + ", " + Num(v.y()) + ", " + Num(v.z()) + "]";
}

std::string Rows(const Eigen::Matrix3d& R) {
  std::string s = "[";
  for (int r = 0; r < 3; ++r) {
    s += (r ? ", [" : "[") + Num(R(r, 0)) + ", " + Num(R(r, 1)) + ", " + Num(R(r, 2)) + "]";
  }
  return s + "]";
}

// The object's blocks: a body welded to the table (rigid in this issue) and its Solid.
std::string ObjectBlocks(grasp::ReferenceObject object) {
  const Eigen::Vector3d c = grasp::ReferenceObjectCentre(object);
  std::string solid;
  switch (object) {
    case grasp::ReferenceObject::kSphere:
      solid = R"(shape="sphere" radius=")" + Num(grasp::kReferenceSphereRadius) + "\"";
      break;
    case grasp::ReferenceObject::kCube: {
      const double e = grasp::kReferenceCubeEdge;
      solid = R"(shape="box" size=")" + Vec({e, e, e}) + "\"";
      break;
    }
    case grasp::ReferenceObject::kCylinder:
      solid = R"(shape="cylinder" radius=")" + Num(grasp::kReferenceCylinderRadius) +
              R"(" length=")" + Num(grasp::kReferenceCylinderHeight) + "\"";
      break;
  }
  return R"(  <block type="WeldedObject" name="object" position=")" + Vec(c) + R"("/>
  <block type="Solid" name="object_solid" )" +
         solid + R"( density="100"/>
)";
}

std::string ModelText(grasp::ReferenceObject object, const grasp::BarrettPregrasp& plan,
                      const std::string& lib) {
  const std::string name = grasp::ReferenceObjectName(object);
  const Eigen::Matrix3d R = plan.X_OW.rotation;
  // The arm's frame 6 is W moved back along z_W: its position is what the IK is given.
  const Eigen::Vector3d p6 = plan.X_OW.translation - kWristOffset * R.col(2);
  std::ostringstream s;
  s << R"(<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by examples/barrett_grasp.cc (do not edit: run it again). The BarrettHand on the
     reference 6-DOF arm closes on the )"
    << name << R"( of Zaidi et al. 2020 (rigid, welded to the table), at the pregrasp of their
     Algorithm 2 (physics/grasp/barrett_pregrasp.h): triangle of candidate points )"
    << plan.triangle[0] << ", " << plan.triangle[1] << ", " << plan.triangle[2] << R"(,
     Q1 )"
    << Num(plan.q1) << ", Q2 " << Num(plan.q2) << R"( m, palm distance L )"
    << Num(plan.palm_distance) << R"( m, spread counts q_M4 )" << Num(plan.q_M[3]) << R"(.
     The arm holds W (its frame 6 moved 0.020 m along z6) at that pose through its closed-form
     inverse kinematics; each finger closes at 0.2 rad/s to first contact, then its normal force
     is driven to 2 N. GraspAnalysis reports the grasp of the three fingertips. -->
<model name="barrett_)"
    << name << R"(" format="1">
  <include file=")"
    << lib << R"(/barrett.xml"/>
  <include file=")"
    << lib << R"(/grasp.xml"/>
  <include file=")"
    << lib << R"(/../robot6dof/arm.xml"/>
  <simulation solver="ode45" t_end="10" rtol="1e-6" atol="1e-8" output_interval="0.01"/>
  <var name="dh" value="[[0, 0, 0.5, 0], [-pi/2, 0.15, 0, 0], [0, 0.4, 0, 0],
                         [-pi/2, 0.1, 0.54, 0], [pi/2, 0, 0, 0], [-pi/2, 0, 0.1, 0]]"/>
  <block type="World" name="world" gravity="[0, 0, -9.81]"/>
  <block type="Robot6DofMotion" name="arm"/>
  <block type="InverseKinematics" name="ik" dh="dh" derivatives="on"/>
  <block type="Constant" name="frame6_position" value=")"
    << Vec(p6) << R"("/>
  <block type="Constant" name="frame6_rotation" value=")"
    << "[" << Num(R(0, 0)) << ", " << Num(R(0, 1)) << ", " << Num(R(0, 2)) << ", " << Num(R(1, 0))
    << ", " << Num(R(1, 1)) << ", " << Num(R(1, 2)) << ", " << Num(R(2, 0)) << ", " << Num(R(2, 1))
    << ", " << Num(R(2, 2)) << "]"
    << R"("/>
  <block type="Constant" name="at_rest" value="[0, 0, 0, 0, 0, 0]"/>
  <block type="RigidTransform" name="wrist" translation="[0, 0, )"
    << Num(kWristOffset) << R"(]"/>
  <block type="BarrettHand" name="hand" q_M4=")"
    << Num(plan.q_M[3]) << R"(" f_target=")" << Num(kTargetForce)
    << R"(" E_obj="4.928e6" nu_obj="0.39" mu="0.5"/>
)" << ObjectBlocks(object)
    << R"(  <block type="GraspAnalysis" name="grasp" mu="0.5" torque_length="0.04" Ts="0.01"/>
  <connect from="world.W" to="arm.base"/>
  <connect from="frame6_position.y" to="ik.position"/>
  <connect from="frame6_rotation.y" to="ik.rotation"/>
  <connect from="at_rest.y" to="ik.velocity"/>
  <connect from="at_rest.y" to="ik.acceleration"/>
  <connect from="ik.motion" to="arm.motion"/>
  <connect from="arm.tool" to="wrist.B"/>
  <connect from="wrist.F" to="hand.wrist"/>
  <connect from="world.W" to="object.world"/>
  <connect from="object.body" to="object_solid.R"/>
  <connect from="object.body" to="hand.object"/>
  <connect from="hand.touches" to="grasp.contacts"/>
  <connect from="object.position" to="grasp.center"/>
  <log signal="hand.fn"/>
  <log signal="hand.q_M"/>
  <log signal="hand.touches"/>
  <log signal="ik.reachable"/>
  <log signal="grasp.n_active"/>
  <log signal="grasp.closure"/>
  <log signal="grasp.epsilon"/>
  <log signal="grasp.sigma_min"/>
  <log signal="grasp.slip"/>
  <plot file="barrett_)"
    << name << R"(_forces.svg" title="Barrett hand on the )" << name
    << R"(: fingertip normal forces F1, F2, F3" ylabel="N" signals="hand.fn"/>
  <plot file="barrett_)"
    << name << R"(_quality.svg" title="Barrett hand on the )" << name
    << R"(: force closure (0/1) and epsilon" ylabel="1, N/N" signals="grasp.closure grasp.epsilon"/>
  <summary signal="hand.fn" op="final" label="fingertip normal forces at t_end, N: F1 F2 F3"/>
  <summary signal="grasp.closure grasp.epsilon" op="final" label="force closure, epsilon at t_end"/>
</model>
)";
  return s.str();
}

struct Args {
  fs::path out = kRepo / "models" / "barrett";
  std::vector<grasp::ReferenceObject> objects = {grasp::ReferenceObject::kSphere,
                                                 grasp::ReferenceObject::kCube,
                                                 grasp::ReferenceObject::kCylinder};
};

// Runs one object end to end; true when the closing reached the target with force closure.
bool GraspOne(grasp::ReferenceObject object, const fs::path& out) {
  const std::string name = grasp::ReferenceObjectName(object);
  const grasp::SurfaceSamples samples = grasp::SampleReferenceObject(object);
  const Eigen::Vector3d centre = grasp::ReferenceObjectCentre(object);
  const grasp::BarrettPregrasp plan = grasp::PlanBarrettPregrasp(samples.p_W, samples.n_W, centre);
  if (!plan.found) {
    std::printf("%s: no pregrasp: %s\n", name.c_str(), plan.message.c_str());
    return false;
  }
  fs::create_directories(out);
  const fs::path lib = fs::relative(kRepo / "models" / "lib", out);
  const fs::path file = out / ("barrett_" + name + ".xml");
  std::ofstream(file) << ModelText(object, plan, lib.generic_string());

  const graph::System system = graph::Compile(xml::ReadModelFile(file.string()));
  graph::Simulator sim(system, system.settings());
  const graph::SimulationOutcome outcome = sim.Run();
  std::printf(
      "%s: %zu candidate points; triangle (%d, %d, %d), Q1 %.4f, Q2 %.5f m; W at %s, "
      "L %.3f m, spread %.2f deg\n  run: %s\n",
      name.c_str(), static_cast<size_t>(samples.p_W.cols()), plan.triangle[0], plan.triangle[1],
      plan.triangle[2], plan.q1, plan.q2, Vec(plan.X_OW.translation).c_str(), plan.palm_distance,
      plan.spread * 180.0 / std::numbers::pi,
      sim.stats().Summary(outcome.t - system.settings().t_start).c_str());
  if (!outcome.ok) {
    std::printf("  failed: %s\n", outcome.error.c_str());
    return false;
  }
  const graph::Recording& rec = sim.recording();
  const int last = rec.num_rows() - 1;
  auto value = [&](const std::string& column) { return rec.value(last, rec.FindColumn(column)); };
  Eigen::Matrix3Xd p(3, 3), n(3, 3);
  bool reached = value("ik.reachable") == 1.0;
  for (int k = 0; k < 3; ++k) {
    const double fn = value("hand.fn[" + std::to_string(k) + "]");
    reached = reached && std::abs(fn - kTargetForce) <= 0.05;
    for (int r = 0; r < 3; ++r) {
      p(r, k) = value("hand.touches[" + std::to_string(9 * k + r) + "]");
      n(r, k) = value("hand.touches[" + std::to_string(9 * k + 3 + r) + "]");
    }
    std::printf("  F%d: f_n %.4f N at %s\n", k + 1, fn, Vec(p.col(k)).c_str());
  }
  // The grasp reached, at the contacts the fingers found.
  const grasp::GraspMatrix G =
      grasp::CalcGraspMatrix(p, n, centre, grasp::ContactModel::kHardFinger);
  grasp::QualityOptions options;
  options.torque_length = 0.04;
  const grasp::GraspQuality quality = grasp::CalcGraspQuality(
      p, n, centre, grasp::ContactModel::kHardFinger, grasp::FrictionCone{0.5, 0.0, 8}, options);
  const double q1 = grasp::CalcQ1(p.col(0), p.col(1), p.col(2));
  const double q2 = grasp::CalcQ2(p.col(0), p.col(1), p.col(2), centre);
  std::printf("  reached: Q1 %.4f, Q2 %.5f m; G singular values", q1, q2);
  for (int i = 0; i < 6; ++i) std::printf(" %.4g", G.singular_values[i]);
  std::printf("; force closure %s, epsilon %.4g (block: %g, %g)\n",
              quality.force_closure ? "yes" : "no", quality.epsilon, value("grasp.closure"),
              value("grasp.epsilon"));
  return reached && quality.force_closure;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      args.out = argv[++i];
    } else if (a == "--object" && i + 1 < argc) {
      const std::string o = argv[++i];
      if (o == "sphere")
        args.objects = {grasp::ReferenceObject::kSphere};
      else if (o == "cube")
        args.objects = {grasp::ReferenceObject::kCube};
      else if (o == "cylinder")
        args.objects = {grasp::ReferenceObject::kCylinder};
      else {
        std::fprintf(stderr, "barrett_grasp: unknown object '%s' (sphere, cube, cylinder)\n",
                     o.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: barrett_grasp [--out DIR] [--object sphere|cube|cylinder]\n");
      return 2;
    }
  }
  try {
    bool ok = true;
    for (grasp::ReferenceObject object : args.objects) ok = GraspOne(object, args.out) && ok;
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "barrett_grasp: %s\n", e.what());
    return 2;
  }
}
