#pragma once
// Where a scene's bodies start (from the config, before any trajectory) and a camera that frames them.
#include <string>

#include <nlohmann/json.hpp>

#include "engine/problem/problem.hpp"
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

// What the camera frames for a loaded problem: rigid bodies from its config, a joint tree's bodies at the
// start of a run (tree_bounds.hpp); empty for particles.
SceneBounds problem_scene_bounds(const Problem& problem);

// Bounding radius of a rigid body of this MuJoCo shape and size.
float bounding_radius(const std::string& shape, const float size[3]);

// Target at the bounds' centre, distance so the bounds fill about 3/4 of the view's height; the default
// camera for empty bounds (the particle scenes are laid out for it).
render::Camera fitted_camera(const SceneBounds& bounds);
// The same for a rigid scene's config.
render::Camera fitted_camera(const nlohmann::json& config);

}  // namespace sg::gui
