// A Mechanism's drivetrains: the shafts' motion from the joints', the torques of the gears,
// friction, springs and motors on them, and the motors' electrical states.
#include "blocks/multibody/detail/mechanism_workspace.h"
#include "blocks/multibody/mechanism.h"

namespace twinblocks::multibody {

using blocks::Context;

void Mechanism::NodeMotion(const Workspace& ws, const drivetrain::NodeCoordinate& R,
                           const drivetrain::NodeCoordinate& C, double* phi, double* w) const {
  auto angle = [&ws](const drivetrain::NodeCoordinate& n) {
    return n.cluster < 0 ? 0.0 : n.k * ws.cluster_angle[n.cluster];
  };
  auto speed = [&ws](const drivetrain::NodeCoordinate& n) {
    return n.cluster < 0 ? 0.0 : n.k * ws.cluster_speed[n.cluster];
  };
  *phi = angle(R) - angle(C);
  *w = speed(R) - speed(C);
}

void Mechanism::DrivetrainForces(const Context& c, Workspace& ws) const {
  ws.cluster_force.setZero();
  for (size_t i = 0; i < m_.drivetrain.forces.size(); ++i) {
    const drivetrain::RotationalForce& f = m_.drivetrain.forces[i];
    double phi, w;
    NodeMotion(ws, f.R, f.C, &phi, &w);
    const double input = m_.force_input[i] >= 0 ? in(c, m_.force_input[i])[0] : 0.0;
    const double T = drivetrain::RotationalForceTorque(f, phi, w, input);
    // Virtual work: T on R, -T on C, each turning at k times its cluster's coordinate.
    if (f.R.cluster >= 0) ws.cluster_force[f.R.cluster] += f.R.k * T;
    if (f.C.cluster >= 0) ws.cluster_force[f.C.cluster] -= f.C.k * T;
  }
  // A motor's case is fixed: its torque acts on the rotor's cluster alone.
  for (size_t k = 0; k < m_.drivetrain.motors.size(); ++k) {
    const drivetrain::NodeCoordinate& R = m_.drivetrain.motors[k].R;
    if (R.cluster >= 0) ws.cluster_force[R.cluster] += R.k * MotorTorque(c, static_cast<int>(k));
  }
}

double Mechanism::MotorTorque(const Context& c, int k) const {
  const drivetrain::RotationalMotor& motor = m_.drivetrain.motors[k];
  const double* s = x(c) + motor_x_[k];
  if (motor.kind == drivetrain::MotorKind::kDC) return drivetrain::Torque(motor.dc, s[0]);
  return drivetrain::Torque(motor.pmsm, Eigen::Vector2d(s[0], s[1]));
}

Mechanism::MotorDrive Mechanism::PmsmDrive(const Context& c, const Workspace& ws, int k) const {
  const drivetrain::RotationalMotor& motor = m_.drivetrain.motors[k];
  const double* s = x(c) + motor_x_[k];
  const double* command = in(c, m_.motor_ports[k].command);
  MotorDrive drive;
  double phi;
  NodeMotion(ws, motor.R, motor.C, &phi, &drive.w);
  if (motor.kind == drivetrain::MotorKind::kPmsmFoc) {
    const drivetrain::FocOutput foc = drivetrain::Foc(
        motor.pmsm, command[0], Eigen::Vector2d(s[0], s[1]), drive.w, Eigen::Vector2d(s[2], s[3]));
    drive.vdq = foc.vdq;
    drive.integrator_rates = foc.integrator_rates;
  } else {
    // The averaged inverter cannot apply more than Vdc / sqrt(3): longer commands are scaled
    // down along their own direction, as in foc mode.
    drive.vdq = {command[0], command[1]};
    const double v_max = drivetrain::MaxVoltage(motor.pmsm);
    if (drive.vdq.norm() > v_max) drive.vdq *= v_max / drive.vdq.norm();
  }
  return drive;
}

void Mechanism::MotorDerivatives(Context& c, const Workspace& ws, int k) const {
  const drivetrain::RotationalMotor& motor = m_.drivetrain.motors[k];
  const double* s = x(c) + motor_x_[k];
  double* ds = xdot(c) + motor_x_[k];
  if (motor.kind == drivetrain::MotorKind::kDC) {
    double phi, w;
    NodeMotion(ws, motor.R, motor.C, &phi, &w);
    ds[0] = drivetrain::CurrentRate(motor.dc, s[0], in(c, m_.motor_ports[k].command)[0], w);
    return;
  }
  const MotorDrive& drive = ws.motor_drive[k];
  const Eigen::Vector2d rates =
      drivetrain::CurrentRates(motor.pmsm, Eigen::Vector2d(s[0], s[1]), drive.vdq, drive.w);
  ds[0] = rates[0];
  ds[1] = rates[1];
  if (motor.kind == drivetrain::MotorKind::kPmsmFoc) {
    ds[2] = drive.integrator_rates[0];
    ds[3] = drive.integrator_rates[1];
  }
}

}  // namespace twinblocks::multibody
