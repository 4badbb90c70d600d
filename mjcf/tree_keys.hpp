#pragma once
// MJCF models with joints other than free ones import as joint trees (model.type "tree"): what the tree
// cannot express yet is refused, one message per element, and the rest becomes model.tree keys (bodies,
// joints, geoms, actuators) with contact.mujoco from the options.
#include <mujoco/mujoco.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sg::mjcf {

// Whether the model has a hinge, slide or ball joint (else it is free bodies, the rigid import's).
bool has_joint_tree(const mjModel* m);

// What a tree scene cannot simulate yet: contacts between geoms (unless disabled), joint limits, friction
// loss, free joints inside a tree, actuators, tendons, equality constraints, keyframes, fluid forces.
std::vector<std::string> tree_unsupported(const mjModel* m);

// The scene keys: model.type "tree", model.gravity, model.tree.bodies, contact.model "none",
// integrator.dt and integrator.type.
nlohmann::json tree_scene_keys(const mjModel* m);

}  // namespace sg::mjcf
