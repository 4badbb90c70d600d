#pragma once
// A compiled MuJoCo model's actuators for engine/articulated/actuation.hpp: joint transmissions (hinge,
// slide, ball, free; in the joint's or the parent's frame) with stateless dynamics (dyntype none), fixed or
// affine gain, no or affine bias, control and force ranges, and the actuation and clampctrl disable flags.
// <motor>, <position>, <velocity> and <general> of those kinds map; refused, with the actuator named: other
// transmissions (tendon, site, slider-crank, body), activation dynamics (integrator, filter, muscle, user),
// muscle and user gains and biases, actlimited (MuJoCo 2.2.2's compiler already rejects it without
// dynamics: kept as a guard), and more actuators than the model holds.
#include <mujoco/mujoco.h>

#include <string>

#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg::mjcf {

// Fills `out` from m, `tree` being tree_from_mjmodel's result for m; returns an empty string on success,
// else why m is refused (out is then unspecified).
std::string tree_actuators_from_mjmodel(const mjModel* m, const TreeModel<double>& tree,
                                        TreeActuatorModel<double>& out);

}  // namespace sg::mjcf
