#pragma once
// `softgrad validate` on an MJCF joint tree: the file's own mjModel under mj_step next to the scene's tree
// under softgrad, step by step from the scene's start, with the largest differences of qpos and qvel.
#include <string>

#include "engine/model/joint_tree_model.hpp"

namespace sg::mjcf {

struct TreeStepComparison {
  bool rk4 = false;  // RK4 (the scene's integrator) or semi-implicit Euler
  double timestep = 0.0;
  long steps = 0;
  double qpos = 0.0, qvel = 0.0;  // largest |difference| over all steps and coordinates
  double xpos = 0.0;              // largest |difference| of a body frame's world position (MuJoCo's xpos)
  double act = 0.0;               // largest |difference| of an activation (muscles), 0 without any
  long worst_step = 0;            // where qpos differs most
  int max_contacts = 0;           // the most contacts MuJoCo found in one step
  double max_speed = 0.0;         // MuJoCo's largest |qvel| over the steps: 0 when the model stayed at rest
  long softgrad_stop = 0;         // the step where softgrad's run stopped (its status below), 0 if it did not
  const char* softgrad_status = "ok";
  long mujoco_reset = 0;  // the first step where MuJoCo found a bad qacc and reset its state, 0 if none
  // Steps whose constraint solve ran to the iteration cap (opt.iterations): softgrad's where its last
  // iterate had not settled (the step's last evaluation under RK4), MuJoCo's where solver_iter reached the
  // cap (it may have converged on that last iteration). Both keep their last iterate there, and rounding
  // differences can grow.
  int iteration_cap = 0;
  long softgrad_capped = 0, mujoco_capped = 0;
};

// Both engines take `steps` steps of `timestep` (RK4 when rk4, else Euler: mj_Euler with its implicit
// damping) from the scene's initial state. Throws std::runtime_error when the file does not load or its
// qpos/qvel/act sizes differ from the tree's.
TreeStepComparison compare_tree_with_mj_step(const JointTreeModel<double>& model,
                                             const std::string& mjcf_path, long steps, double timestep,
                                             bool rk4);

}  // namespace sg::mjcf
