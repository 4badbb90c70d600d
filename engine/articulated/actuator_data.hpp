#pragma once
// The controls and every actuation intermediate, named after mjData's fields (ctrl, actuator_length,
// actuator_moment, actuator_velocity, actuator_force, qfrc_actuator). The moments are dense nu x nv,
// row-major with leading dimension nv, as MuJoCo keeps them.
#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/tendon_data.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg {

template <class S>
struct TreeActuatorData {
  S ctrl[kMaxActuators] = {};  // input: a scalar, so a control can be differentiated
  S act[kMaxActuators] = {};   // input: the activations (state), by act_adr

  TreeTendonData<S> ten;

  S actuator_length[kMaxActuators] = {};
  S actuator_moment[kMaxActuators * kMaxDofs] = {};
  S actuator_velocity[kMaxActuators] = {};
  S actuator_force[kMaxActuators] = {};
  S qfrc_actuator[kMaxDofs] = {};
  S act_dot[kMaxActuators] = {};
};

}  // namespace sg
