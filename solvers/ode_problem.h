#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

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

  /// True when CalcJacobian gives the problem's own Jacobian (or its stiff part); otherwise
  /// the linearly implicit solvers (ode1be, ros2) form it by finite differences.
  virtual bool has_jacobian() const { return false; }

  /// Writes an approximation of the Jacobian df/dx at (t, x) to `J` (nx x nx). It may leave
  /// out every term that does not make the problem stiff (MuJoCo's "implicitfast" keeps only
  /// the velocity derivatives of the forces): the Rosenbrock-W methods keep their order with
  /// any matrix, and need its stiff part only for their stability. Called right after
  /// CalcDerivatives(t, x) with the same arguments, so that it may reuse what that evaluation
  /// found. Same return convention as CalcDerivatives; must not throw. A problem that
  /// declares its structure (JacobianStructure) writes only inside it, and may take J to hold
  /// zeros outside it on entry: its callers keep J so (a solver's J holds only what
  /// CalcJacobian wrote into it).
  /// @pre has_jacobian().
  virtual int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                           Eigen::Ref<Eigen::MatrixXd> J) {
    return -1;
  }

  /// Marks every entry CalcJacobian may ever set nonzero: `structure` (nx * nx, by column)
  /// gets a 1 there, a superset fixed for the run, so that the solver orders W's blocks once
  /// instead of searching each J for new nonzeros. Returns false when the problem cannot
  /// tell (the default); the solver then learns the nonzeros from the matrices it forms.
  /// @pre has_jacobian().
  virtual bool JacobianStructure(std::vector<char>* structure) const { return false; }

  /// True when f depends on t only through x (f(t, x) = f(x) between the problem's own
  /// discontinuities): ode23s and ros2 then leave out the df/dt they otherwise form by a
  /// difference in t with each Jacobian, as MATLAB's ode23s does. Default false: the solver cannot
  /// know.
  virtual bool is_autonomous() const { return false; }

  /// True when the states must keep invariants that integration lets drift (a mechanism's
  /// closed loops), and CalcProjection moves a state back onto them.
  virtual bool has_projection() const { return false; }

  /// Writes to `correction` (nx x 1) the change that moves x onto the invariants at t
  /// (x + correction keeps them), zeros where x keeps them already. CVODE's BDF calls it on
  /// each step's solution and keeps its history consistent with the change (Shampine's
  /// projection), so that a projection is no restart. Same return convention as
  /// CalcDerivatives. @pre has_projection().
  virtual int CalcProjection(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                             Eigen::Ref<Eigen::VectorXd> correction) {
    return -1;
  }

  /// Number of zero-crossing functions ng.
  virtual int num_zero_crossings() const { return 0; }

  /// Writes g(t, x) to `g` (ng x 1). Same return convention as CalcDerivatives.
  virtual int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& x,
                                Eigen::Ref<Eigen::VectorXd> g) {
    return 0;
  }

  /// The message of the last failed evaluation, for error reports ("" when none).
  virtual const char* last_error() const { return ""; }
  /// State i as the user knows it, for messages ("state 3" unless the problem names it).
  virtual std::string DescribeState(int i) const { return "state " + std::to_string(i); }
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

  /// The differentiation index of the system: 1, or 2 when some equations hold no algebraic
  /// variable (a mechanism's position and velocity constraints in stabilized form). An
  /// index-2 system needs its own consistent start (has_consistent_start), and IDA leaves its
  /// algebraic variables out of the Newton convergence test as well as out of the error
  /// test: their Newton corrections carry the round-off of the constraints amplified by 1/h
  /// (1/h^2 for positions), which moves the differential variables only at round-off level
  /// but would fail any test on the algebraic variables themselves when steps are short.
  virtual int index() const { return 1; }

  /// True when the problem computes its own consistent starts (CalcConsistentStart); IDA then
  /// uses them as they are. Otherwise IDA solves for them with IDACalcIC, which handles
  /// index-1 systems only.
  virtual bool has_consistent_start() const { return false; }

  /// Given the differential part of y at t, writes the algebraic part of y and all of y' so
  /// that F(t, y, y') = 0, at every (re)start of the solver. Return convention as
  /// CalcResidual. Called only when has_consistent_start().
  virtual int CalcConsistentStart(double t, Eigen::Ref<Eigen::VectorXd> y,
                                  Eigen::Ref<Eigen::VectorXd> yp) {
    return -1;
  }

  /// True when CalcJacobian gives the residual's own iteration matrix; otherwise IDA forms
  /// it by differences.
  virtual bool has_jacobian() const { return false; }

  /// Unknown i as the user knows it, for messages ("state 3" unless the problem names it).
  virtual std::string DescribeState(int i) const { return "state " + std::to_string(i); }

  /// Writes dF/dy + cj dF/dy' at (t, y, yp) to `J` (n x n), the matrix of IDA's Newton
  /// iteration (cj = alpha / h of its BDF formula). Unlike OdeProblem::CalcJacobian it may be
  /// called at any point: it evaluates there what it needs. An approximation serves (IDA's
  /// Newton iteration then converges more slowly), as long as it keeps the stiff terms.
  /// Return convention as CalcResidual. @pre has_jacobian().
  virtual int CalcJacobian(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                           const Eigen::Ref<const Eigen::VectorXd>& yp, double cj,
                           Eigen::Ref<Eigen::MatrixXd> J) {
    return -1;
  }

  virtual int num_zero_crossings() const { return 0; }
  virtual int CalcZeroCrossings(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                const Eigen::Ref<const Eigen::VectorXd>& yp,
                                Eigen::Ref<Eigen::VectorXd> g) {
    return 0;
  }
  virtual const char* last_error() const { return ""; }
};

}  // namespace twinblocks::solvers
