#pragma once

// SynergyEquilibrium: the configuration and tension the adaptive-synergy model predicts for a
// tendon's hand at rest under the current contact forces (Rocchi & Hauser 2016, "A Generic
// Simulator for Underactuated Compliant Hands", eq. 4-5), so that a run can compare its
// dynamics with the quasi-static prediction, as the paper's Fig. 6 does. Connected to a
// Tendon's port T; it reads everything else from the mechanism.

#include <string>

#include "blocks/block_registry.h"
#include "blocks/multibody/mechanism_element.h"
#include "blocks/param.h"

namespace twinblocks::multibody {

class SynergyEquilibriumElement final : public MechanismElement {
 public:
  explicit SynergyEquilibriumElement(const blocks::Params& p);
  void Contribute(MechanismBuilder& builder) const override;
  std::string UnconnectedPortError(const std::string& path, int port) const override;

  bool gravity = true;  ///< the bodies' weights count among the external forces
  int port_t = -1;
  int out_q = -1, out_f = -1;  ///< widths set when the mechanism is built
};

blocks::BlockType SynergyEquilibriumType();

}  // namespace twinblocks::multibody
