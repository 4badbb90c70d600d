#pragma once
// The constraint side of a compiled MuJoCo model for engine/articulated/'s constraint stage: geoms (type,
// size, frame, contact parameters), hinge and slide limits, the inverse weights at qpos0 and the solver
// options. What that stage cannot reproduce is refused: elliptic cones, condim other than 1 and 3,
// explicit contact pairs and exclusions, equality constraints, dof or tendon friction, tendon limits,
// limited ball joints, height fields and meshes, planes on moving bodies, geom pairs softgrad's narrow
// phase lacks (cylinders and ellipsoids against anything but a plane), and the override flag.
// Box-box pairs are accepted, but MuJoCo 2.2.2's box-box differs from softgrad's (half the depth in dist on
// face contacts, corners beyond the reference face, several points on crossed edges): not mj_forward-exact.
#include <mujoco/mujoco.h>

#include <string>

#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg::mjcf {

// Fills `out` from m, `tree` being tree_from_mjmodel's result for m; returns an empty string on success,
// else why m is refused.
std::string tree_constraints_from_mjmodel(const mjModel* m, const TreeModel<double>& tree,
                                          TreeConstraintModel<double>& out);

}  // namespace sg::mjcf
