#include "gui/view3d/scene_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "gui/view3d/rigid_body_view.hpp"
#include "gui/view3d/tree_bounds.hpp"

namespace sg::gui {

float bounding_radius(const std::string& shape, const float size[3]) {
  if (shape == "sphere") return size[0];
  if (shape == "capsule") return size[0] + size[1];
  if (shape == "cylinder") return std::hypot(size[0], size[1]);
  if (shape == "box") return std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
  return std::max({size[0], size[1], size[2]});  // ellipsoid
}

SceneBounds rigid_scene_bounds(const nlohmann::json& config) {
  SceneBounds bounds;
  const nlohmann::json& model = config.value("model", nlohmann::json::object());
  if (model.value("type", std::string("particles")) != "rigid") return bounds;
  for (const RigidBodyDescription& body : rigid_bodies(model)) {
    const float r = bounding_radius(body.shape, body.size);
    bounds.body_size = bounds.empty ? r : std::max(bounds.body_size, r);
    for (int k = 0; k < 3; ++k) {
      const float lo = body.pos[k] - r, hi = body.pos[k] + r;
      bounds.min[k] = bounds.empty ? lo : std::min(bounds.min[k], lo);
      bounds.max[k] = bounds.empty ? hi : std::max(bounds.max[k], hi);
    }
    bounds.empty = false;
  }
  const nlohmann::json& plane = model.value("plane", nlohmann::json::object());
  if (!bounds.empty && plane.value("enabled", true)) {
    const float height = plane.value("height", 0.0f);
    bounds.min[2] = std::min(bounds.min[2], height);
    bounds.max[2] = std::max(bounds.max[2], height);
  }
  return bounds;
}

SceneBounds problem_scene_bounds(const Problem& problem) {
  if (problem.data.type == ModelType::tree) return tree_scene_bounds(problem.data.tree);
  return rigid_scene_bounds(problem.config);
}

render::Camera fitted_camera(const nlohmann::json& config) {
  return fitted_camera(rigid_scene_bounds(config));
}

render::Camera fitted_camera(const SceneBounds& bounds) {
  render::Camera camera;
  if (bounds.empty) return camera;
  float half_diagonal = 0.0f;
  for (int k = 0; k < 3; ++k) {
    camera.target[static_cast<std::size_t>(k)] = 0.5f * (bounds.min[k] + bounds.max[k]);
    half_diagonal += 0.25f * (bounds.max[k] - bounds.min[k]) * (bounds.max[k] - bounds.min[k]);
  }
  half_diagonal = std::max(std::sqrt(half_diagonal), 0.02f);
  // The bounding sphere fills about 3/4 of the view's height; keep the default viewing angles.
  camera.distance = std::clamp(half_diagonal / std::tan(0.5f * camera.fov_y) / 0.75f, render::k_min_distance,
                               render::k_max_distance);
  camera.z_near = std::max(camera.distance * 0.01f, 1e-3f);
  return camera;
}

}  // namespace sg::gui
