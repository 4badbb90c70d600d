#include "mjcf/keyframe.hpp"

#include <cctype>

#include "mjcf/json_numbers.hpp"
#include "mjcf/mujoco_sim.hpp"

namespace sg::mjcf {
namespace {

using nlohmann::json;

bool is_index(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (const char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string keyframe_list(const mjModel* m) {
  if (m->nkey == 0) return "the file has no keyframes";
  std::string list = "the file's keyframes: ";
  for (int k = 0; k < m->nkey; ++k) {
    const char* name = mj_id2name(m, mjOBJ_KEY, k);
    list += (k > 0 ? ", " : "") + std::to_string(k) + (name ? std::string(" '") + name + "'" : " (unnamed)");
  }
  return list;
}

// The orientation q (w, x, y, z) relative to the body's rest orientation r: conj(r) q.
json relative_quat(const mjtNum* r, const mjtNum* q) {
  mjtNum back[4], rel[4];
  mju_negQuat(back, r);
  mju_mulQuat(rel, back, q);
  return numbers(rel, 4);
}

void start_joint(const mjModel* m, int k, int j, json& body) {
  const mjtNum* qpos = m->key_qpos + k * m->nq + m->jnt_qposadr[j];
  const mjtNum* qvel = m->key_qvel + k * m->nv + m->jnt_dofadr[j];
  json& joint = body["joints"][static_cast<std::size_t>(j - m->body_jntadr[m->jnt_bodyid[j]])];
  switch (m->jnt_type[j]) {
    case mjJNT_HINGE:
    case mjJNT_SLIDE:
      joint["qpos"] = qpos[0], joint["qvel"] = qvel[0];
      break;
    case mjJNT_BALL:
      joint["ball_qpos"] = numbers(qpos, 4), joint["ball_qvel"] = numbers(qvel, 3);
      break;
    default:  // free: the scene's start position is the body's pos, its orientation the body's quat turned
      body["pos"] = numbers(qpos, 3);
      joint["ball_qpos"] = relative_quat(m->body_quat + 4 * m->jnt_bodyid[j], qpos + 3);
      joint["free_vel"] = numbers(qvel, 3), joint["ball_qvel"] = numbers(qvel + 3, 3);
      break;
  }
}

}  // namespace

int find_keyframe(const mjModel* m, const std::string& which, std::string* error) {
  const int named = mj_name2id(m, mjOBJ_KEY, which.c_str());
  if (named >= 0) return named;
  if (is_index(which) && std::stoi(which) < m->nkey) return std::stoi(which);
  *error = "no keyframe '" + which + "' (a key's name or its index); " + keyframe_list(m);
  return -1;
}

std::vector<std::string> keyframe_names(const std::string& path) {
  try {
    std::string error;
    const auto sim = mjcmp::load_mujoco_file(path, &error);
    std::vector<std::string> names;
    if (!sim || !sim->m) return names;
    for (int k = 0; k < sim->m->nkey; ++k) {
      const char* name = mj_id2name(sim->m, mjOBJ_KEY, k);
      names.push_back(name && *name ? std::string(name) : std::to_string(k));
    }
    return names;
  } catch (const std::exception&) {  // out of memory while listing: no keyframes to offer
    return {};
  }
}

void start_tree_keys_at_keyframe(const mjModel* m, int k, json& keys) {
  json& tree = keys["model"]["tree"];
  for (int j = 0; j < m->njnt; ++j)
    start_joint(m, k, j, tree["bodies"][static_cast<std::size_t>(m->jnt_bodyid[j] - 1)]);
  if (!tree.contains("actuators")) return;  // actuation disabled: the scene has none
  for (int i = 0; i < m->nu; ++i) {
    json& a = tree["actuators"][static_cast<std::size_t>(i)];
    a["ctrl"] = m->key_ctrl[k * m->nu + i];
    // MuJoCo 2.2.2 puts the actuators with activation dynamics last: actuator i has act[i - (nu - na)].
    if (m->actuator_dyntype[i] != mjDYN_NONE) a["act"] = m->key_act[k * m->na + i - (m->nu - m->na)];
  }
}

}  // namespace sg::mjcf
