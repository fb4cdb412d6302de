#pragma once

// The reference 6-DOF arm of Boschetti & Sinico 2024 (Table 1) as a MuJoCo model (MJCF built in
// memory from the same modified DH table, hard-coded so that no program reads a file), our
// tree of it, and experiment E1's torque as a MuJoCo control callback: what the benchmarks
// that compare with MuJoCo share.

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "physics/multibody/dh.h"

namespace twinblocks::bench {

namespace mb = twinblocks::multibody;

// The reference arm (Boschetti & Sinico 2024; models/robot6dof/arm.xml): modified (Craig) DH rows
// and link inertias (SI units).
struct ArmRow {
  double alpha_deg, a, d, mass, com_x, com_y, com_z, inertia;
};
constexpr ArmRow kArm[6] = {
    {0, 0.000, 0.500, 20, 0.075, 0, 0, 0.20},    {-90, 0.150, 0.000, 15, 0.200, 0, 0, 0.15},
    {0, 0.400, 0.000, 10, 0.050, 0.27, 0, 0.10}, {-90, 0.100, 0.540, 5, 0, 0, 0, 0.05},
    {90, 0.000, 0.000, 3, 0, 0.05, 0, 0.03},     {-90, 0.000, 0.100, 1, 0, 0, 0.05, 0.01},
};
constexpr double kGravity = 9.81;

inline mb::KinematicTree OurArm() {
  std::vector<mb::DhLink> links;
  for (const ArmRow& r : kArm) {
    mb::DhLink l;
    l.alpha = r.alpha_deg * M_PI / 180.0;
    l.a = r.a;
    l.d = r.d;
    l.mass = r.mass;
    l.com = Eigen::Vector3d(r.com_x, r.com_y, r.com_z);
    l.inertia_com = r.inertia * Eigen::Matrix3d::Identity();
    links.push_back(l);
  }
  return mb::BuildModifiedDhTree(links, Eigen::Vector3d(0, 0, -kGravity));
}

// The MJCF arm: body i is DH frame i, placed in its parent by Rx(alpha) Dx(a) Dz(d) (the
// joint's Rz(q) follows), with a hinge about its own z at its origin and one motor (gear 1)
// per joint. No damping, armature, friction, limits or geoms (so no contacts).
inline std::string ArmMjcf() {
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model=\"robot6dof\">\n"
       "  <compiler angle=\"radian\"/>\n"
       "  <option timestep=\"1e-4\" integrator=\"RK4\" gravity=\"0 0 "
    << -kGravity << "\"/>\n  <worldbody>\n";
  std::string indent = "    ";
  for (int i = 0; i < 6; ++i) {
    const ArmRow& r = kArm[i];
    const double alpha = r.alpha_deg * M_PI / 180.0;
    // Translation of Rx(alpha) Dx(a) Dz(d): (a, -sin(alpha) d, cos(alpha) d).
    x << indent << "<body name=\"link" << i + 1 << "\" pos=\"" << r.a << ' '
      << -std::sin(alpha) * r.d << ' ' << std::cos(alpha) * r.d << "\" quat=\""
      << std::cos(alpha / 2) << ' ' << std::sin(alpha / 2) << " 0 0\">\n";
    x << indent << "  <joint name=\"j" << i + 1 << "\" type=\"hinge\" axis=\"0 0 1\"/>\n";
    x << indent << "  <inertial pos=\"" << r.com_x << ' ' << r.com_y << ' ' << r.com_z
      << "\" mass=\"" << r.mass << "\" diaginertia=\"" << r.inertia << ' ' << r.inertia << ' '
      << r.inertia << "\"/>\n";
    indent += "  ";
  }
  for (int i = 5; i >= 0; --i) {
    indent.resize(indent.size() - 2);
    x << indent << "</body>\n";
  }
  x << "  </worldbody>\n  <actuator>\n";
  for (int i = 0; i < 6; ++i) {
    x << "    <motor joint=\"j" << i + 1 << "\" gear=\"1\" ctrllimited=\"false\"/>\n";
  }
  x << "  </actuator>\n</mujoco>\n";
  return x.str();
}

[[noreturn]] inline void Die(const std::string& message) {
  std::fprintf(stderr, "mujoco arm: %s\n", message.c_str());
  std::abort();
}

// Loads the MJCF from memory through MuJoCo's virtual file system.
inline mjModel* LoadArm() {
  const std::string xml = ArmMjcf();
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  if (mj_makeEmptyFileVFS(&vfs, "arm.xml", static_cast<int>(xml.size())) != 0) {
    Die("mj_makeEmptyFileVFS failed");
  }
  std::memcpy(vfs.filedata[vfs.nfile - 1], xml.data(), xml.size());
  char error[1000] = "";
  mjModel* m = mj_loadXML("arm.xml", &vfs, error, sizeof(error));
  mj_deleteVFS(&vfs);
  if (m == nullptr) Die(std::string("mj_loadXML: ") + error + "\n" + xml);
  return m;
}

// E1's torque, 5 sin(2 pi t / 2) N m on every joint, set as the motors' controls from d->time.
// As mjcb_control it runs at every stage of MuJoCo's RK4 (mj_forwardSkip calls it, and
// mj_RungeKutta sets d->time to each stage's time), so the torque is the continuous function
// of time, not held over the step.
inline void E1Control(const mjModel* m, mjData* d) {
  const double tau = 5.0 * std::sin(M_PI * d->time);
  for (int k = 0; k < m->nu; ++k) d->ctrl[k] = tau;
}

// MuJoCo's E1 reference at t = 1 s (tests/data/arm_e1_mujoco.csv, made the same way).
constexpr double kE1ReferenceAt1s[6] = {1.055869782951,  1.705582124814, 0.623574127311,
                                        -2.489946324008, 0.117983168086, 162.740179544740};

}  // namespace twinblocks::bench
