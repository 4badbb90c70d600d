#include "gui/panels/field_visibility.hpp"

#include <set>

#include "engine/scene/path.hpp"

namespace sg::gui {

namespace {

using nlohmann::json;

enum class ModelKind { particles, rigid, tree };

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string text_at(const json& edited, const std::string& path) {
  const auto value = scene::get_path(edited, path);
  return value && value->is_string() ? value->get<std::string>() : std::string();
}

bool adaptive(const json& edited) {
  const std::string t = text_at(edited, "integrator.type");
  return t == "bosh3" || t == "dopri5" || t == "tsit5" || t == "dopri8";
}

ModelKind model_kind(const json& edited) {
  const std::string type = text_at(edited, "model.type");
  return type == "rigid" ? ModelKind::rigid : type == "tree" ? ModelKind::tree : ModelKind::particles;
}

// Particle, rigid and tree scenes share the file format but not every key.
bool field_applies_to_model(const std::string& path, ModelKind model) {
  static const std::set<std::string> rigid_only = {
      "model.collide_bodies", "model.plane.friction", "model.plane.solref", "model.plane.solimp",
      "model.plane.condim",   "collision.softness",   "collision.mode"};
  // MuJoCo's contact options and Contacts From Distance: what free bodies and joint trees both read.
  static const std::set<std::string> bodies_only = {"contact.mujoco.impratio", "contact.mujoco.cone",
                                                    "contact.mujoco.iterations"};
  // Free bodies and trees take their surfaces' friction under hard contact, not contact.hard.friction.
  static const std::set<std::string> particles_only = {"contact.mujoco.solref", "contact.mujoco.solimp",
                                                       "contact.hard.friction"};
  if (starts_with(path, "model.tree.") || starts_with(path, "mpc.")) return model == ModelKind::tree;
  if (starts_with(path, "model.particles")) return model == ModelKind::particles;
  if (starts_with(path, "model.bodies")) return model == ModelKind::rigid;
  if (starts_with(path, "contact.cfd.") || bodies_only.count(path)) return model != ModelKind::particles;
  if (rigid_only.count(path)) return model == ModelKind::rigid;
  if (particles_only.count(path)) return model == ModelKind::particles;
  // A tree reads no model.plane: its ground, if any, is a plane geom on the world body.
  if (starts_with(path, "model.plane.")) return model != ModelKind::tree;
  return true;
}

bool integrator_field_shown(const std::string& path, const json& edited) {
  static const std::set<std::string> adaptive_only = {"integrator.rtol",
                                                      "integrator.atol",
                                                      "integrator.max_steps",
                                                      "integrator.initial_step",
                                                      "integrator.dt_min",
                                                      "integrator.events",
                                                      "integrator.step_to_outputs",
                                                      "gradient.through_controller",
                                                      "gradient.control_tangents"};
  if (starts_with(path, "gradient.tight.")) {  // only with a tight reference, for the integrator's kind
    const std::string reference = text_at(edited, "gradient.reference");
    return !reference.empty() && reference != "fd" && (path == "gradient.tight.rtol") == adaptive(edited);
  }
  if (adaptive_only.count(path) || starts_with(path, "integrator.controller.")) return adaptive(edited);
  if (path == "integrator.substeps") return !adaptive(edited);
  return true;
}

}  // namespace

bool field_shown(const std::string& path, const json& edited) {
  if (!field_applies_to_model(path, model_kind(edited))) return false;
  const std::string contact = text_at(edited, "contact.model");
  // Contacts From Distance extends MuJoCo's contact.
  if (starts_with(path, "contact.cfd.")) return contact == "mujoco";
  if (starts_with(path, "contact.") && path != "contact.model")
    return !contact.empty() && starts_with(path, "contact." + contact + ".");
  return integrator_field_shown(path, edited);
}

}  // namespace sg::gui
