#include "blocks/drivetrain/rotational_network.h"

#include <cmath>
#include <map>

#include "common/format_value.h"
#include "common/union_find.h"

namespace twinblocks::drivetrain {

namespace {

struct GearEdge {
  int to;
  double k_ratio;  ///< k_to = k_ratio * k_from
  int element;
};

/// A motor's rotor inertia rides on R's cluster, its viscous friction acts between R and C,
/// and its case must be held: the stator of a motor is mounted on something that does not
/// turn with the network (in a joint's network, the joint's base body).
void AddMotor(const RotationalNetworkElement& e, const std::vector<NodeCoordinate>& coordinate,
              RotationalMotor motor, double J, double b, DrivetrainModel& model) {
  motor.name = e.name;
  motor.element = e.element;
  motor.R = coordinate[e.nodes[0]];
  motor.C = coordinate[e.nodes[1]];
  if (motor.C.cluster >= 0) {
    throw RotationalNetworkError(
        e.element,
        "the motor has no reference: its case C is on a turning shaft; connect C to a "
        "RotationalReference (the motor's mount)");
  }
  if (motor.R.cluster >= 0) model.clusters[motor.R.cluster].inertia += J * motor.R.k * motor.R.k;
  if (b > 0.0) {
    RotationalForce viscous;
    viscous.kind = RotationalForceKind::kSpringDamper;
    viscous.R = motor.R;
    viscous.C = motor.C;
    viscous.c = b;
    viscous.element = e.element;
    model.forces.push_back(viscous);
  }
  model.motors.push_back(std::move(motor));
}

}  // namespace

DrivetrainModel BuildDrivetrain(const std::vector<RotationalNetworkElement>& elements,
                                const std::vector<Shaft>& shafts, int num_nodes) {
  DrivetrainModel model;
  // Gear trains: nodes joined by gears turn together at fixed ratios.
  blocks::UnionFind trains(num_nodes);
  std::vector<std::vector<GearEdge>> gears(num_nodes);
  std::vector<int> reference_of(num_nodes, -1);  // a RotationalReference's element on the node
  for (const RotationalNetworkElement& e : elements) {
    if (e.part.kind == RotationalPart::Kind::kGear) {
      // w_B = ratio w_F.
      gears[e.nodes[1]].push_back({e.nodes[0], e.part.ratio, e.element});
      gears[e.nodes[0]].push_back({e.nodes[1], 1.0 / e.part.ratio, e.element});
      trains.Join(e.nodes[0], e.nodes[1]);
    } else if (e.part.kind == RotationalPart::Kind::kReference) {
      reference_of[e.nodes[0]] = e.element;
    }
  }
  std::vector<int> used_nodes;
  for (const RotationalNetworkElement& e : elements) {
    for (int n : e.nodes) used_nodes.push_back(n);
  }
  for (const Shaft& s : shafts) used_nodes.push_back(s.node);

  // Each train's coordinate: a joint's (k = 1 at its shaft), fixed (a reference), or its own.
  std::vector<NodeCoordinate> coordinate(num_nodes);
  std::vector<unsigned char> assigned(num_nodes, 0);
  std::map<int, int> cluster_of_train;
  auto walk = [&](int start, int cluster, double k0) {
    std::vector<int> queue{start};
    coordinate[start] = {cluster, k0};
    assigned[start] = 1;
    for (size_t i = 0; i < queue.size(); ++i) {
      const int n = queue[i];
      for (const GearEdge& g : gears[n]) {
        const double k = coordinate[n].k * g.k_ratio;
        if (assigned[g.to]) {
          if (std::abs(coordinate[g.to].k - k) > 1e-12 * std::max(1.0, std::abs(k))) {
            throw RotationalNetworkError(
                g.element,
                "this gear forces a speed ratio that contradicts another gear path "
                "between the same shafts (" +
                    blocks::FormatValue(coordinate[g.to].k) + " against " + blocks::FormatValue(k) +
                    ")");
          }
          continue;
        }
        coordinate[g.to] = {cluster, k};
        assigned[g.to] = 1;
        queue.push_back(g.to);
      }
    }
  };
  model.shaft_cluster.assign(shafts.size(), -1);
  for (size_t s = 0; s < shafts.size(); ++s) {
    const int train = trains.Find(shafts[s].node);
    if (cluster_of_train.count(train)) {
      const int other = model.clusters[cluster_of_train[train]].joint;
      throw RotationalNetworkError(shafts[s].element,
                                   "its shaft is geared rigidly to the shaft of another joint (#" +
                                       std::to_string(other) +
                                       "): coupled joints are a closed loop, not supported yet");
    }
    const int cluster = static_cast<int>(model.clusters.size());
    model.clusters.push_back({shafts[s].joint, 0.0});
    cluster_of_train[train] = cluster;
    model.shaft_cluster[s] = cluster;
    walk(shafts[s].node, cluster, 1.0);
  }
  for (int n : used_nodes) {
    if (assigned[n]) continue;
    const int train = trains.Find(n);
    // A train with a reference is fixed: every node at k = 0.
    int reference = -1;
    for (int m : used_nodes) {
      if (trains.Find(m) == train && reference_of[m] >= 0) reference = reference_of[m];
    }
    if (reference >= 0) {
      walk(n, -1, 0.0);
      continue;
    }
    const int cluster = static_cast<int>(model.clusters.size());
    model.clusters.push_back({-1, 0.0});
    cluster_of_train[train] = cluster;
    walk(n, cluster, 1.0);
  }
  // A joint's train must not also hold a reference: that would lock the joint.
  for (size_t s = 0; s < shafts.size(); ++s) {
    for (int n : used_nodes) {
      if (trains.Find(n) == trains.Find(shafts[s].node) && reference_of[n] >= 0) {
        throw RotationalNetworkError(shafts[s].element,
                                     "its shaft is geared rigidly to a RotationalReference, "
                                     "which would lock the joint; connect the reference to a "
                                     "motor's or friction's C port instead");
      }
    }
  }

  for (const RotationalNetworkElement& e : elements) {
    const RotationalPart& part = e.part;
    switch (part.kind) {
      case RotationalPart::Kind::kReference:
      case RotationalPart::Kind::kGear:
        break;  // both are in the coordinates
      case RotationalPart::Kind::kInertia: {
        const NodeCoordinate& c = coordinate[e.nodes[0]];
        if (c.cluster >= 0) model.clusters[c.cluster].inertia += part.inertia * c.k * c.k;
        break;
      }
      case RotationalPart::Kind::kForce: {
        RotationalForce force = part.force;
        force.R = coordinate[e.nodes[0]];
        force.C = coordinate[e.nodes[1]];
        force.element = e.element;
        model.forces.push_back(force);
        break;
      }
      case RotationalPart::Kind::kSensor: {
        RotationalSensor sensor = part.sensor;
        sensor.R = coordinate[e.nodes[0]];
        sensor.C = coordinate[e.nodes[1]];
        sensor.element = e.element;
        model.sensors.push_back(sensor);
        break;
      }
      case RotationalPart::Kind::kMotor:
        AddMotor(e, coordinate, part.motor, part.inertia, part.viscous, model);
        break;
    }
  }
  for (size_t c = 0; c < model.clusters.size(); ++c) {
    if (model.clusters[c].joint < 0 && !(model.clusters[c].inertia > 0.0)) {
      int culprit = elements.empty() ? -1 : elements[0].element;
      for (const RotationalNetworkElement& e : elements) {
        for (int n : e.nodes) {
          if (coordinate[n].cluster == static_cast<int>(c)) culprit = e.element;
        }
      }
      throw RotationalNetworkError(
          culprit,
          "a shaft that is neither on a joint nor fixed has no inertia: add an Inertia, "
          "connect it to a joint's shaft, or to a RotationalReference");
    }
  }
  return model;
}

}  // namespace twinblocks::drivetrain
