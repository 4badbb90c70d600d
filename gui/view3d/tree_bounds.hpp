#pragma once
// The box a joint tree's camera frames: every body's frame origin, centre of mass and geoms at the start
// of a run, and, for each largest subtree that only turns (hinge and ball joints), the sphere its links can
// sweep around its first body's origin (a disc when its hinges share one world axis; below the start's
// top), so that a swinging pendulum stays in view.
#include "engine/model/joint_tree_model.hpp"
#include "gui/view3d/scene_bounds.hpp"

namespace sg::gui {

SceneBounds tree_scene_bounds(const JointTreeModel<double>& model);

// Bounding radius of a geom (its rbound when the model has one, else from its type and size); 0 for planes.
float tree_geom_radius(const TreeGeom<double>& geom);

}  // namespace sg::gui
