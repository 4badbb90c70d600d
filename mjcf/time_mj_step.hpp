#pragma once
// MuJoCo's side of `softgrad bench --only humanoid`: mj_step on an MJCF file from a joint-tree scene's
// initial state (qpos, qvel and the controls copied over, as `softgrad validate` does), so that both engines
// time the same model through the same states.
#include <string>
#include <vector>

#include "engine/model/joint_tree_model.hpp"

namespace sg::mjcf {

struct MjStepTiming {
  double seconds = 0.0;      // the fastest of the rounds, each `steps` mj_step calls (the reset excluded)
  int max_contacts = 0;      // the most contacts MuJoCo found in one step
  std::vector<double> qpos;  // after the last step
  int version = 0;           // mj_version()
};

// Semi-implicit Euler (mjINT_EULER) at `timestep`, MuJoCo's solver options as the file sets them. Throws
// std::runtime_error when the file does not load or its sizes differ from the tree's.
MjStepTiming time_mj_step(const JointTreeModel<double>& model, const std::string& mjcf_path, long steps,
                          double timestep, int rounds);

}  // namespace sg::mjcf
