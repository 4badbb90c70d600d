#pragma once
// A joint tree's tendons in the 3-D view: each tendon's path (sites, and the tangent points where it wraps
// around a sphere or cylinder) as a polyline through MuJoCo's wrap points, computed by the engine's tendon
// stage from the bodies' poses, and its sites as small spheres.
#include <vector>

#include "engine/model/joint_tree_model.hpp"
#include "gui/view3d/tree_pose.hpp"
#include "render/scene3d.hpp"

namespace sg::gui {

// Nothing when the model has no sites. `site_radius`: the spheres' radius (m).
void add_tendon_lines(const JointTreeModel<double>& model, const std::vector<TreeBodyPose>& poses,
                      float site_radius, render::Scene3D& out);

}  // namespace sg::gui
