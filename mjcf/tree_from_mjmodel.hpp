#pragma once
// A compiled MuJoCo model as softgrad's articulated tree (engine/articulated/tree_model.hpp): bodies,
// joints, dofs, qpos0, qpos_spring, gravity and the fluid medium, for the smooth dynamics (mj_kinematics ..
// mj_rne, mj_passive's joint springs, dof dampers and inertia-box fluid forces). What would change those
// quantities but has no counterpart in the tree is refused: mocap bodies, springy or damped tendons, the
// ellipsoid fluid model, a free joint sharing its body, and models beyond the tree's capacities. Geoms,
// contacts, joint limits, equality constraints and actuators belong to later stages and are not mapped: they
// are ignored here.
#include <mujoco/mujoco.h>

#include <string>

#include "engine/articulated/tree_model.hpp"

namespace sg::mjcf {

// Fills `out` from m; returns an empty string on success, else why m is refused (out is then unspecified).
// The disable flags gravity and passive are honoured (gravity zero, springs and dampers off).
std::string tree_from_mjmodel(const mjModel* m, TreeModel<double>& out);

}  // namespace sg::mjcf
