#pragma once
// An mjModel that passed mjcf/check_supported.hpp as the rigid scene keys it means: model.bodies (geom
// frames at qpos0), model.plane, model.gravity, model.collide_bodies, contact.model, contact.mujoco
// (refsafe, impratio, cone) and integrator (dt, type). docs/mujoco-validation.md has the table.
#include <mujoco/mujoco.h>

#include <nlohmann/json.hpp>

namespace sg::mjcf {

// d holds the model's kinematics at qpos0 (mj_kinematics).
nlohmann::json scene_keys(const mjModel* m, const mjData* d);

}  // namespace sg::mjcf
