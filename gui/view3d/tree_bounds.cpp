#include "gui/view3d/tree_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gui/view3d/tree_pose.hpp"
#include "gui/view3d/tree_skeleton.hpp"

namespace sg::gui {

namespace {

// A box of half sizes half[k] around centre.
void add_box(SceneBounds& bounds, const Vec3<double>& centre, const double half[3]) {
  for (int k = 0; k < 3; ++k) {
    const auto lo = static_cast<float>(centre[k] - half[k]), hi = static_cast<float>(centre[k] + half[k]);
    bounds.min[k] = bounds.empty ? lo : std::min(bounds.min[k], lo);
    bounds.max[k] = bounds.empty ? hi : std::max(bounds.max[k], hi);
  }
  bounds.empty = false;
}

void add_sphere(SceneBounds& bounds, const Vec3<double>& centre, double radius) {
  const double half[3] = {radius, radius, radius};
  add_box(bounds, centre, half);
}

bool translates(const TreeModel<double>& tree, int b) {
  for (int j = tree.body[b].jnt_adr; j < tree.body[b].jnt_adr + tree.body[b].jnt_num; ++j)
    if (tree.joint[j].type == JointType::kSlide || tree.joint[j].type == JointType::kFree) return true;
  return false;
}

// How far body b's origin can move while its hinges and balls turn: twice each joint's anchor offset.
double anchor_sweep(const TreeModel<double>& tree, int b) {
  double sweep = 0.0;
  for (int j = tree.body[b].jnt_adr; j < tree.body[b].jnt_adr + tree.body[b].jnt_num; ++j)
    sweep += 2.0 * norm(tree.joint[j].pos);
  return sweep;
}

// How far body b's centre of mass and geoms reach from its origin.
double body_extent(const JointTreeModel<double>& model, int b, float com_radius) {
  double extent = norm(model.tree.body[b].ipos) + com_radius;
  for (int g = 0; g < model.con.ngeom; ++g)
    if (model.con.geom[g].body == b)
      extent = std::max(extent, norm(model.con.geom[g].pos) + tree_geom_radius(model.con.geom[g]));
  return extent;
}

// How the subtree under `top` turns: kStill without joints, the world axis (0, 1, 2) when every joint is a
// hinge about that one axis at the start (a planar chain, which sweeps a disc), else kAnyWay (a sphere).
constexpr int kStill = -2, kAnyWay = -1;
int turning_axis(const TreeModel<double>& tree, const std::vector<TreeBodyPose>& start,
                 const std::vector<int>& top, int subtree) {
  int axis = kStill;
  for (int b = subtree; b < tree.nbody; ++b) {
    if (top[static_cast<std::size_t>(b)] != subtree) continue;
    for (int j = tree.body[b].jnt_adr; j < tree.body[b].jnt_adr + tree.body[b].jnt_num; ++j) {
      if (tree.joint[j].type != JointType::kHinge) return kAnyWay;
      // A hinge's own turn leaves its axis where it is: the body's start orientation places it.
      const Vec3<double> w = rotate(start[static_cast<std::size_t>(b)].quat, tree.joint[j].axis);
      int k = 0;
      while (k < 3 && std::fabs(w[k]) < 1.0 - 1e-9) ++k;
      if (k == 3 || (axis != kStill && axis != k)) return kAnyWay;
      axis = k;
    }
  }
  return axis;
}

// The parts of the tree that only turn (hinges and balls), each as its top body: how far each one's bodies
// can get from the top's start origin, from link lengths (parents come before their children in a tree).
void turning_subtrees(const JointTreeModel<double>& model, const TreeSkeleton& skeleton,
                      std::vector<int>& top, std::vector<double>& extent) {
  const TreeModel<double>& tree = model.tree;
  const auto n = static_cast<std::size_t>(tree.nbody);
  std::vector<char> turns_only(n, 1);
  for (int b = tree.nbody - 1; b >= 1; --b) {
    if (translates(tree, b)) turns_only[static_cast<std::size_t>(b)] = 0;
    if (!turns_only[static_cast<std::size_t>(b)])
      turns_only[static_cast<std::size_t>(tree.body[b].parent)] = 0;
  }
  top.assign(n, 0);
  extent.assign(n, 0.0);
  std::vector<double> reach(n, 0.0);
  for (int b = 1; b < tree.nbody; ++b) {
    const auto i = static_cast<std::size_t>(b), parent = static_cast<std::size_t>(tree.body[b].parent);
    if (!turns_only[i]) continue;
    const bool first = parent == 0 || !turns_only[parent];
    top[i] = first ? b : top[parent];
    reach[i] = (first ? 0.0 : reach[parent] + norm(tree.body[b].pos)) + anchor_sweep(tree, b);
    const auto t = static_cast<std::size_t>(top[i]);
    extent[t] = std::max(extent[t], reach[i] + body_extent(model, b, skeleton.com_radius[i]));
  }
}

// Whether every joint of the subtree under `subtree` is a limited hinge: its ranges then bound where it
// can go far more tightly than its links' lengths (a humanoid's legs do not fold up to its head).
bool limited_hinges_only(const JointTreeModel<double>& model, const std::vector<int>& top, int subtree) {
  const TreeModel<double>& tree = model.tree;
  for (int b = subtree; b < tree.nbody; ++b) {
    if (top[static_cast<std::size_t>(b)] != subtree) continue;
    for (int j = tree.body[b].jnt_adr; j < tree.body[b].jnt_adr + tree.body[b].jnt_num; ++j)
      if (tree.joint[j].type != JointType::kHinge || !model.con.limit[j].limited) return false;
  }
  return true;
}

// Body b's frame origin, centre of mass (the world has neither) and geoms at `pose`; planes are the ground,
// as wide as needed, never framed.
void add_body(const JointTreeModel<double>& model, const TreeSkeleton& skeleton, int b,
              const TreeBodyPose& pose, SceneBounds& bounds) {
  if (b > 0) {
    add_sphere(bounds, pose.pos, skeleton.link_radius);
    add_sphere(bounds, tree_world_point(pose, model.tree.body[b].ipos),
               skeleton.com_radius[static_cast<std::size_t>(b)]);
  }
  for (int g = 0; g < model.con.ngeom; ++g)
    if (model.con.geom[g].body == b && model.con.geom[g].type != GeomType::plane)
      add_sphere(bounds, tree_world_point(pose, model.con.geom[g].pos), tree_geom_radius(model.con.geom[g]));
}

// Where a subtree of limited hinges goes: its bodies at sampled settings of its hinges, each at one end of
// its range or anywhere between (a fixed pseudo-random sequence, so the framing is the same every time).
void add_sampled_swing(const JointTreeModel<double>& model, const TreeSkeleton& skeleton,
                       const std::vector<int>& top, int subtree, SceneBounds& bounds) {
  constexpr int kSamples = 96;
  const TreeModel<double>& tree = model.tree;
  std::vector<int> hinges;
  for (int b = subtree; b < tree.nbody; ++b)
    if (top[static_cast<std::size_t>(b)] == subtree)
      for (int j = tree.body[b].jnt_adr; j < tree.body[b].jnt_adr + tree.body[b].jnt_num; ++j)
        hinges.push_back(j);
  unsigned long state = 12345;
  const auto uniform = [&state] {
    state = state * 6364136223846793005ul + 1442695040888963407ul;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  for (int s = 0; s < kSamples; ++s) {
    std::vector<std::pair<int, double>> turned;
    for (const int j : hinges) {
      const double* range = model.con.limit[j].range;
      const double pick = uniform(), where = pick < 1.0 / 3 ? 0.0 : pick < 2.0 / 3 ? 1.0 : uniform();
      turned.emplace_back(j, range[0] + where * (range[1] - range[0]));
    }
    const std::vector<TreeBodyPose> poses = tree_start_poses_with(model, turned);
    for (int b = subtree; b < tree.nbody; ++b)
      if (top[static_cast<std::size_t>(b)] == subtree)
        add_body(model, skeleton, b, poses[static_cast<std::size_t>(b)], bounds);
  }
}

// What the turning subtrees sweep, on bounds that already hold the start: where their limited hinges'
// ranges let them go, else a sphere, or a disc across the shared hinge axis (along it nothing moves).
void add_swing(const JointTreeModel<double>& model, const std::vector<TreeBodyPose>& start,
               const TreeSkeleton& skeleton, SceneBounds& bounds) {
  std::vector<int> top;
  std::vector<double> extent;
  turning_subtrees(model, skeleton, top, extent);
  // Sideways and down only: a tree seldom rises above where it starts (a pendulum released from rest
  // cannot), and framing the top half of a hanging chain's sphere would leave half the view empty.
  const float top_z = bounds.max[2];
  for (int b = 1; b < model.tree.nbody; ++b) {
    if (top[static_cast<std::size_t>(b)] != b) continue;
    const int axis = turning_axis(model.tree, start, top, b);
    if (axis == kStill) continue;
    if (limited_hinges_only(model, top, b)) {
      add_sampled_swing(model, skeleton, top, b, bounds);
      continue;
    }
    const double r = extent[static_cast<std::size_t>(b)];
    const double half[3] = {axis == 0 ? 0.0 : r, axis == 1 ? 0.0 : r, axis == 2 ? 0.0 : r};
    add_box(bounds, start[static_cast<std::size_t>(b)].pos, half);
  }
  bounds.max[2] = std::min(bounds.max[2], top_z);
}

// Nothing goes below a floor: the world's planes facing up (a plane's normal is its frame's z).
void above_floor(const JointTreeModel<double>& model, SceneBounds& bounds) {
  for (int g = 0; g < model.con.ngeom; ++g) {
    const TreeGeom<double>& geom = model.con.geom[g];
    if (geom.type != GeomType::plane || geom.body != 0) continue;
    if (rotate(geom.quat, Vec3<double>(0.0, 0.0, 1.0)).z < 1.0 - 1e-9) continue;
    bounds.min[2] = std::max(bounds.min[2], static_cast<float>(geom.pos.z));
  }
}

}  // namespace

float tree_geom_radius(const TreeGeom<double>& geom) {
  if (geom.type == GeomType::plane) return 0.0f;
  if (geom.rbound > 0.0) return static_cast<float>(geom.rbound);
  const float size[3] = {static_cast<float>(geom.size.x), static_cast<float>(geom.size.y),
                         static_cast<float>(geom.size.z)};
  return bounding_radius(geom_type_name(geom.type), size);
}

SceneBounds tree_scene_bounds(const JointTreeModel<double>& model) {
  SceneBounds bounds;
  const std::vector<TreeBodyPose> start = tree_start_poses(model);
  const TreeSkeleton skeleton = tree_skeleton(model);
  bounds.body_size = skeleton.link_radius;
  for (int b = 1; b < model.tree.nbody; ++b)
    bounds.body_size = std::max(bounds.body_size, skeleton.com_radius[static_cast<std::size_t>(b)]);
  for (int g = 0; g < model.con.ngeom; ++g) {
    const TreeGeom<double>& geom = model.con.geom[g];
    // A geom on no body of this tree has no place.
    if (geom.type == GeomType::plane || geom.body < 0 || geom.body >= model.tree.nbody) continue;
    bounds.body_size = std::max(bounds.body_size, tree_geom_radius(geom));
  }
  for (int b = 0; b < model.tree.nbody; ++b)
    add_body(model, skeleton, b, start[static_cast<std::size_t>(b)], bounds);
  add_swing(model, start, skeleton, bounds);
  above_floor(model, bounds);
  return bounds;
}

}  // namespace sg::gui
