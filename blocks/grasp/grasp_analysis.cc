#include "blocks/grasp/grasp_analysis.h"

#include <cmath>
#include <memory>
#include <string>

#include "blocks/signal/detail/block_helpers.h"
#include "common/format_value.h"

namespace twinblocks::blocks {

namespace {

constexpr int kContactsPort = 0;
constexpr int kCenterPort = 1;

enum Output { kNumActive, kClosure, kEpsilon, kSigmaMin, kInternalForce, kSlip, kNumOutputs };

class MonitorWorkspace final : public BlockWorkspace {
 public:
  MonitorWorkspace(int num_contacts, const grasp::GraspMonitorOptions& options)
      : monitor(num_contacts, options) {}
  // The monitor keeps nothing from one evaluation to the next (the outputs hold the last).
  void CopyFrom(const BlockWorkspace&) override {}
  grasp::GraspMonitor monitor;
};

double NonNegative(const Params& p, const char* name, const char* unit) {
  const double v = p.Scalar(name);
  if (!std::isfinite(v) || v < 0.0) {
    throw BlockError(
        std::string("parameter '") + name + "' must be >= 0" + unit + ", got " + FormatValue(v),
        name);
  }
  return v;
}

}  // namespace

GraspAnalysis::GraspAnalysis(const Params& params) {
  DeclareInput("contacts");
  DeclareInput("center", 3);
  for (const char* name :
       {"n_active", "closure", "epsilon", "sigma_min", "internal_force", "slip"}) {
    DeclareOutput(name, 1);
  }
  DeclareSampleTime(internal::DiscreteSampleTime(params.Scalar("Ts"), params.Scalar("offset")));

  const std::string& model = params.Word("contact_model");
  options_.model = model == "frictionless"  ? grasp::ContactModel::kPointWithoutFriction
                   : model == "soft_finger" ? grasp::ContactModel::kSoftFinger
                                            : grasp::ContactModel::kHardFinger;
  options_.cone.mu = NonNegative(params, "mu", "");
  if (options_.cone.mu == 0.0 && options_.model != grasp::ContactModel::kPointWithoutFriction) {
    throw BlockError("parameter 'mu' must be positive with contact_model '" + model +
                         "' (mu = 0 is contact_model 'frictionless')",
                     "mu");
  }
  options_.cone.torsional_mu = NonNegative(params, "torsional_mu", " m");
  const double edges = params.Scalar("edges");
  if (!(edges >= 3 && edges <= grasp::kMaxConeEdges) || edges != std::floor(edges)) {
    throw BlockError("parameter 'edges' must be a whole number from 3 to " +
                         std::to_string(grasp::kMaxConeEdges) + ", got " + FormatValue(edges),
                     "edges");
  }
  options_.cone.edges = static_cast<int>(edges);
  options_.torque_length = NonNegative(params, "torque_length", " m");
  options_.threshold = NonNegative(params, "threshold", " N");
}

void GraspAnalysis::DoConfigure(const std::vector<int>& input_widths) {
  const int width = input_widths[kContactsPort];
  const int k = width / grasp::kMeasuredContactSize;
  if (width % grasp::kMeasuredContactSize != 0 || k < 2 || k > grasp::kMaxContacts) {
    throw BlockError("input 'contacts' has width " + std::to_string(width) +
                         ", expected 9 k values ([point, normal, force] of each contact) "
                         "with 2 <= k <= " +
                         std::to_string(grasp::kMaxContacts) + " contacts",
                     {}, "contacts");
  }
  num_contacts_ = k;
}

std::unique_ptr<BlockWorkspace> GraspAnalysis::DoMakeWorkspace() const {
  return std::make_unique<MonitorWorkspace>(num_contacts_, options_);
}

void GraspAnalysis::DoCalcOutputs(Context& c, int stage) const {
  // Inherited from a continuous input, the block runs in every solver evaluation: skip the
  // work when nothing reads the measures there (they are logged at major steps).
  bool demanded = false;
  for (int port = 0; port < kNumOutputs; ++port) demanded = demanded || output_demanded(c, port);
  if (!demanded) return;
  grasp::GraspMonitor& monitor = workspace<MonitorWorkspace>(c).monitor;
  const double* center = in(c, kCenterPort);
  const grasp::GraspMeasures& m = monitor.Evaluate(
      in(c, kContactsPort), num_contacts_, Eigen::Vector3d(center[0], center[1], center[2]));
  out(c, kNumActive)[0] = m.num_active;
  out(c, kClosure)[0] = m.force_closure ? 1.0 : 0.0;
  out(c, kEpsilon)[0] = m.epsilon;
  out(c, kSigmaMin)[0] = m.min_singular_value;
  out(c, kInternalForce)[0] = m.internal_force;
  out(c, kSlip)[0] = m.slip;
}

BlockType GraspAnalysisType() {
  BlockType t;
  t.name = "GraspAnalysis";
  t.category = "Grasp";
  t.summary = "Force closure, epsilon quality, internal force and slip margin of a grasp.";
  t.doc =
      "The grasp made by the contacts acting on one object, evaluated along the run. Input "
      "`contacts` holds k contacts of 9 values each, [p, n, f]: the point (m, world), the "
      "unit normal from the hand into the object and the total force on the object (N, "
      "world), as SpatialContactForce outputs point, normal and force with the hand on B and "
      "the object on F (a Phalanx's or Palm's `touch`, a hand's `touches`). Contact i is "
      "active when f_n,i = f_i . n_i > threshold; inactive contacts (a zero force) are left "
      "out. With r_i = p_i - center and the active contacts only (Prattichizzo & Trinkle, "
      "Springer Handbook of Robotics, \"Grasping\"):\n"
      "  grasp matrix, world axes: G_i = [I; S(r_i)] (hard finger), [[I, 0]; [S(r_i), n_i]] "
      "(soft finger, with the torsional moment), [n_i; r_i x n_i] (frictionless)\n"
      "  sigma_min = sqrt(lambda_min(G G^T)), 0 with fewer than 6 columns (N and N m mixed)\n"
      "  internal_force = |f - G^T (G G^T)^+ G f|: the part of the measured forces (normal "
      "components only, frictionless; torsional moments 0) that squeezes the object without "
      "moving it, the component in null(G)\n"
      "  slip = max_i |f_t,i| / (mu f_n,i), f_t,i = f_i - f_n,i n_i: 1 on the friction cone, "
      "above 1 sliding (0 for frictionless)\n"
      "  epsilon: the Ferrari-Canny quality (Ferrari & Canny 1992, \"Planning optimal "
      "grasps\"), L1: the radius of the largest ball about the origin inside the convex hull "
      "of the primitive wrenches [e; r_i x e / L] of the edges e = n_i + mu (cos(2 pi j / m) "
      "t1 + sin(2 pi j / m) t2), j < m = edges (soft finger: each edge with a torsional "
      "moment +-torsional_mu n_i); L = torque_length, or the largest |r_i| when 0; closure = 1 "
      "when the origin is strictly inside (epsilon > 0), else 0 and epsilon 0. Fewer than two "
      "active contacts: closure 0, epsilon 0.\n"
      "With Ts > 0 the block evaluates at its hits and holds the measures in between (an "
      "epsilon of 13 contacts costs tens of microseconds); Ts = -1 takes the input's rate. A "
      "non-finite value or a normal that is not unit length in an active contact stops the "
      "run with the time and the contact.";
  t.reference =
      "SynGrasp SGgraspMatrix, SGforceClosure, SGquality; GraspIt! epsilon quality; Ferrari & "
      "Canny 1992";
  t.params = {
      {"contact_model",
       ParamKind::kWord,
       "hard_finger",
       "hard_finger (point contact with friction), soft_finger (and torsional friction), "
       "frictionless",
       {"hard_finger", "soft_finger", "frictionless"}},
      {"mu", ParamKind::kScalar, "0.5", "Coulomb friction coefficient of the cones, > 0"},
      {"torsional_mu", ParamKind::kScalar, "0", "soft finger: |m_n| <= torsional_mu f_n, m"},
      {"edges", ParamKind::kScalar, "8", "edges of each linearized friction cone, 3 to 64"},
      {"torque_length", ParamKind::kScalar, "0",
       "L, m: torques divided by L in epsilon's wrenches; 0: the largest |r_i|"},
      {"threshold", ParamKind::kScalar, "0", "normal force above which a contact is active, N"},
      {"Ts", ParamKind::kScalar, "-1", "sample time, s; -1 inherits"},
      {"offset", ParamKind::kScalar, "0", "sample time offset, s, 0 <= offset < Ts"}};
  t.inputs = {{"contacts", "9 k values: [point(3), normal(3), force(3)] of each contact, W"},
              {"center", "the object's reference point (m, W): torques are taken about it"}};
  t.outputs = {{"n_active", "number of active contacts"},
               {"closure", "1 when the active contacts are force closure, else 0"},
               {"epsilon", "Ferrari-Canny epsilon (L1), N per N of normal force"},
               {"sigma_min", "smallest singular value of G"},
               {"internal_force", "magnitude of the internal (null-space) forces, N"},
               {"slip", "largest |f_t| / (mu f_n) over the active contacts"}};
  t.create = [](const Params& p) { return std::make_unique<GraspAnalysis>(p); };
  return t;
}

}  // namespace twinblocks::blocks
