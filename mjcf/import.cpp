#include "mjcf/import.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/articulated/tree_model.hpp"
#include "engine/model/rigid_model.hpp"
#include "mjcf/check_supported.hpp"
#include "mjcf/keyframe.hpp"
#include "mjcf/map_model.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "mjcf/tree_keys.hpp"

namespace sg::mjcf {
namespace {

// MuJoCo 3 attributes that 2.2.2's schema rejects, with why leaving them out changes nothing here.
std::string newer_mujoco_hint(const std::string& message) {
  if (message.find("'ls_iterations'") != std::string::npos)
    return " (ls_iterations is MuJoCo 3's; libmujoco 2.2.2 does not know it: remove it. softgrad's Newton "
           "runs to convergence with an exact line search)";
  if (message.find("'eulerdamp'") != std::string::npos)
    return " (eulerdamp is MuJoCo 3's; libmujoco 2.2.2 does not know it: remove it. It only matters with "
           "joint damping, which softgrad's import does not support)";
  return "";
}

// mj_loadXML's message spans lines ("XML Error: ...\n\nElement 'option', line 3\n"); one line reads better.
std::string one_line(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      if (!out.empty() && out.back() != ' ') out += "; ";
    } else {
      out += c;
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  for (std::size_t at; (at = out.find("; ; ")) != std::string::npos;) out.erase(at, 2);
  return out;
}

// MuJoCo's warnings (a NaN position it replaces, an unstable state) go to stdout by default, where a user
// reading stderr misses them and the import went on as if nothing happened. While a file is imported on this
// thread they are collected and refuse the import; elsewhere (validate's mj_step) they reach stderr.
thread_local std::vector<std::string>* collecting = nullptr;

void on_mujoco_warning(const char* message) {
  if (collecting)
    collecting->push_back(message);
  else
    std::fprintf(stderr, "MuJoCo warning: %s\n", message);
}

struct WarningCollector {
  std::vector<std::string> messages;
  WarningCollector() { collecting = &messages; }
  ~WarningCollector() { collecting = nullptr; }
  WarningCollector(const WarningCollector&) = delete;
  WarningCollector& operator=(const WarningCollector&) = delete;
};

// <body> elements in the file's text, counted before MuJoCo's compiler sees it: 10,000 bodies took MuJoCo
// 25-33 s and 809 MB before our own check refused them. (Bodies in <include>d files are counted by that
// check.)
long count_body_elements(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  long count = 0;
  for (std::size_t at = text.find("<body"); at != std::string::npos; at = text.find("<body", at + 5)) {
    const char next = at + 5 < text.size() ? text[at + 5] : '\0';
    if (next == ' ' || next == '>' || next == '/' || next == '\t' || next == '\n' || next == '\r') ++count;
  }
  return count;
}

// A joint tree's keys, started from keyframe `key` when it is one (>= 0).
nlohmann::json tree_keys_at(const mjModel* m, int key) {
  nlohmann::json keys = tree_scene_keys(m);
  if (key >= 0) start_tree_keys_at_keyframe(m, key, keys);
  return keys;
}

scene::MjcfKeys fail(const std::string& path, std::vector<std::string> messages) {
  scene::MjcfKeys out;
  for (auto& m : messages) out.errors.push_back(path + ": " + m);
  return out;
}

scene::MjcfKeys import_file(const std::string& path, const std::string& keyframe) {
  // The larger of the two models' capacities (a tree's bodies; free bodies beyond their own limit import as
  // a tree); each import checks its own.
  const long bodies = count_body_elements(path);
  if (bodies > kMaxTreeBodies - 1)
    return fail(path, {std::to_string(bodies) + " <body> elements; softgrad imports at most a tree of " +
                       std::to_string(kMaxTreeBodies - 1) + " bodies"});
  WarningCollector warnings;
  std::string error;
  const auto sim = mjcmp::load_mujoco_file(path, &error);
  if (!sim) return fail(path, {one_line(error) + newer_mujoco_hint(error)});
  const int key = keyframe.empty() ? -1 : find_keyframe(sim->m, keyframe, &error);
  if (!keyframe.empty() && key < 0) {
    scene::MjcfKeys out;
    out.keyframe_error = path + ": " + error;
    return out;
  }
  // The start: qpos0 (mj_resetData), or the keyframe's state, which the free bodies' keys read from d.
  if (key >= 0)
    mj_resetDataKeyframe(sim->m, sim->d, key);
  else
    mj_resetData(sim->m, sim->d);
  mj_kinematics(sim->m, sim->d);
  if (!warnings.messages.empty()) {
    std::vector<std::string> problems;
    for (const std::string& w : warnings.messages)
      problems.push_back("MuJoCo warns while importing: " + one_line(w) +
                         " (refused: the model is not what the file says)");
    return fail(path, std::move(problems));
  }
  scene::MjcfKeys out;
  if (has_joint_tree(sim->m)) {  // hinge, slide or ball joints: a joint tree
    if (auto problems = tree_unsupported(sim->m); !problems.empty()) return fail(path, std::move(problems));
    out.keys = tree_keys_at(sim->m, key);
    return out;
  }
  // Free joints only: softgrad's free bodies where they can hold the model, otherwise a joint tree of free
  // joints, which also takes a body with several geoms, a body welded to another, and world geoms of any
  // shape (a dumbbell, a mug with a handle).
  std::vector<std::string> problems = unsupported(sim->m, sim->d);
  if (bodies <= kMaxBodies && problems.empty()) {
    out.keys = scene_keys(sim->m, sim->d);
    return out;
  }
  if (sim->m->nbody <= 1) return fail(path, std::move(problems));  // nothing moves: no tree either
  std::vector<std::string> tree_problems = tree_unsupported(sim->m);
  if (!tree_problems.empty()) return fail(path, std::move(tree_problems));
  out.keys = tree_keys_at(sim->m, key);
  return out;
}

}  // namespace

scene::MjcfKeys import_mjcf(const std::string& path, const std::string& keyframe) {
  try {
    return import_file(path, keyframe);
  } catch (const std::exception& e) {
    return fail(path, {std::string("import failed: ") + e.what()});
  }
}

void register_importer() {
  scene::set_mjcf_importer(&import_mjcf);
  scene::set_mjcf_keyframe_lister(&keyframe_names);
  mju_user_warning = &on_mujoco_warning;
}

}  // namespace sg::mjcf
