#pragma once
// What softgrad's rigid model cannot express, one message per MJCF element, naming it: joints other than
// free, nested bodies, tendons, actuators, equality constraints, sensors, keyframes, meshes, height fields,
// static geoms other than one level plane, and options and geom attributes without a counterpart.
#include <mujoco/mujoco.h>

#include <string>
#include <vector>

namespace sg::mjcf {

// d holds the model's kinematics at qpos0 (mj_kinematics), for the static geoms' world poses.
std::vector<std::string> unsupported(const mjModel* m, const mjData* d);

}  // namespace sg::mjcf
