#include "engine/scene/cross_rules.hpp"

#include "engine/scene/text_limits.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include "engine/scene/describe.hpp"
#include "engine/scene/path.hpp"
#include "engine/scene/rule_context.hpp"
#include "engine/scene/scene.hpp"
#include "engine/scene/suggest.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

void sweep_range(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto from = ctx.number("sweep.from"), to = ctx.number("sweep.to");
  const auto points = ctx.number("sweep.points");
  if (!from || !to || !points) return;
  if (*points == 1 ? *from <= *to : *from < *to) return;
  const std::string relation = *from > *to ? " > " : " = ";
  const std::string need = *points == 1 ? "must not exceed sweep.to" : "must be less than sweep.to";
  errors.push_back(
      {"sweep.from", need + " (got " + format_number(*from) + relation + format_number(*to) + ")"});
}

// Only joint trees have actuators for the control section to drive.
void controls_need_a_tree(const RuleContext& ctx, std::vector<Issue>& errors) {
  if (ctx.is_tree()) return;
  for (std::size_t i = 0; i < ctx.count("control.actuators"); ++i)
    if (ctx.count("control.actuators." + std::to_string(i) + ".knots") > 0) {
      errors.push_back({"control.actuators", "only joint trees (model.type tree) have actuators to control"});
      return;
    }
}

// Keyframes come with an MJCF file: the import reads them (engine/scene/mjcf_source.hpp); a hand-written
// scene has none.
void keyframe_needs_mjcf(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto keyframe = ctx.text("model.keyframe"), file = ctx.text("model.file");
  if (!keyframe || keyframe->empty() || (file && !file->empty())) return;
  errors.push_back({"model.keyframe",
                    "only a model imported from MJCF (model.type mjcf with model.file) has "
                    "keyframes; set the start with the scene's own keys"});
}

void sweep_parameter(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto parameter = ctx.text("sweep.parameter");
  if (!parameter) return;
  if (ctx.is_rigid() && ctx.count("model.bodies") == 0) return;  // the missing bodies are reported instead
  if (ctx.is_tree() && ctx.count("model.tree.bodies") == 0) return;
  const auto candidates = differentiable_paths(ctx.config());
  if (std::find(candidates.begin(), candidates.end(), *parameter) != candidates.end()) return;
  std::string message = "\"" + shorten(*parameter) + "\" is not a differentiable parameter";
  if (const auto close = nearest(*parameter, candidates)) message += " (did you mean \"" + *close + "\"?)";
  errors.push_back({"sweep.parameter", message});
}

void loss_bodies(const RuleContext& ctx, std::vector<Issue>& errors) {
  // Tree bodies count like free bodies; the message names them the same way.
  const bool rigid = ctx.is_rigid() || ctx.is_tree();
  const auto scored =
      ctx.value(ctx.is_tree() ? "model.tree.bodies" : (rigid ? "model.bodies" : "model.particles"));
  const auto terms = ctx.value("loss.terms");
  if (!scored || !terms || !scored->is_array() || !terms->is_array()) return;
  const std::size_t n = scored->size();
  if (rigid && n == 0) return;  // reported by the rigid or tree rules as a missing body
  const std::string noun = rigid ? (n == 1 ? "body" : "bodies") : (n == 1 ? "particle" : "particles");
  for (std::size_t i = 0; i < terms->size(); ++i) {
    const std::string path = "loss.terms." + std::to_string(i) + ".body";
    const auto body = ctx.number(path);
    if (body && *body >= static_cast<double>(n))
      errors.push_back({path, std::string(rigid ? "body" : "particle") + " index " + format_number(*body) +
                                  " out of range (the scene has " + std::to_string(n) + " " + noun + ")"});
  }
}

void contact_needs_integrator(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto model = ctx.text("contact.model"), type = ctx.text("integrator.type");
  if (!model || !type) return;
  // Impulse-based models change velocities at an instant, which only their own integrators handle.
  const char* needed = *model == "elastic" ? "euler" : *model == "hard" ? "moreau" : nullptr;
  if (!needed || *type == needed) return;
  errors.push_back({"integrator.type", "contact.model \"" + *model + "\" requires integrator.type \"" +
                                           needed + "\", got \"" + *type +
                                           "\" (choose integrator.type=" + needed + ")"});
}

void dt_min_below_dt(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto dt_min = ctx.number("integrator.dt_min"), dt = ctx.number("integrator.dt");
  if (!dt_min || !dt || *dt_min < *dt) return;
  errors.push_back({"integrator.dt_min", "must be less than integrator.dt (got " + format_number(*dt_min) +
                                             " >= " + format_number(*dt) + ")"});
}

// Located contact events work within output intervals, so an adaptive solve that steps across output times
// must step across contact switches too.
void step_to_outputs_needs_no_events(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto to_outputs = ctx.value("integrator.step_to_outputs"), events = ctx.value("integrator.events");
  if (!to_outputs || !events || !to_outputs->is_boolean() || !events->is_boolean()) return;
  if (to_outputs->get<bool>() || !events->get<bool>()) return;
  if (!ctx.adaptive_integrator()) return;
  errors.push_back({"integrator.step_to_outputs",
                    "false needs integrator.events = false (contact events are located within output "
                    "intervals; set integrator.events=false to step across them as DiffMJX)"});
}

// Reverse mode and backsolve differentiate the run with its step sizes frozen, and carry no tangents
// during the run; backsolve integrates backwards with the scene's adaptive method.
void reverse_mode_needs_frozen_steps(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto mode = ctx.text("gradient.mode");
  if (!mode || (*mode != "reverse" && *mode != "backsolve")) return;
  for (const char* key : {"gradient.through_controller", "gradient.control_tangents"}) {
    const auto on = ctx.value(key);
    if (on && on->is_boolean() && on->get<bool>())
      errors.push_back({key, "true needs gradient.mode = forward (" + *mode +
                                 " differentiates the run with its step sizes frozen and carries no "
                                 "tangents while it runs)"});
  }
  const auto type = ctx.text("integrator.type");
  if (*mode == "backsolve" && type && !ctx.adaptive_integrator())
    errors.push_back(
        {"gradient.mode",
         "backsolve needs an adaptive integrator (integrator.type = tsit5, dopri5, dopri8 or bosh3; "
         "it is " +
             *type + ")"});
}

const std::vector<Rule>& rules() {
  static const std::vector<Rule> table = {sweep_range,
                                          sweep_parameter,
                                          loss_bodies,
                                          controls_need_a_tree,
                                          keyframe_needs_mjcf,
                                          contact_needs_integrator,
                                          dt_min_below_dt,
                                          step_to_outputs_needs_no_events,
                                          reverse_mode_needs_frozen_steps,
                                          check_mujoco_parameters,
                                          check_rigid_rules,
                                          check_tree_rules};
  return table;
}

}  // namespace

void check_cross_rules(const json& config, std::vector<Issue>& errors) {
  const std::vector<Issue> prior = errors;  // rules do not react to each other's findings
  const RuleContext ctx(config, prior);
  for (const auto& rule : rules()) rule(ctx, errors);
}

}  // namespace sg::scene
