// Cross-component rules of MuJoCo's solref and solimp vectors, wherever they appear: the particle
// model's contact.mujoco, every geom of the rigid model (model.plane, model.bodies.N) and CFD's solimp.
#include <cmath>
#include <optional>
#include <string>

#include "engine/scene/describe.hpp"
#include "engine/scene/key_range.hpp"
#include "engine/scene/rule_context.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

struct Component {
  const char* name;
  KeyRange range;
};
constexpr double kInf = HUGE_VAL;

// dmin and dmax may be 0 or 1: MuJoCo clamps them into [1e-4, 0.9999] itself, and DiffMJX's bouncing
// setup uses dmin = 0.
constexpr Component kMujocoSolimp[5] = {
    {"dmin", {0, 1, false, false}}, {"dmax", {0, 1, false, false}},     {"width", {0, kInf, false, false}},
    {"mid", {0, 1, true, true}},    {"power", {1, kInf, false, false}},
};
// CFD's spline over distance: a zero width would divide by zero; mid = 1 (a pure power) is its default.
constexpr Component kCfdSolimp[5] = {
    {"d_far", {0, 1, false, false}}, {"d_near", {0, 1, false, false}},   {"width", {0, kInf, true, false}},
    {"mid", {0, 1, true, false}},    {"power", {1, kInf, false, false}},
};

void solref_signs(const RuleContext& ctx, const std::string& path, std::vector<Issue>& errors) {
  const auto solref = ctx.value(path);
  if (!solref || !solref->is_array() || solref->size() != 2) return;
  const double a = (*solref)[0].get<double>(), b = (*solref)[1].get<double>();
  if ((a > 0 && b > 0) || (a <= 0 && b <= 0)) return;
  errors.push_back(
      {path, "mixed signs: use both > 0 (timeconst, dampratio) or both <= 0 (-stiffness, -damping), got " +
                 describe_value(*solref)});
}

void solimp_components(const RuleContext& ctx, const std::string& path, const Component (&components)[5],
                       std::vector<Issue>& errors) {
  const auto solimp = ctx.value(path);
  if (!solimp || !solimp->is_array() || solimp->size() != 5) return;
  for (std::size_t i = 0; i < 5; ++i) {
    const Component& c = components[i];
    const double x = (*solimp)[i].get<double>();
    if (!c.range.contains(x))
      errors.push_back({path + "." + std::to_string(i), std::string(c.name) + ": expected a number " +
                                                            c.range.text() + ", got " + format_number(x)});
  }
}

}  // namespace

std::optional<KeyRange> solimp_component_range(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  const std::string suffix = ".solimp";
  if (dot == std::string::npos || dot < suffix.size() || path.size() != dot + 2 || path[dot + 1] < '0' ||
      path[dot + 1] > '4' || path.compare(dot - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  const bool cfd = path.compare(0, dot, "contact.cfd.solimp") == 0;
  return (cfd ? kCfdSolimp : kMujocoSolimp)[path[dot + 1] - '0'].range;
}

void check_mujoco_parameters(const RuleContext& ctx, std::vector<Issue>& errors) {
  std::vector<std::string> owners = {"contact.mujoco", "model.plane"};
  for (std::size_t i = 0; i < ctx.count("model.bodies"); ++i)
    owners.push_back("model.bodies." + std::to_string(i));
  for (std::size_t i = 0; i < ctx.count("model.tree.bodies"); ++i) {
    const std::string geoms = "model.tree.bodies." + std::to_string(i) + ".geoms";
    for (std::size_t k = 0; k < ctx.count(geoms); ++k) owners.push_back(geoms + "." + std::to_string(k));
  }
  for (std::size_t k = 0; k < ctx.count("model.tree.world_geoms"); ++k)
    owners.push_back("model.tree.world_geoms." + std::to_string(k));
  for (const auto& owner : owners) {
    solref_signs(ctx, owner + ".solref", errors);
    solimp_components(ctx, owner + ".solimp", kMujocoSolimp, errors);
  }
  solimp_components(ctx, "contact.cfd.solimp", kCfdSolimp, errors);
}

}  // namespace sg::scene
