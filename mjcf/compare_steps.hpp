#pragma once
// `softgrad validate` on an mjcf scene: the MJCF's own mjModel stepped by mj_step next to the scene's rigid
// model stepped by softgrad, from the same state, and their largest difference.
#include <string>
#include <vector>

#include "engine/model/rigid_model.hpp"
#include "mjcf/trajectory_compare.hpp"

namespace sg::mjcf {

struct StepComparison {
  double timestep = 0.0;  // the MJCF's
  long steps = 0;
  int solver_iterations = 0;  // MuJoCo's Newton iterations allowed (tolerance kTolerance)
  mjcmp::Deviation deviation;
  // Geoms away from their body's origin: MuJoCo's Euler step moves the body origin in a straight line,
  // softgrad's the geom's centre (the centre of mass), so the two differ by O(h) once such a body spins.
  std::vector<std::string> offset_geoms;
  static constexpr double kTolerance = 1e-10;
};

// Both engines take semi-implicit Euler steps of the MJCF's timestep from the scene's initial state (bodies'
// pos, euler, vel, angvel) with its timed forces; MuJoCo's solver is switched to Newton at tolerance 1e-10
// (as in tests/mujoco) so that both solve the contact problem to convergence. Throws std::runtime_error when
// the file does not load or has a different number of free bodies than the model.
StepComparison compare_with_mj_step(const RigidModel<double>& model, const std::string& mjcf_path,
                                    long steps);

}  // namespace sg::mjcf
