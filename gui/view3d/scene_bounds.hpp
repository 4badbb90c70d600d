#pragma once
// Where a scene's bodies start (from the config, before any trajectory) and a camera that frames them.
#include <nlohmann/json.hpp>

#include "render/camera.hpp"

namespace sg::gui {

struct SceneBounds {
  float min[3] = {0.0f, 0.0f, 0.0f};
  float max[3] = {0.0f, 0.0f, 0.0f};
  float body_size = 0.1f;  // largest bounding radius of a body (the scale for contact lines)
  bool empty = true;
};

// Axis-aligned box around every rigid body's bounding sphere at its initial pos, plus the plane height when
// the plane is enabled. Particle scenes have no sizes worth fitting to: empty bounds.
SceneBounds rigid_scene_bounds(const nlohmann::json& config);

// Bounding radius of a rigid body of this MuJoCo shape and size.
float bounding_radius(const std::string& shape, const float size[3]);

// Rigid scenes: target at the bounds' centre, distance so the bounds fill about 3/4 of the view's height.
// Otherwise the default camera (the particle scenes are laid out for it).
render::Camera fitted_camera(const nlohmann::json& config);

}  // namespace sg::gui
