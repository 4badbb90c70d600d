#pragma once
// MJCF keyframes (<keyframe><key>): MuJoCo keeps them beside the model and starts from qpos0 unless asked
// (mj_resetDataKeyframe); the scene's model.keyframe asks, by the key's name or its index.
#include <string>
#include <vector>

#include <mujoco/mujoco.h>
#include <nlohmann/json.hpp>

namespace sg::mjcf {

// The index of the keyframe `which` names (its name, or its index written in decimal), or -1 with *error
// saying why and naming the keyframes the file has.
int find_keyframe(const mjModel* m, const std::string& which, std::string* error);

// The keyframes of the MJCF file at path, as model.keyframe names them: each key's name, an unnamed key's
// index; empty when the file has none or does not load (scene::MjcfKeyframeLister).
std::vector<std::string> keyframe_names(const std::string& path);

// A joint tree's scene keys (tree_scene_keys) started from keyframe k: each hinge and slide joint's qpos and
// qvel, each ball joint's ball_qpos and ball_qvel, each free joint's body pos, ball_qpos (relative to the
// body's quat, as the key reads) and free_vel and ball_qvel, each actuator's ctrl and activation act.
void start_tree_keys_at_keyframe(const mjModel* m, int k, nlohmann::json& keys);

}  // namespace sg::mjcf
