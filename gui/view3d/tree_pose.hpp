#pragma once
// Where a joint tree's bodies are (model.type "tree"): every tree body's frame in the world, at the start of
// a run (the scene's joint values, through the engine's own kinematics) or at a recorded trajectory frame.
// Index 0 is the world; scene body i is tree body i + 1.
#include <utility>
#include <vector>

#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"
#include "engine/model/joint_tree_model.hpp"
#include "engine/simulate/trajectory.hpp"

namespace sg::gui {

struct TreeBodyPose {
  Vec3<double> pos;
  Quat<double> quat;  // (w, x, y, z)
};

std::vector<TreeBodyPose> tree_start_poses(const JointTreeModel<double>& model);

// The poses at the start with some hinges turned elsewhere: (joint index, its qpos) pairs.
std::vector<TreeBodyPose> tree_start_poses_with(const JointTreeModel<double>& model,
                                                const std::vector<std::pair<int, double>>& hinges);

// The poses at `frame` (clamped) of a trajectory recorded for this model; empty when it was recorded for
// another one (a different layout or body count, e.g. the previous scene's).
std::vector<TreeBodyPose> tree_frame_poses(const JointTreeModel<double>& model, const Trajectory& tr,
                                           int frame);

// A point given in body b's frame, in the world.
Vec3<double> tree_world_point(const TreeBodyPose& pose, const Vec3<double>& local);

}  // namespace sg::gui
