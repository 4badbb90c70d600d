#include "gui/view3d/tree_pose.hpp"

#include <algorithm>
#include <memory>

#include "engine/model/tree_system.hpp"

namespace sg::gui {

std::vector<TreeBodyPose> tree_start_poses(const JointTreeModel<double>& model) {
  return tree_start_poses_with(model, {});
}

std::vector<TreeBodyPose> tree_start_poses_with(const JointTreeModel<double>& model,
                                                const std::vector<std::pair<int, double>>& hinges) {
  // The system expands the scene's joint values into its start state; its loss read-out runs the
  // kinematics that place every body (the same code a run uses, so the view cannot disagree with it).
  auto system = std::make_unique<TreeSystem<double>>(&model, 0.0);
  std::vector<double> y(static_cast<std::size_t>(system->dim()));
  system->initial_state(y.data());
  for (const auto& [joint, qpos] : hinges)
    y[static_cast<std::size_t>(model.tree.joint[joint].qpos_adr)] = qpos;
  system->coordinate(y.data(), 0, 0, 0);
  const TreeData<double>& d = system->data();
  std::vector<TreeBodyPose> poses(static_cast<std::size_t>(model.tree.nbody));
  for (int b = 1; b < model.tree.nbody; ++b) poses[static_cast<std::size_t>(b)] = {d.xpos[b], d.xquat[b]};
  return poses;
}

std::vector<TreeBodyPose> tree_frame_poses(const JointTreeModel<double>& model, const Trajectory& tr,
                                           int frame) {
  constexpr std::size_t k_q = 7;  // pos (3) + quat (4) per body, as rigid trajectories
  const auto bodies = static_cast<std::size_t>(model.bodies());
  if (tr.layout != "tree" || tr.q.empty() || tr.q[0].size() != k_q * bodies) return {};
  const std::vector<double>& row = tr.q[static_cast<std::size_t>(std::clamp(frame, 0, int(tr.q.size()) - 1))];
  std::vector<TreeBodyPose> poses(bodies + 1);
  for (std::size_t i = 0; i < bodies; ++i) {
    const double* q = row.data() + k_q * i;
    poses[i + 1] = {{q[0], q[1], q[2]}, {q[3], q[4], q[5], q[6]}};
  }
  return poses;
}

Vec3<double> tree_world_point(const TreeBodyPose& pose, const Vec3<double>& local) {
  return pose.pos + rotate(pose.quat, local);
}

}  // namespace sg::gui
