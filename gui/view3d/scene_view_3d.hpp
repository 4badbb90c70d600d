#pragma once
// Turns a resolved scene (and optionally a trajectory frame) into the 3-D view's Scene3D. No physics:
// positions come from the config or from the recorded trajectory. One function per model type, chosen by
// "model.type" ("particles" when absent; "rigid": gui/view3d/rigid_body_view.hpp; "tree":
// gui/view3d/tree_body_view.hpp, which needs the problem's model).
#include <nlohmann/json.hpp>

#include "engine/problem/problem.hpp"
#include "engine/simulate/trajectory.hpp"
#include "render/scene3d.hpp"

namespace sg::gui {

struct SceneViewOptions {
  const Trajectory* trajectory = nullptr;  // when set, bodies are placed at frame `frame`
  int frame = 0;
  bool trails = true;
  bool contact_lines = true;
};

// Particles and rigid bodies from the config alone; a joint tree's bodies need the built model (the first
// overload draws only its ground).
void build_scene_view(const nlohmann::json& config, const SceneViewOptions& options, render::Scene3D& out);
void build_scene_view(const Problem& problem, const SceneViewOptions& options, render::Scene3D& out);

// Drawn radius of a particle: its radius, or a small visual radius for point masses.
float visual_radius(double radius);

}  // namespace sg::gui
