#pragma once

#include <Eigen/Core>

namespace twinblocks::solvers {

/// What an integrator sees of a simulated system: continuous states x (nx x 1), their
/// derivatives x' = f(t, x), and zero-crossing functions g(t, x) (ng x 1) whose sign changes
/// mark discontinuities. Nothing here knows about blocks: the compiled diagram implements
/// this interface, and so does any hand-written test system.
///
/// Evaluation is not const: an implementation may use scratch memory of its own (the signal
/// buffer of a diagram). One problem object is used by one integrator at a time.
class OdeProblem {
 public:
  virtual ~OdeProblem() = default;

  /// Number of continuous states nx.
  virtual int num_states() const = 0;

  /// Writes f(t, x) to `xdot` (nx x 1). Returns 0 on success, a positive value for a
  /// recoverable failure (the integrator retries with a smaller step), a negative value for
  /// a fatal one. Must not throw.
  virtual int CalcDerivatives(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                              Eigen::Ref<Eigen::VectorXd> xdot) = 0;

  /// Number of zero-crossing functions ng.
  virtual int num_zero_crossings() const { return 0; }

  /// Writes g(t, x) to `g` (ng x 1). Same return convention as CalcDerivatives.
  virtual int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                                Eigen::Ref<Eigen::VectorXd> g) {
    return 0;
  }

  /// The message of the last failed evaluation, for error reports ("" when none).
  virtual const char* last_error() const { return ""; }
};

/// A system in residual form F(t, y, y') = 0 (n equations in n unknowns), for IDA.
/// Entries of y whose derivative does not appear in F are algebraic variables.
class DaeProblem {
 public:
  virtual ~DaeProblem() = default;

  /// Number of unknowns n.
  virtual int num_states() const = 0;

  /// Writes F(t, y, yp) to `residual` (n x 1). Return convention as OdeProblem.
  virtual int CalcResidual(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                           const Eigen::Ref<const Eigen::VectorXd>& yp,
                           Eigen::Ref<Eigen::VectorXd> residual) = 0;

  /// Marks differential (true) and algebraic (false) variables, size n.
  virtual void GetDifferentialMask(Eigen::Ref<Eigen::VectorXd> is_differential) const = 0;

  virtual int num_zero_crossings() const { return 0; }
  virtual int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                const Eigen::Ref<const Eigen::VectorXd>& yp,
                                Eigen::Ref<Eigen::VectorXd> g) {
    return 0;
  }
  virtual const char* last_error() const { return ""; }
};

}  // namespace twinblocks::solvers
