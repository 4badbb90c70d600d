#pragma once
// What stands in for a tree body without geoms: a thin capsule for its link (from its parent's frame origin
// to its own) and a sphere at its centre of mass. Sizes follow the longest link, so a 30 cm pendulum and a
// 10 m crane look alike; a sphere grows with the cube root of its body's mass.
#include <vector>

#include "engine/model/joint_tree_model.hpp"

namespace sg::gui {

struct TreeSkeleton {
  float link_radius = 0.01f;
  std::vector<float> com_radius;  // per tree body (index 0, the world, unused)
};

TreeSkeleton tree_skeleton(const JointTreeModel<double>& model);

// Whether tree body b carries a geom (then its geoms are drawn instead of its skeleton).
bool tree_body_has_geom(const JointTreeModel<double>& model, int body);

}  // namespace sg::gui
