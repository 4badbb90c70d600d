// Cross-field rules of the joint-tree model (model.type "tree"): the tree's shape (parents before
// children), orientations that can be normalised, the engine's capacities, and what trees do not have
// (the particles' contact models; Moreau's steps without hard contact).
#include <cmath>
#include <string>

#include "engine/articulated/tree_model.hpp"
#include "engine/model/tree_controls.hpp"
#include "engine/scene/describe.hpp"
#include "engine/scene/rule_context.hpp"
#include "engine/scene/text_limits.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

std::string body_path(std::size_t i) {
  return "model.tree.bodies." + std::to_string(i);
}

void tree_needs_bodies(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto bodies = ctx.value("model.tree.bodies");
  if (!bodies || !bodies->is_array() || !bodies->empty()) return;
  errors.push_back({"model.tree.bodies", "model.type \"tree\" needs at least one body, got 0 entries"});
}

// MuJoCo's body order: a parent precedes its children, so -1 (the world) or an earlier index.
void parents_precede(const RuleContext& ctx, std::vector<Issue>& errors) {
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i) {
    const std::string path = body_path(i) + ".parent";
    const auto parent = ctx.number(path);
    if (!parent || *parent < static_cast<double>(i)) continue;
    errors.push_back(
        {path, "parent " + format_number(*parent) + " must be -1 (the world) or an earlier body (0 to " +
                   std::to_string(static_cast<long>(i) - 1) + "): a parent precedes its children"});
  }
}

// A direction or orientation that normalisation cannot rescue.
void not_zero(const RuleContext& ctx, const std::string& path, const char* what, std::vector<Issue>& errors) {
  const auto v = ctx.value(path);
  if (!v || !v->is_array()) return;
  double norm2 = 0.0;
  for (const json& x : *v)
    if (x.is_number()) norm2 += x.get<double>() * x.get<double>();
  if (norm2 > 1e-30) return;
  errors.push_back({path, std::string("a zero ") + what + " has no direction (it is normalised on loading)"});
}

void orientations(const RuleContext& ctx, std::vector<Issue>& errors) {
  for (std::size_t i = 0; i < ctx.count("model.tree.sites"); ++i)
    not_zero(ctx, "model.tree.sites." + std::to_string(i) + ".quat", "quaternion", errors);
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i) {
    const std::string b = body_path(i);
    not_zero(ctx, b + ".quat", "quaternion", errors);
    not_zero(ctx, b + ".iquat", "quaternion", errors);
    for (std::size_t k = 0; k < ctx.count(b + ".joints"); ++k) {
      const std::string j = b + ".joints." + std::to_string(k);
      const auto type = ctx.text(j + ".type");
      if (type && (*type == "ball" || *type == "free"))
        not_zero(ctx, j + ".ball_qpos", "quaternion", errors);
      else
        not_zero(ctx, j + ".axis", "axis", errors);
    }
  }
}

// engine/articulated's fixed capacities (tree_model.hpp).
void capacity(const RuleContext& ctx, std::vector<Issue>& errors) {
  long joints = 0, dofs = 0;
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i)
    for (std::size_t k = 0; k < ctx.count(body_path(i) + ".joints"); ++k) {
      const auto type = ctx.text(body_path(i) + ".joints." + std::to_string(k) + ".type");
      ++joints;
      dofs += type && *type == "free" ? 6 : type && *type == "ball" ? 3 : 1;
    }
  if (joints > kMaxJoints || dofs > kMaxDofs)
    errors.push_back({"model.tree.bodies", "the tree has " + std::to_string(joints) + " joints and " +
                                               std::to_string(dofs) + " dofs; at most " +
                                               std::to_string(kMaxJoints) + " joints and " +
                                               std::to_string(kMaxDofs) + " dofs fit"});
}

// The body and joint path of the joint called `name`, or empty when none or several are.
std::vector<std::string> joints_named(const RuleContext& ctx, const std::string& name) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i)
    for (std::size_t k = 0; k < ctx.count(body_path(i) + ".joints"); ++k) {
      const std::string j = body_path(i) + ".joints." + std::to_string(k);
      const auto n = ctx.text(j + ".name");
      if (n && *n == name) out.push_back(j);
    }
  return out;
}

// An actuator's joint_name names exactly one joint.
void actuator_joint_name(const RuleContext& ctx, const std::string& a, const std::string& name,
                         std::vector<Issue>& errors) {
  const std::vector<std::string> found = joints_named(ctx, name);
  if (found.size() != 1) {
    errors.push_back({a + ".joint_name", "\"" + shorten(name) + "\" names " +
                                             (found.empty() ? "no joint" : "several joints") +
                                             " (model.tree.bodies.*.joints.*.name)"});
    return;
  }
}

// An actuator names an existing joint by body and joint index (or by joint_name).
void actuator_joint(const RuleContext& ctx, const std::string& a, std::vector<Issue>& errors) {
  const auto name = ctx.text(a + ".joint_name");
  if (name && !name->empty()) return actuator_joint_name(ctx, a, *name, errors);
  const auto body = ctx.number(a + ".body"), joint = ctx.number(a + ".joint");
  if (!body || !joint) return;
  const std::size_t bodies = ctx.count("model.tree.bodies");
  if (*body >= static_cast<double>(bodies)) {
    errors.push_back({a + ".body", "body " + format_number(*body) +
                                       " does not exist (model.tree.bodies has " + std::to_string(bodies) +
                                       " entries)"});
    return;
  }
  const std::string b = body_path(static_cast<std::size_t>(*body));
  const std::size_t joints = ctx.count(b + ".joints");
  if (*joint >= static_cast<double>(joints)) {
    errors.push_back({a + ".joint", "joint " + format_number(*joint) + " does not exist (" + b +
                                        ".joints has " + std::to_string(joints) + " entries)"});
  }
}

// A limited range needs lo <= hi (MuJoCo's compiler refuses the others too).
void ordered_range(const RuleContext& ctx, const std::string& a, const char* which,
                   std::vector<Issue>& errors) {
  const auto limited = ctx.value(a + "." + which + "limited");
  if (!limited || !limited->is_boolean() || !limited->get<bool>()) return;
  const auto range = ctx.value(a + "." + which + "range");
  if (!range || !range->is_array() || range->size() != 2 || !(*range)[0].is_number() ||
      !(*range)[1].is_number())
    return;
  if ((*range)[0].get<double>() <= (*range)[1].get<double>()) return;
  errors.push_back({a + "." + which + "range", std::string("lo > hi with ") + which + "limited true"});
}

void actuators(const RuleContext& ctx, std::vector<Issue>& errors) {
  for (std::size_t i = 0; i < ctx.count("model.tree.actuators"); ++i) {
    const std::string a = "model.tree.actuators." + std::to_string(i);
    const auto tendon = ctx.text(a + ".tendon"), crank = ctx.text(a + ".cranksite"),
               site = ctx.text(a + ".site");
    // A tendon's, a slider-crank's or a site's names are checked when the model is built.
    const auto empty = [](const std::optional<std::string>& t) { return !t || t->empty(); };
    if (empty(tendon) && empty(crank) && empty(site)) actuator_joint(ctx, a, errors);
    ordered_range(ctx, a, "ctrl", errors);
    ordered_range(ctx, a, "force", errors);
  }
}

// Hinge, slide, ball and tendon limits (a free joint has none), lo <= hi.
void joint_limits(const RuleContext& ctx, std::vector<Issue>& errors) {
  for (std::size_t t = 0; t < ctx.count("model.tree.tendons"); ++t)
    ordered_range(ctx, "model.tree.tendons." + std::to_string(t), "", errors);
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i)
    for (std::size_t k = 0; k < ctx.count(body_path(i) + ".joints"); ++k) {
      const std::string j = body_path(i) + ".joints." + std::to_string(k);
      ordered_range(ctx, j, "", errors);
      const auto limited = ctx.value(j + ".limited");
      const auto type = ctx.text(j + ".type");
      if (limited && limited->is_boolean() && limited->get<bool>() && type && *type == "free")
        errors.push_back({j + ".limited", "a free joint has no limits (hinge, slide or ball only)"});
    }
}

// MuJoCo's free joint: the only joint of a body whose parent is the world (its pose is the joint's qpos).
void free_joints(const RuleContext& ctx, std::vector<Issue>& errors) {
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i) {
    const std::size_t joints = ctx.count(body_path(i) + ".joints");
    for (std::size_t k = 0; k < joints; ++k) {
      const std::string j = body_path(i) + ".joints." + std::to_string(k);
      const auto type = ctx.text(j + ".type");
      if (!type || *type != "free") continue;
      const auto parent = ctx.number(body_path(i) + ".parent");
      if (parent && *parent != -1.0)
        errors.push_back(
            {j + ".type", "a free joint needs a body whose parent is the world (-1), got parent " +
                              format_number(*parent)});
      else if (joints != 1)
        errors.push_back({j + ".type", "a free joint must be its body's only joint (the body has " +
                                           std::to_string(joints) + ")"});
    }
  }
}

// Trees collide their geoms with MuJoCo's soft contacts or the analytic-smoothing paper's hard contact; the
// other contact models are the particles'.
void contact_model(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto model = ctx.text("contact.model");
  if (model && *model != "none" && *model != "mujoco" && *model != "hard")
    errors.push_back({"contact.model", "\"" + shorten(*model) +
                                           "\": joint trees collide with MuJoCo's soft contacts or hard "
                                           "contact; model.type \"tree\" needs contact.model mujoco, hard "
                                           "or none"});
}

// The size components a geom's type reads are positive (MuJoCo's compiler refuses the others).
void geom_sizes(const RuleContext& ctx, const std::string& array, std::vector<Issue>& errors) {
  for (std::size_t k = 0; k < ctx.count(array); ++k) {
    const std::string g = array + "." + std::to_string(k);
    const auto type = ctx.text(g + ".type");
    const auto size = ctx.value(g + ".size");
    if (!type || !size || !size->is_array() || size->size() != 3) continue;
    const std::size_t used = *type == "plane" || *type == "mesh" || *type == "hfield"
                                 ? 0  // a mesh's: its aabb; a field's: its own size
                             : *type == "sphere"                           ? 1
                             : (*type == "capsule" || *type == "cylinder") ? 2
                                                                           : 3;
    for (std::size_t c = 0; c < used; ++c)
      if ((*size)[c].is_number() && !((*size)[c].get<double>() > 0.0)) {
        errors.push_back({g + ".size." + std::to_string(c),
                          "a " + *type + " needs size component " + std::to_string(c) + " > 0"});
        break;
      }
    not_zero(ctx, g + ".quat", "quaternion", errors);
  }
}

void geoms(const RuleContext& ctx, std::vector<Issue>& errors) {
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i)
    geom_sizes(ctx, body_path(i) + ".geoms", errors);
  geom_sizes(ctx, "model.tree.world_geoms", errors);
}

// control.actuators.N drives model.tree.actuators.N; the knots fit the engine's capacity.
void controls(const RuleContext& ctx, std::vector<Issue>& errors) {
  const std::size_t actuators = ctx.count("model.tree.actuators");
  std::size_t total = 0;
  for (std::size_t i = 0; i < ctx.count("control.actuators"); ++i) {
    const std::string path = "control.actuators." + std::to_string(i);
    const std::size_t knots = ctx.count(path + ".knots");
    total += knots;
    if (knots > 0 && i >= actuators)
      errors.push_back({path, "no actuator " + std::to_string(i) + " to drive (model.tree.actuators has " +
                                  std::to_string(actuators) + ")"});
  }
  if (total > static_cast<std::size_t>(kMaxControlKnots))
    errors.push_back({"control.actuators", std::to_string(total) + " knots; at most " +
                                               std::to_string(kMaxControlKnots) + " in all"});
}

// Moreau's midpoint steps hard contact's impulses; a tree with MuJoCo's soft contacts takes the other
// integrators.
void moreau_with_hard_contact(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto type = ctx.text("integrator.type"), model = ctx.text("contact.model");
  if (!type || *type != "moreau" || (model && *model == "hard")) return;
  errors.push_back({"integrator.type",
                    "\"moreau\" steps impulsive (hard) contact: with a joint tree it needs contact.model "
                    "hard (or choose euler, rk4 or an adaptive method)"});
}

}  // namespace

void check_tree_rules(const RuleContext& ctx, std::vector<Issue>& errors) {
  if (!ctx.is_tree()) return;
  tree_needs_bodies(ctx, errors);
  parents_precede(ctx, errors);
  orientations(ctx, errors);
  capacity(ctx, errors);
  actuators(ctx, errors);
  joint_limits(ctx, errors);
  free_joints(ctx, errors);
  controls(ctx, errors);
  contact_model(ctx, errors);
  geoms(ctx, errors);
  moreau_with_hard_contact(ctx, errors);
}

}  // namespace sg::scene
