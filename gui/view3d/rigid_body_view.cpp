#include "gui/view3d/rigid_body_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "gui/view3d/contact_lines.hpp"
#include "gui/view3d/scene_bounds.hpp"

namespace sg::gui {

namespace {

constexpr std::array<std::array<float, 4>, 4> k_body_colors = {{
    {0.93f, 0.91f, 0.85f, 1.0f},  // the first body (e.g. the cue ball) off-white
    {0.95f, 0.55f, 0.2f, 1.0f},
    {0.3f, 0.6f, 0.95f, 1.0f},
    {0.45f, 0.8f, 0.4f, 1.0f},
}};

// (w, x, y, z) Hamilton product a * b.
std::array<double, 4> multiply(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

void read_floats(const nlohmann::json& j, const char* key, float* out, int count) {
  if (!j.contains(key) || !j[key].is_array()) return;
  const nlohmann::json& a = j[key];
  for (int k = 0; k < count && static_cast<std::size_t>(k) < a.size(); ++k)
    if (a[static_cast<std::size_t>(k)].is_number()) out[k] = a[static_cast<std::size_t>(k)].get<float>();
}

}  // namespace

void quat_from_euler_xyz_degrees(const double euler[3], float quat[4]) {
  std::array<double, 4> q{1.0, 0.0, 0.0, 0.0};
  for (int axis = 0; axis < 3; ++axis) {  // intrinsic: q = qx * qy * qz
    const double half = 0.5 * euler[axis] * 3.14159265358979323846 / 180.0;
    std::array<double, 4> r{std::cos(half), 0.0, 0.0, 0.0};
    r[static_cast<std::size_t>(axis + 1)] = std::sin(half);
    q = multiply(q, r);
  }
  for (int k = 0; k < 4; ++k) quat[k] = static_cast<float>(q[static_cast<std::size_t>(k)]);
}

std::vector<RigidBodyDescription> rigid_bodies(const nlohmann::json& model) {
  std::vector<RigidBodyDescription> bodies;
  for (const nlohmann::json& b : model.value("bodies", nlohmann::json::array())) {
    RigidBodyDescription d;
    d.shape = b.value("shape", std::string("sphere"));
    if (b.contains("size") && b["size"].is_array() && !b["size"].empty()) {
      const nlohmann::json& size = b["size"];
      for (std::size_t k = 0; k < 3; ++k) d.size[k] = (k < size.size() ? size[k] : size[0]).get<float>();
    }
    read_floats(b, "pos", d.pos, 3);
    float euler_f[3] = {0.0f, 0.0f, 0.0f};
    read_floats(b, "euler", euler_f, 3);
    const double euler[3] = {euler_f[0], euler_f[1], euler_f[2]};
    quat_from_euler_xyz_degrees(euler, d.quat);
    bodies.push_back(d);
  }
  return bodies;
}

render::Shape shape_of(const std::string& name) {
  if (name == "box") return render::Shape::kBox;
  if (name == "capsule") return render::Shape::kCapsule;
  if (name == "cylinder") return render::Shape::kCylinder;
  if (name == "ellipsoid") return render::Shape::kEllipsoid;
  return render::Shape::kSphere;
}

void add_rigid_bodies(const nlohmann::json& model, const SceneViewOptions& options, render::Scene3D& out) {
  const std::vector<RigidBodyDescription> bodies = rigid_bodies(model);
  const Trajectory* tr = options.trajectory;
  constexpr std::size_t k_q = 7;  // pos (3) + quat (4) per body
  const bool has_frame =
      tr && tr->layout == "rigid" && !tr->q.empty() && tr->q[0].size() >= k_q * bodies.size();
  const int frame = has_frame ? std::clamp(options.frame, 0, static_cast<int>(tr->q.size()) - 1) : 0;
  float body_size = 0.0f;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const RigidBodyDescription& body = bodies[i];
    body_size = std::max(body_size, bounding_radius(body.shape, body.size));
    render::Primitive prim;
    prim.shape = shape_of(body.shape);
    std::copy(body.size, body.size + 3, prim.size);
    std::copy(body.pos, body.pos + 3, prim.pos);
    std::copy(body.quat, body.quat + 4, prim.quat);
    if (has_frame) {
      const std::vector<double>& row = tr->q[static_cast<std::size_t>(frame)];
      for (std::size_t k = 0; k < 3; ++k) prim.pos[k] = static_cast<float>(row[k_q * i + k]);
      for (std::size_t k = 0; k < 4; ++k) prim.quat[k] = static_cast<float>(row[k_q * i + 3 + k]);
    }
    const auto& color = k_body_colors[i % k_body_colors.size()];
    std::copy(color.begin(), color.end(), prim.color);
    out.prims.push_back(prim);
    if (has_frame && options.trails && frame >= 1) {
      std::vector<std::array<float, 3>> trail;
      trail.reserve(static_cast<std::size_t>(frame) + 1);
      for (int f = 0; f <= frame; ++f) {
        const std::vector<double>& row = tr->q[static_cast<std::size_t>(f)];
        trail.push_back({static_cast<float>(row[k_q * i]), static_cast<float>(row[k_q * i + 1]),
                         static_cast<float>(row[k_q * i + 2])});
      }
      render::append_polyline(out, trail, render::LineKind::kTrail);
    }
  }
  if (!has_frame || !options.contact_lines) return;
  // Contact normals start inside the second body (a plane contact points up into the ball), so they are
  // longer than a body's diameter to show outside it, at the scale the camera fits to.
  add_contact_lines(*tr, frame, 2.5f * std::max(body_size, 1e-3f), out);
}

}  // namespace sg::gui
