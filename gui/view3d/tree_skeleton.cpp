#include "gui/view3d/tree_skeleton.hpp"

#include <algorithm>
#include <cmath>

namespace sg::gui {

namespace {

// The longest link or centre-of-mass offset; 0.1 m for a tree of point bodies at one spot.
double length_scale(const TreeModel<double>& tree) {
  double longest = 0.0;
  for (int b = 1; b < tree.nbody; ++b) {
    if (tree.body[b].parent > 0) longest = std::max(longest, norm(tree.body[b].pos));
    longest = std::max(longest, norm(tree.body[b].ipos));
  }
  return longest > 0.0 ? longest : 0.1;
}

}  // namespace

TreeSkeleton tree_skeleton(const JointTreeModel<double>& model) {
  const TreeModel<double>& tree = model.tree;
  const double scale = length_scale(tree);
  double heaviest = 0.0;
  for (int b = 1; b < tree.nbody; ++b) heaviest = std::max(heaviest, tree.body[b].mass);
  TreeSkeleton skeleton;
  skeleton.link_radius = static_cast<float>(0.035 * scale);
  skeleton.com_radius.assign(static_cast<std::size_t>(tree.nbody), 0.0f);
  for (int b = 1; b < tree.nbody; ++b) {
    const double share = heaviest > 0.0 ? std::cbrt(tree.body[b].mass / heaviest) : 1.0;
    // Never thinner than the links, so a light body still shows where its mass sits.
    skeleton.com_radius[static_cast<std::size_t>(b)] =
        static_cast<float>(scale * std::max(0.1 * share, 0.05));
  }
  return skeleton;
}

bool tree_body_has_geom(const JointTreeModel<double>& model, int body) {
  for (int g = 0; g < model.con.ngeom; ++g)
    if (model.con.geom[g].body == body) return true;
  return false;
}

}  // namespace sg::gui
