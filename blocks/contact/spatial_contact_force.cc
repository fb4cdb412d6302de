#include "blocks/contact/spatial_contact_force.h"

#include <memory>
#include <stdexcept>
#include <string>

#include "blocks/multibody/mechanism_builder.h"
#include "common/format_value.h"

namespace twinblocks::contact {

using blocks::BlockError;
using blocks::BlockType;
using blocks::FormatValue;
using blocks::ParamKind;
using blocks::Params;

namespace {

bool IsSet(const Params& p, const char* name) { return p.has(name) && p.Get(name).is_set(); }

/// A pair of values, one per side (B, F); a single value means both.
Eigen::Vector2d PerSide(const Params& p, const char* name) {
  const Eigen::VectorXd v = p.Vector(name);
  if (v.size() == 1) return {v[0], v[0]};
  if (v.size() != 2) {
    throw BlockError(std::string("parameter '") + name + "' must be one value or two [B, F], got " +
                         std::to_string(v.size()),
                     name);
  }
  return {v[0], v[1]};
}

}  // namespace

SpatialContactForceElement::SpatialContactForceElement(const Params& p) {
  FramePort("B");
  FramePort("F");
  const std::string& model = p.Word("model");
  law.model = model == "hunt_crossley" ? NormalForceModel::kHuntCrossley
              : model == "hertz"       ? NormalForceModel::kHertz
                                       : NormalForceModel::kKelvinVoigt;
  const std::string& friction = p.Word("friction");
  law.friction = friction == "smooth_stick_slip" ? FrictionModel::kSmoothStickSlip
                 : friction == "coulomb"         ? FrictionModel::kCoulomb
                                                 : FrictionModel::kNone;
  law.stiffness = p.Scalar("stiffness");
  law.damping = p.Scalar("damping");
  law.transition_width = p.Scalar("transition_width");
  law.exponent = p.Scalar("exponent");
  law.mu_s = p.Scalar("mu_s");
  law.mu_d = p.Scalar("mu_d");
  law.v_crit = p.Scalar("v_crit");
  if (IsSet(p, "E") || IsSet(p, "nu")) {
    if (law.model != NormalForceModel::kHertz) {
      throw BlockError(
          "parameters 'E' and 'nu' give the stiffness of model 'hertz'; this block has "
          "model '" +
              model + "'",
          "E");
    }
    if (!IsSet(p, "E") || !IsSet(p, "nu")) {
      throw BlockError(
          "the Hertz stiffness from materials needs both 'E' (Young's moduli) and "
          "'nu' (Poisson ratios)",
          IsSet(p, "E") ? "nu" : "E");
    }
    HertzMaterials m;
    m.E = PerSide(p, "E");
    m.nu = PerSide(p, "nu");
    m.gamma = p.Scalar("gamma");
    m.radius = IsSet(p, "radius") ? p.Scalar("radius") : 0.0;
    try {
      // Checked now with a stand-in radius; the pair's own radius is checked at compile.
      HertzStiffness(m.E[0], m.nu[0], m.E[1], m.nu[1], m.radius > 0.0 ? m.radius : 1.0);
      HertzDamping(m.gamma, 1.0);
      if (IsSet(p, "radius") && !(m.radius > 0.0)) {
        throw std::invalid_argument("radius: must be positive, got " + FormatValue(m.radius));
      }
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      throw BlockError(
          "parameter '" + what.substr(0, what.find(':')) + "': " + what.substr(what.find(':') + 2),
          what.substr(0, what.find(':')));
    }
    materials = m;
  }
  try {
    CheckContactLaw(law);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    const std::string param = what.substr(0, what.find(':'));
    throw BlockError("parameter '" + param + "': " + what.substr(what.find(':') + 2), param);
  }
  // Everything here follows from positions and velocities: no input, no algebraic loop.
  out_distance = DeclareOutput("distance", 1, 0);
  out_fn = DeclareOutput("fn", 1, 0);
  out_ff = DeclareOutput("ff", 1, 0);
  out_point = DeclareOutput("point", 3, 0);
  out_normal = DeclareOutput("normal", 3, 0);
  out_force = DeclareOutput("force", 3, 0);
}

BlockType SpatialContactForceType() {
  BlockType t;
  t.name = "SpatialContactForce";
  t.category = "Multibody";
  t.summary = "Compliant contact between the Solid geometries at frames B and F.";
  t.doc =
      "Acts between the Solids whose frame R is joined to B and those joined to F (connect B "
      "and F to the Solids' R ports; a shape, not 'none', on each side). Every evaluation finds "
      "where the shapes overlap (closed forms for spheres, capsules, boxes and cylinders on "
      "planes; GJK/EPA otherwise; several points for a face resting on a face) and applies, at "
      "each point of penetration delta along the normal n (from B's shape to F's):\n"
      "  normal force, never pulling:\n"
      "    kelvin_voigt   f = s(delta/w) (k delta + c delta'),  s(x) = 3x^2 - 2x^3 on [0, 1], "
      "1 beyond (w = transition_width; w = 0: s = 1)\n"
      "    hunt_crossley  f = k delta^n + c delta^n delta'\n"
      "    hertz          f = k delta^n + c delta'  (Zaidi et al. 2020, eq. 4); with E = [E_B, "
      "E_F] and "
      "nu = [nu_B, nu_F]: k = 2 Psi sqrt(R), 1/Psi = (1-nu_B^2)/E_B + (1-nu_F^2)/E_F, "
      "c = 4 pi R gamma (eq. 6-8), R = 1/(1/R_B + 1/R_F) from the shapes' radii (a flat side "
      "counts as infinite) unless `radius` is given\n"
      "  friction, opposite the sliding velocity v at the point, magnitude mu(|v|) f "
      "(s = |v|/v_crit):\n"
      "    none               mu = 0\n"
      "    smooth_stick_slip  mu = mu_s s(2 - s) for s <= 1; mu_s - (mu_s - mu_d)(3x^2 - 2x^3), "
      "x = s - 1, for 1 < s < 2; mu_d for s >= 2. A load needing less than mu_s is held with "
      "the body creeping slower than v_crit.\n"
      "    coulomb            mu = mu_d s(2 - s) for s <= 1, mu_d beyond\n"
      "Contact ends where the normal force reaches zero (with damping, before the penetration "
      "does). Outputs: distance (signed: gap > 0, deepest penetration < 0), fn and ff (total "
      "normal and friction force magnitudes, N), point (W: where the force acts, the "
      "force-weighted mean of the contact points, or the midpoint of the nearest points when "
      "apart), normal (W, unit, from B's shape to F's), force (W: the total force on F's side, normal and friction, the sum over the contact points; B takes its opposite; what a grasp analysis needs of a contact). With a variable-step solver the onset "
      "of contact is located as a zero crossing of the distance, and the force is switched on "
      "at it (a mode held within steps, as Simulink does), so that steps stay long while bodies "
      "rest in contact.";
  t.reference =
      "Simscape Multibody Spatial Contact Force; Hunt & Crossley 1975; Zaidi et al. 2020, "
      "\"Grasp Planning Pipeline for Robust Manipulation of 3D Deformable Objects\" (Applied "
      "Sciences), eq. 4-8";
  t.params = {
      {"stiffness", ParamKind::kScalar, "1e6", "k: N/m (kelvin_voigt), N/m^n otherwise"},
      {"damping", ParamKind::kScalar, "1e3", "c: N/(m/s); N/(m^n m/s) for hunt_crossley"},
      {"transition_width", ParamKind::kScalar, "1e-4", "w: m (kelvin_voigt)"},
      {"friction",
       ParamKind::kWord,
       "none",
       "friction law",
       {"none", "smooth_stick_slip", "coulomb"}},
      {"mu_s", ParamKind::kScalar, "0.5", "static (peak) friction coefficient"},
      {"mu_d", ParamKind::kScalar, "0.3", "dynamic friction coefficient, <= mu_s"},
      {"v_crit", ParamKind::kScalar, "1e-3", "critical velocity, m/s"},
      {"model",
       ParamKind::kWord,
       "kelvin_voigt",
       "normal force law",
       {"kelvin_voigt", "hunt_crossley", "hertz"}},
      {"exponent", ParamKind::kScalar, "1.5", "n (hunt_crossley, hertz)"},
      {"E", ParamKind::kVector, "", "Young's moduli [E_B, E_F], Pa (hertz from materials)"},
      {"nu", ParamKind::kVector, "", "Poisson ratios [nu_B, nu_F] (hertz from materials)"},
      {"gamma", ParamKind::kScalar, "0",
       "damping constant of Zaidi et al. 2020, eq. 8 (hertz from materials)"},
      {"radius", ParamKind::kScalar, "", "effective radius R, m (default: from the shapes)"}};
  t.outputs = {{"distance", "signed distance, m (< 0: penetration)"},
               {"fn", "normal force magnitude, N"},
               {"ff", "friction force magnitude, N"},
               {"point", "[x, y, z] in W, m: where the force acts"},
               {"normal", "[x, y, z] in W: unit normal from B's shape to F's"},
               {"force", "[x, y, z] in W, N: the total contact force on F's side (normal and "
                         "friction; B takes its opposite)"}};
  t.physical_ports = {{"B", "frame: at the Solid(s) of one side"},
                      {"F", "frame: at the Solid(s) of the other side"}};
  t.create = [](const Params& p) { return std::make_unique<SpatialContactForceElement>(p); };
  return t;
}

void SpatialContactForceElement::Contribute(multibody::MechanismBuilder& builder) const {
  builder.AddContact(*this);
}

}  // namespace twinblocks::contact
