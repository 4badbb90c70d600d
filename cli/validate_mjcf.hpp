#pragma once
// validate's second check for scenes imported from MJCF: the MJCF's own mjModel under mj_step against the
// scene's rigid model under softgrad, for a few Euler steps (mjcf/compare_steps.hpp).
#include <string>

#include "engine/problem/problem.hpp"

namespace sg::cli {

struct MujocoCheckArgs {
  long steps = 100;
  double tolerance = 1e-6;  // on every quantity's largest difference (m, m/s, rad/s, quaternion)
};

// Prints the comparison; returns an exit code (kExitFailed when over the tolerance or not possible).
int check_against_mujoco(const Problem& problem, const std::string& scene_file, const MujocoCheckArgs& args);

}  // namespace sg::cli
