#include "gui/view3d/tree_body_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "gui/view3d/contact_lines.hpp"
#include "gui/view3d/tree_pose.hpp"
#include "gui/view3d/tree_skeleton.hpp"
#include "gui/view3d/tree_tendon_lines.hpp"

namespace sg::gui {

namespace {

constexpr std::array<std::array<float, 4>, 4> k_body_colors = {{
    {0.95f, 0.55f, 0.2f, 1.0f},
    {0.3f, 0.6f, 0.95f, 1.0f},
    {0.45f, 0.8f, 0.4f, 1.0f},
    {0.85f, 0.35f, 0.6f, 1.0f},
}};
constexpr std::array<float, 4> k_link_color = {0.78f, 0.78f, 0.8f, 1.0f};
constexpr std::array<float, 4> k_world_color = {0.55f, 0.55f, 0.58f, 1.0f};  // static geoms on the world
constexpr std::array<float, 4> k_ground_color = {0.2f, 0.21f, 0.24f, 1.0f};

render::Shape shape_of(GeomType type) {
  switch (type) {
    case GeomType::plane:
      return render::Shape::kPlane;
    case GeomType::capsule:
      return render::Shape::kCapsule;
    case GeomType::box:
      return render::Shape::kBox;
    case GeomType::mesh:
    case GeomType::hfield:
      return render::Shape::kMesh;
    case GeomType::cylinder:
      return render::Shape::kCylinder;
    case GeomType::ellipsoid:
      return render::Shape::kEllipsoid;
    case GeomType::sphere:
      break;
  }
  return render::Shape::kSphere;
}

const std::array<float, 4>& body_color(int body) {
  return body == 0 ? k_world_color : k_body_colors[static_cast<std::size_t>(body - 1) % k_body_colors.size()];
}

render::Primitive posed(render::Shape shape, const Vec3<double>& pos, const Quat<double>& quat,
                        const std::array<float, 4>& color) {
  render::Primitive prim;
  prim.shape = shape;
  for (int k = 0; k < 3; ++k) prim.pos[k] = static_cast<float>(pos[k]);
  const Quat<double> q = normalized(quat);
  prim.quat[0] = static_cast<float>(q.w), prim.quat[1] = static_cast<float>(q.x);
  prim.quat[2] = static_cast<float>(q.y), prim.quat[3] = static_cast<float>(q.z);
  std::copy(color.begin(), color.end(), prim.color);
  return prim;
}

// The shortest rotation taking the local z axis onto the unit vector d (a capsule's axis).
Quat<double> z_onto(const Vec3<double>& d) {
  if (d.z < -1.0 + 1e-12) return {0.0, 1.0, 0.0, 0.0};
  return normalized(Quat<double>{1.0 + d.z, -d.y, d.x, 0.0});
}

// A mesh's triangles: its own, else its hull's (MuJoCo's graph ends with them); none without either.
std::vector<int> mesh_triangles(const TreeMesh& mesh) {
  if (!mesh.face.empty() || mesh.graph.size() < 2) return mesh.face;
  const std::size_t nv = static_cast<std::size_t>(mesh.graph[0]),
                    nf = static_cast<std::size_t>(mesh.graph[1]);
  const auto first = mesh.graph.begin() + static_cast<std::ptrdiff_t>(2 + 3 * nv + 3 * nf);
  return std::vector<int>(first, first + static_cast<std::ptrdiff_t>(3 * nf));
}

// A height field's surface as triangles in the geom frame, split as MuJoCo's collider splits each cell.
render::MeshData hfield_surface(const HeightField& h) {
  std::vector<double> xyz;
  xyz.reserve(static_cast<std::size_t>(3 * h.nrow * h.ncol));
  for (int r = 0; r < h.nrow; ++r)
    for (int c = 0; c < h.ncol; ++c) {
      xyz.push_back(2.0 * h.size[0] * c / (h.ncol - 1) - h.size[0]);
      xyz.push_back(2.0 * h.size[1] * r / (h.nrow - 1) - h.size[1]);
      xyz.push_back(hfield_height(h, r, c));
    }
  std::vector<int> tri;
  for (int r = 0; r + 1 < h.nrow; ++r)
    for (int c = 0; c + 1 < h.ncol; ++c) {
      const int a = r * h.ncol + c, b = a + 1, up = a + h.ncol, upb = up + 1;
      tri.insert(tri.end(), {a, b, upb, a, upb, up});
    }
  return render::make_faceted_mesh(xyz, tri);
}

// The drawn form of a mesh or height field, made once per shape (both live as long as the process:
// tree_mesh_store.hpp, tree_hfield_store.hpp).
std::shared_ptr<const render::MeshData> drawn_shape(const TreeGeom<double>& geom) {
  static std::mutex lock;
  static std::map<const void*, std::shared_ptr<const render::MeshData>> made;
  const std::lock_guard<std::mutex> hold(lock);
  const void* key = geom.mesh ? static_cast<const void*>(geom.mesh) : static_cast<const void*>(geom.hfield);
  auto& slot = made[key];
  if (!slot)
    slot = std::make_shared<const render::MeshData>(
        geom.mesh ? render::make_faceted_mesh(geom.mesh->vert, mesh_triangles(*geom.mesh))
                  : hfield_surface(geom.hfield->field));
  return slot;
}

// A mesh or height field geom's primitive: its triangles (out.meshes), or its bounding box when it has none.
void set_mesh(const TreeGeom<double>& geom, render::Primitive& prim, render::Scene3D& out) {
  if (!geom.mesh && !geom.hfield) return;
  std::shared_ptr<const render::MeshData> drawn = drawn_shape(geom);
  if (drawn->indices.empty()) {
    prim.shape = render::Shape::kBox;
    return;
  }
  for (std::size_t i = 0; i < out.meshes.size() && prim.mesh < 0; ++i)
    if (out.meshes[i] == drawn) prim.mesh = static_cast<int>(i);
  if (prim.mesh < 0) {
    prim.mesh = static_cast<int>(out.meshes.size());
    out.meshes.push_back(std::move(drawn));
  }
}

void add_geoms(const JointTreeModel<double>& model, const std::vector<TreeBodyPose>& poses,
               render::Scene3D& out) {
  for (int g = 0; g < model.con.ngeom; ++g) {
    const TreeGeom<double>& geom = model.con.geom[g];
    // Planes: the world's are the ground (add_tree_ground); MuJoCo allows them on static bodies only.
    if (geom.type == GeomType::plane || geom.body < 0 || geom.body >= static_cast<int>(poses.size()))
      continue;
    const TreeBodyPose& body = poses[static_cast<std::size_t>(geom.body)];
    render::Primitive prim = posed(shape_of(geom.type), tree_world_point(body, geom.pos),
                                   body.quat * geom.quat, body_color(geom.body));
    for (int k = 0; k < 3; ++k) prim.size[k] = static_cast<float>(geom.size[k]);
    if (geom.type == GeomType::sphere) prim.size[1] = prim.size[2] = prim.size[0];
    if (geom.type == GeomType::mesh || geom.type == GeomType::hfield) set_mesh(geom, prim, out);
    out.prims.push_back(prim);
  }
}

void add_link(const Vec3<double>& from, const Vec3<double>& to, float radius, render::Scene3D& out) {
  const Vec3<double> axis = to - from;
  const double length = norm(axis);
  if (length < 1e-9) return;  // a body at its parent's origin has no link to show
  render::Primitive link =
      posed(render::Shape::kCapsule, 0.5 * (from + to), z_onto(axis / length), k_link_color);
  link.size[0] = link.size[2] = radius;
  link.size[1] = static_cast<float>(0.5 * length);
  out.prims.push_back(link);
}

// Bodies without geoms: the link from the parent's origin (none from the world's, which is no joint) and a
// sphere at the centre of mass.
void add_skeleton(const JointTreeModel<double>& model, const std::vector<TreeBodyPose>& poses,
                  render::Scene3D& out) {
  const TreeSkeleton skeleton = tree_skeleton(model);
  for (int b = 1; b < model.tree.nbody; ++b) {
    if (tree_body_has_geom(model, b)) continue;
    const TreeBodyPose& pose = poses[static_cast<std::size_t>(b)];
    const int parent = model.tree.body[b].parent;
    if (parent > 0)
      add_link(poses[static_cast<std::size_t>(parent)].pos, pose.pos, skeleton.link_radius, out);
    render::Primitive com = posed(render::Shape::kSphere, tree_world_point(pose, model.tree.body[b].ipos),
                                  pose.quat, body_color(b));
    std::fill(com.size, com.size + 3, skeleton.com_radius[static_cast<std::size_t>(b)]);
    out.prims.push_back(com);
  }
}

void add_leaf_trails(const JointTreeModel<double>& model, const Trajectory& tr, int frame,
                     render::Scene3D& out) {
  std::vector<char> leaf(static_cast<std::size_t>(model.tree.nbody), 1);
  for (int b = 1; b < model.tree.nbody; ++b) leaf[static_cast<std::size_t>(model.tree.body[b].parent)] = 0;
  const int last = std::clamp(frame, 0, static_cast<int>(tr.q.size()) - 1);
  for (int b = 1; b < model.tree.nbody && last >= 1; ++b) {
    if (!leaf[static_cast<std::size_t>(b)]) continue;
    std::vector<std::array<float, 3>> trail;
    const std::size_t at = 7 * static_cast<std::size_t>(b - 1);
    for (int f = 0; f <= last; ++f) {
      const std::vector<double>& row = tr.q[static_cast<std::size_t>(f)];
      trail.push_back(
          {static_cast<float>(row[at]), static_cast<float>(row[at + 1]), static_cast<float>(row[at + 2])});
    }
    render::append_polyline(out, trail, render::LineKind::kTrail);
  }
}

// Contact normals a little longer than the typical geom (the mean bounding radius of the non-plane geoms),
// so that they show outside the bodies they start in.
float contact_line_length(const JointTreeModel<double>& model) {
  double sum = 0.0;
  int n = 0;
  for (int g = 0; g < model.con.ngeom; ++g)
    if (model.con.geom[g].type != GeomType::plane) sum += model.con.geom[g].rbound, ++n;
  return n > 0 ? static_cast<float>(2.5 * sum / n) : 0.1f;
}

}  // namespace

void add_tree_bodies(const JointTreeModel<double>& model, const SceneViewOptions& options,
                     render::Scene3D& out) {
  std::vector<TreeBodyPose> poses;
  if (options.trajectory) poses = tree_frame_poses(model, *options.trajectory, options.frame);
  const bool has_frame = !poses.empty();
  if (!has_frame) poses = tree_start_poses(model);
  add_geoms(model, poses, out);
  add_skeleton(model, poses, out);
  add_tendon_lines(model, poses, 0.05f * contact_line_length(model), out);
  if (has_frame && options.trails) add_leaf_trails(model, *options.trajectory, options.frame, out);
  if (has_frame && options.contact_lines)
    add_contact_lines(*options.trajectory, options.frame, contact_line_length(model), out);
}

void add_tree_ground(const JointTreeModel<double>& model, float half_extent, float spacing,
                     render::Scene3D& out) {
  bool any = false;
  for (int g = 0; g < model.con.ngeom; ++g) {
    const TreeGeom<double>& geom = model.con.geom[g];
    if (geom.type != GeomType::plane || geom.body != 0) continue;
    render::Primitive plane = posed(render::Shape::kPlane, geom.pos, geom.quat, k_ground_color);
    plane.size[0] = geom.size.x > 0.0 ? static_cast<float>(geom.size.x) : half_extent;
    plane.size[1] = geom.size.y > 0.0 ? static_cast<float>(geom.size.y) : half_extent;
    plane.size[2] = geom.size.z > 0.0 ? static_cast<float>(geom.size.z) : spacing;
    out.prims.push_back(plane);
    any = true;
  }
  if (any) return;
  render::Primitive grid = posed(render::Shape::kPlane, {}, {}, k_ground_color);
  grid.size[0] = grid.size[1] = half_extent;
  grid.size[2] = spacing;
  out.prims.push_back(grid);
}

}  // namespace sg::gui
