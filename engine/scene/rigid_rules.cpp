// Cross-field rules of the rigid-body model (model.type "rigid") and of Contacts From Distance.
#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include "engine/collision/collide.hpp"
#include "engine/scene/describe.hpp"
#include "engine/scene/rule_context.hpp"
#include "engine/scene/text_limits.hpp"

namespace sg::scene {
namespace {

std::string body_path(std::size_t i) {
  return "model.bodies." + std::to_string(i);
}

void rigid_needs_bodies(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto bodies = ctx.value("model.bodies");
  if (!bodies || !bodies->is_array() || !bodies->empty()) return;
  errors.push_back({"model.bodies", "model.type \"rigid\" needs at least one body, got 0 entries"});
}

void rigid_contact_model(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto model = ctx.text("contact.model");
  if (!model || *model == "none" || *model == "mujoco" || *model == "hard") return;
  errors.push_back({"contact.model", "\"" + shorten(*model) +
                                         "\" is a particle contact model; model.type \"rigid\" supports "
                                         "none, mujoco, hard (choose contact.model=mujoco)"});
}

std::optional<GeomType> shape_named(const std::string& name) {
  for (GeomType t :
       {GeomType::sphere, GeomType::capsule, GeomType::box, GeomType::cylinder, GeomType::ellipsoid})
    if (name == geom_type_name(t)) return t;
  return std::nullopt;
}

void force_windows(const RuleContext& ctx, std::vector<Issue>& errors) {
  for (std::size_t i = 0; i < ctx.count("model.bodies"); ++i) {
    const std::string forces = body_path(i) + ".forces";
    for (std::size_t m = 0; m < ctx.count(forces); ++m) {
      const std::string force = forces + "." + std::to_string(m);
      const auto from = ctx.number(force + ".from_step"), to = ctx.number(force + ".to_step");
      if (!from || !to || *from < *to) continue;
      errors.push_back({force + ".from_step", "must be less than " + force + ".to_step (got " +
                                                  format_number(*from) + " >= " + format_number(*to) + ")"});
    }
  }
}

// collision.mode against collision.softness: exact wants 0, smooth and diffmjx a length (auto infers).
void collision_mode_softness(const RuleContext& ctx, const std::string& mode, std::vector<Issue>& errors) {
  const auto softness = ctx.number("collision.softness");
  if (!softness) return;
  const std::string got = " (got collision.softness=" + format_number(*softness) + ")";
  if (mode == "exact" && *softness > 0.0)
    errors.push_back(
        {"collision.mode", "\"exact\" needs collision.softness=0" + got +
                               "; choose collision.mode=auto or smooth, or collision.softness=0"});
  if (mode == "smooth" && *softness == 0.0)
    errors.push_back({"collision.mode", "\"smooth\" needs collision.softness > 0" + got +
                                            "; choose collision.mode=auto or exact, or a softness in m"});
  if (mode == "diffmjx" && *softness == 0.0)
    errors.push_back({"collision.mode", "\"diffmjx\" needs collision.softness > 0, softjax's softness" + got +
                                            "; DiffMJX uses collision.softness=0.1"});
}

// DiffMJX's soft capsule and cylinder colliders and its soft body-body pairs are not implemented.
void diffmjx_shapes(const RuleContext& ctx, std::vector<Issue>& errors) {
  const std::size_t n = ctx.count("model.bodies");
  for (std::size_t i = 0; i < n; ++i) {
    const auto shape = ctx.text(body_path(i) + ".shape");
    if (!shape || *shape == "box" || *shape == "sphere" || *shape == "ellipsoid") continue;
    errors.push_back({"collision.mode", "collision.mode diffmjx supports box, sphere, ellipsoid; " +
                                            body_path(i) + " is a " + *shape +
                                            " (choose collision.mode=auto)"});
    return;
  }
  const auto collide = ctx.value("model.collide_bodies");
  if (n > 1 && collide && *collide == true)
    errors.push_back({"collision.mode",
                      "collision.mode diffmjx collides bodies with the plane only; set "
                      "model.collide_bodies=false"});
}

// The box-box and capsule-box detectors have no smooth proxy (docs/collision.md, "Box pairs"; capsule-box
// chooses its points as MuJoCo does): with a softness they would be exact while the scene asks for smooth
// contacts.
void smooth_box_pairs(const RuleContext& ctx, const std::string& mode, std::vector<Issue>& errors) {
  const auto softness = ctx.number("collision.softness");
  const auto collide = ctx.value("model.collide_bodies");
  if (mode == "diffmjx" || !softness || *softness <= 0.0 || !collide || *collide != true) return;
  std::size_t boxes = 0, capsules = 0;
  for (std::size_t i = 0; i < ctx.count("model.bodies"); ++i) {
    const auto shape = ctx.text(body_path(i) + ".shape");
    boxes += shape && *shape == "box";
    capsules += shape && *shape == "capsule";
  }
  if (boxes == 1 && capsules > 0)
    errors.push_back({"collision.softness",
                      "capsule-box contact has no smooth detector; with a capsule and a "
                      "box colliding set collision.softness=0 (got " +
                          format_number(*softness) + "), or model.collide_bodies=false"});
  if (boxes < 2) return;
  errors.push_back(
      {"collision.softness",
       "box-box contact has no smooth detector; with two or more boxes colliding with each other "
       "set collision.softness=0 (got " +
           format_number(*softness) + "), or model.collide_bodies=false"});
}

// MPR's pairs (an ellipsoid or a cylinder against another solid, collide_convex.hpp) have no smooth proxy
// either: the first such pair of bodies is named.
void smooth_convex_pairs(const RuleContext& ctx, const std::string& mode, std::vector<Issue>& errors) {
  const auto softness = ctx.number("collision.softness");
  const auto collide = ctx.value("model.collide_bodies");
  if (mode == "diffmjx" || !softness || *softness <= 0.0 || !collide || *collide != true) return;
  const std::size_t n = ctx.count("model.bodies");
  for (std::size_t j = 1; j < n; ++j) {
    const auto b = ctx.text(body_path(j) + ".shape");
    const auto tb = b ? shape_named(*b) : std::nullopt;
    for (std::size_t i = 0; i < j && tb; ++i) {
      const auto a = ctx.text(body_path(i) + ".shape");
      const auto ta = a ? shape_named(*a) : std::nullopt;
      if (!ta || !convex_pair(*ta, *tb)) continue;
      errors.push_back(
          {"collision.softness",
           *a + "-" + *b + " contact (" + body_path(i) + " and " + body_path(j) +
               ", MuJoCo's convex collider) has no smooth detector; set collision.softness=0 (got " +
               format_number(*softness) + "), or model.collide_bodies=false"});
      return;
    }
  }
}

void collision_mode(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto mode = ctx.text("collision.mode");
  if (!mode) return;
  smooth_box_pairs(ctx, *mode, errors);
  smooth_convex_pairs(ctx, *mode, errors);
  collision_mode_softness(ctx, *mode, errors);
  if (*mode == "diffmjx") diffmjx_shapes(ctx, errors);
}

}  // namespace

void check_rigid_rules(const RuleContext& ctx, std::vector<Issue>& errors) {
  // The bodies' force windows are checked in every scene, like the other self-contained values.
  force_windows(ctx, errors);
  if (const auto enabled = ctx.value("contact.cfd.enabled"); enabled && *enabled == true) {
    const auto model = ctx.text("contact.model");
    if (model && *model != "mujoco")
      errors.push_back({"contact.cfd.enabled", "requires contact.model \"mujoco\", got \"" + *model +
                                                   "\" (choose contact.model=mujoco or set "
                                                   "contact.cfd.enabled=false)"});
  }
  if (!ctx.is_rigid()) return;
  rigid_needs_bodies(ctx, errors);
  rigid_contact_model(ctx, errors);
  collision_mode(ctx, errors);
}

}  // namespace sg::scene
