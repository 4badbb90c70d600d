#include "mjcf/import.hpp"

#include "mjcf/check_supported.hpp"
#include "mjcf/map_model.hpp"
#include "mjcf/mujoco_sim.hpp"

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

scene::MjcfKeys fail(const std::string& path, std::vector<std::string> messages) {
  scene::MjcfKeys out;
  for (auto& m : messages) out.errors.push_back(path + ": " + m);
  return out;
}

scene::MjcfKeys import_file(const std::string& path) {
  std::string error;
  const auto sim = mjcmp::load_mujoco_file(path, &error);
  if (!sim) return fail(path, {one_line(error) + newer_mujoco_hint(error)});
  mj_resetData(sim->m, sim->d);
  mj_kinematics(sim->m, sim->d);
  if (auto problems = unsupported(sim->m, sim->d); !problems.empty()) return fail(path, std::move(problems));
  scene::MjcfKeys out;
  out.keys = scene_keys(sim->m, sim->d);
  return out;
}

}  // namespace

scene::MjcfKeys import_mjcf(const std::string& path) {
  try {
    return import_file(path);
  } catch (const std::exception& e) {
    return fail(path, {std::string("import failed: ") + e.what()});
  }
}

void register_importer() {
  scene::set_mjcf_importer(&import_mjcf);
}

}  // namespace sg::mjcf
