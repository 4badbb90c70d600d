#pragma once
// Joint trees ("model.type": "tree") in the 3-D view: each body's geoms (model.con.geom, posed in its body
// frame) at the body's pose, from the trajectory's frame or, before one, the start of a run; a body
// without geoms is drawn as its skeleton (tree_skeleton.hpp). Trails follow the leaf bodies' origins.
#include "engine/model/joint_tree_model.hpp"
#include "gui/view3d/scene_view_3d.hpp"

namespace sg::gui {

void add_tree_bodies(const JointTreeModel<double>& model, const SceneViewOptions& options,
                     render::Scene3D& out);

// The ground: the world body's plane geoms (MuJoCo's size: half extents, grid spacing; 0 takes the given
// ones), or, without any, a reference grid on the world's xy plane.
void add_tree_ground(const JointTreeModel<double>& model, float half_extent, float spacing,
                     render::Scene3D& out);

}  // namespace sg::gui
