#include "gui/view3d/scene_view_3d.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "gui/view3d/rigid_body_view.hpp"
#include "gui/view3d/scene_bounds.hpp"
#include "gui/view3d/tree_body_view.hpp"
#include "gui/view3d/tree_bounds.hpp"

namespace sg::gui {

namespace {

constexpr std::array<std::array<float, 4>, 4> k_body_colors = {{
    {0.95f, 0.55f, 0.2f, 1.0f},
    {0.3f, 0.6f, 0.95f, 1.0f},
    {0.45f, 0.8f, 0.4f, 1.0f},
    {0.85f, 0.35f, 0.6f, 1.0f},
}};

double number_at(const nlohmann::json& j, const char* key, double fallback) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

std::array<float, 3> vec3_at(const std::vector<std::vector<double>>& rows, int frame, std::size_t body) {
  const auto& row = rows[static_cast<std::size_t>(frame)];
  return {static_cast<float>(row[3 * body]), static_cast<float>(row[3 * body + 1]),
          static_cast<float>(row[3 * body + 2])};
}

void add_plane(const nlohmann::json& model, float half_extent, float spacing, render::Scene3D& out) {
  const nlohmann::json& plane = model.value("plane", nlohmann::json::object());
  if (!plane.value("enabled", true)) return;
  render::Primitive prim;
  prim.shape = render::Shape::kPlane;
  prim.pos[2] = static_cast<float>(number_at(plane, "height", 0.0));
  prim.size[0] = prim.size[1] = half_extent;
  prim.size[2] = spacing;
  prim.color[0] = 0.2f, prim.color[1] = 0.21f, prim.color[2] = 0.24f;
  out.prims.push_back(prim);
}

// Particles ("model.particles"): spheres, contact force lines and trails.
void add_particles(const nlohmann::json& model, const SceneViewOptions& options, render::Scene3D& out) {
  const nlohmann::json& particles = model.value("particles", nlohmann::json::array());
  const Trajectory* tr = options.trajectory;
  const bool has_frame = tr && !tr->q.empty();
  const int frame = has_frame ? std::clamp(options.frame, 0, static_cast<int>(tr->q.size()) - 1) : 0;
  const double plane_height = number_at(model.value("plane", nlohmann::json::object()), "height", 0.0);
  double max_force = 0.0;
  if (tr)
    for (const auto& row : tr->force)
      for (double f : row) max_force = std::max(max_force, std::fabs(f));
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const nlohmann::json& p = particles[i];
    std::array<float, 3> pos{0.0f, 0.0f, 0.0f};
    if (has_frame && tr->q[0].size() >= 3 * (i + 1)) {
      pos = vec3_at(tr->q, frame, i);
    } else if (p.contains("pos")) {
      for (int k = 0; k < 3; ++k)
        pos[static_cast<std::size_t>(k)] = p["pos"][static_cast<std::size_t>(k)].get<float>();
    }
    const float radius = visual_radius(number_at(p, "radius", 0.0));
    render::Primitive sphere;
    sphere.shape = render::Shape::kSphere;
    sphere.size[0] = sphere.size[1] = sphere.size[2] = radius;
    std::copy(pos.begin(), pos.end(), sphere.pos);
    const auto& color = k_body_colors[i % k_body_colors.size()];
    std::copy(color.begin(), color.end(), sphere.color);
    out.prims.push_back(sphere);
    if (!has_frame) continue;
    if (options.trails) {
      std::vector<std::array<float, 3>> trail;
      for (int f = 0; f <= frame; ++f) trail.push_back(vec3_at(tr->q, f, i));
      if (trail.size() >= 2) render::append_polyline(out, trail, render::LineKind::kTrail);
    }
    const double force = i < tr->force[static_cast<std::size_t>(frame)].size()
                             ? tr->force[static_cast<std::size_t>(frame)][i]
                             : 0.0;
    if (options.contact_lines && max_force > 0.0 && std::fabs(force) > 1e-9 * max_force) {
      // The normal force along the plane normal (+z), 1 m for the largest force of the trajectory.
      render::Line line;
      line.kind = render::LineKind::kContactNormal;
      line.from[0] = line.to[0] = pos[0];
      line.from[1] = line.to[1] = pos[1];
      line.from[2] = static_cast<float>(plane_height);
      line.to[2] = static_cast<float>(plane_height + force / max_force);
      out.lines.push_back(line);
    }
  }
}

float scene_extent(const nlohmann::json& model) {
  float extent = 1.5f;
  for (const nlohmann::json& p : model.value("particles", nlohmann::json::array())) {
    if (!p.contains("pos")) continue;
    for (int k = 0; k < 2; ++k)
      extent = std::max(extent, 1.5f * std::fabs(p["pos"][static_cast<std::size_t>(k)].get<float>()));
  }
  return extent;
}

// The ground under the bounds with room to swing; grid lines every 5 cm or 0.25 m.
void ground_for(const SceneBounds& bounds, float* half_extent, float* spacing) {
  float reach = 0.25f;
  for (int k = 0; k < 2; ++k) reach = std::max({reach, std::fabs(bounds.min[k]), std::fabs(bounds.max[k])});
  *half_extent = 2.0f * reach;
  *spacing = *half_extent > 1.5f ? 0.25f : 0.05f;
}

}  // namespace

float visual_radius(double radius) {
  return radius > 0.0 ? static_cast<float>(radius) : 0.1f;
}

void build_scene_view(const nlohmann::json& config, const SceneViewOptions& options, render::Scene3D& out) {
  const nlohmann::json& model = config.value("model", nlohmann::json::object());
  const std::string type = model.value("type", std::string("particles"));
  if (type == "rigid") {
    // The plane covers the bodies' start with room to roll.
    float half_extent = 0.0f, spacing = 0.0f;
    ground_for(rigid_scene_bounds(config), &half_extent, &spacing);
    add_plane(model, half_extent, spacing, out);
    add_rigid_bodies(model, options, out);
    return;
  }
  const float extent = scene_extent(model);
  add_plane(model, extent, extent > 4.0f ? 1.0f : 0.25f, out);
  if (type == "particles") add_particles(model, options, out);
}

void build_scene_view(const Problem& problem, const SceneViewOptions& options, render::Scene3D& out) {
  if (problem.data.type != ModelType::tree) return build_scene_view(problem.config, options, out);
  float half_extent = 0.0f, spacing = 0.0f;
  ground_for(tree_scene_bounds(problem.data.tree), &half_extent, &spacing);
  add_tree_ground(problem.data.tree, half_extent, spacing, out);
  add_tree_bodies(problem.data.tree, options, out);
}

}  // namespace sg::gui
