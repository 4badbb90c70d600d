#pragma once
// Rigid bodies ("model.type": "rigid") in the 3-D view: the bodies' shapes, sizes and poses (from the
// config, or from the trajectory's quaternions at the shown frame), trails of their centres and contact
// normals at the recorded ContactMarks (real ones in the contact colour, CFD virtual ones in the
// virtual-force colour).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gui/view3d/scene_view_3d.hpp"

namespace sg::gui {

// One body as the scene file describes it: MuJoCo shape/size, initial pos and orientation.
struct RigidBodyDescription {
  std::string shape = "sphere";
  float size[3] = {0.1f, 0.1f, 0.1f};  // missing entries repeat the first (sphere [r])
  float pos[3] = {0.0f, 0.0f, 0.0f};
  float quat[4] = {1.0f, 0.0f, 0.0f, 0.0f};  // (w, x, y, z) from "euler", degrees, intrinsic x-y-z
};

std::vector<RigidBodyDescription> rigid_bodies(const nlohmann::json& model);
// The renderer's shape for a scene's shape name ("box", ...; a sphere for anything else).
render::Shape shape_of(const std::string& name);

// Intrinsic x-y-z Euler angles in degrees (MuJoCo's default eulerseq "xyz") to a (w, x, y, z) quaternion.
void quat_from_euler_xyz_degrees(const double euler[3], float quat[4]);

void add_rigid_bodies(const nlohmann::json& model, const SceneViewOptions& options, render::Scene3D& out);

}  // namespace sg::gui
