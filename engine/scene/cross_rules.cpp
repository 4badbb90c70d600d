#include "engine/scene/cross_rules.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include "engine/scene/describe.hpp"
#include "engine/scene/path.hpp"
#include "engine/scene/scene.hpp"
#include "engine/scene/suggest.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

// Read access to the resolved config that hides keys already reported as wrong.
class RuleContext {
 public:
  RuleContext(const json& config, const std::vector<Issue>& prior) : config_(config), prior_(prior) {}

  const json& config() const { return config_; }

  bool usable(const std::string& path) const {
    for (const auto& issue : prior_) {
      const std::string& p = issue.path;
      if (p.empty() || p == path || p.rfind(path + ".", 0) == 0 || path.rfind(p + ".", 0) == 0) return false;
    }
    return get_path(config_, path).has_value();
  }
  std::optional<double> number(const std::string& path) const {
    if (!usable(path)) return std::nullopt;
    const auto v = get_path(config_, path);
    return v->is_number() ? std::optional<double>(v->get<double>()) : std::nullopt;
  }
  std::optional<std::string> text(const std::string& path) const {
    if (!usable(path)) return std::nullopt;
    const auto v = get_path(config_, path);
    return v->is_string() ? std::optional<std::string>(v->get<std::string>()) : std::nullopt;
  }
  std::optional<json> value(const std::string& path) const {
    return usable(path) ? get_path(config_, path) : std::nullopt;
  }

 private:
  const json& config_;
  const std::vector<Issue>& prior_;
};

using Rule = std::function<void(const RuleContext&, std::vector<Issue>&)>;

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

void sweep_parameter(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto parameter = ctx.text("sweep.parameter");
  if (!parameter) return;
  const auto candidates = differentiable_paths(ctx.config());
  if (std::find(candidates.begin(), candidates.end(), *parameter) != candidates.end()) return;
  std::string message = "\"" + *parameter + "\" is not a differentiable parameter";
  if (const auto close = nearest(*parameter, candidates)) message += " (did you mean \"" + *close + "\"?)";
  errors.push_back({"sweep.parameter", message});
}

void loss_bodies(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto particles = ctx.value("model.particles");
  const auto terms = ctx.value("loss.terms");
  if (!particles || !terms || !particles->is_array() || !terms->is_array()) return;
  for (std::size_t i = 0; i < terms->size(); ++i) {
    const std::string path = "loss.terms." + std::to_string(i) + ".body";
    const auto body = ctx.number(path);
    if (body && *body >= static_cast<double>(particles->size()))
      errors.push_back({path, "particle index " + format_number(*body) + " out of range (the scene has " +
                                  std::to_string(particles->size()) + " particle" +
                                  (particles->size() == 1 ? "" : "s") + ")"});
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

void solref_signs(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto solref = ctx.value("contact.mujoco.solref");
  if (!solref) return;
  const double a = (*solref)[0].get<double>(), b = (*solref)[1].get<double>();
  if ((a > 0 && b > 0) || (a <= 0 && b <= 0)) return;
  errors.push_back(
      {"contact.mujoco.solref",
       "mixed signs: use both > 0 (timeconst, dampratio) or both <= 0 (-stiffness, -damping), got " +
           describe_value(*solref)});
}

void solimp_components(const RuleContext& ctx, std::vector<Issue>& errors) {
  const auto solimp = ctx.value("contact.mujoco.solimp");
  if (!solimp) return;
  struct Component {
    const char* name;
    double min, max;
    bool min_exclusive, max_exclusive;
  };
  constexpr double kInf = HUGE_VAL;
  static const Component components[5] = {
      {"dmin", 0, 1, true, true}, {"dmax", 0, 1, true, true},       {"width", 0, kInf, false, false},
      {"mid", 0, 1, true, true},  {"power", 1, kInf, false, false},
  };
  for (std::size_t i = 0; i < 5; ++i) {
    const Component& c = components[i];
    const double x = (*solimp)[i].get<double>();
    const bool ok = (c.min_exclusive ? x > c.min : x >= c.min) && (c.max_exclusive ? x < c.max : x <= c.max);
    if (!ok)
      errors.push_back({"contact.mujoco.solimp." + std::to_string(i),
                        std::string(c.name) + ": expected a number " +
                            describe_bounds(c.min, c.max, c.min_exclusive, c.max_exclusive) + ", got " +
                            format_number(x)});
  }
}

const std::vector<Rule>& rules() {
  static const std::vector<Rule> table = {
      sweep_range,     sweep_parameter, loss_bodies,      contact_needs_integrator,
      dt_min_below_dt, solref_signs,    solimp_components};
  return table;
}

}  // namespace

void check_cross_rules(const json& config, std::vector<Issue>& errors) {
  const std::vector<Issue> prior = errors;  // rules do not react to each other's findings
  const RuleContext ctx(config, prior);
  for (const auto& rule : rules()) rule(ctx, errors);
}

}  // namespace sg::scene
