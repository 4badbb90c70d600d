#pragma once
// What a cross-field rule sees: the resolved config with the keys already reported as wrong hidden, so
// that one bad value is not reported twice. Internal to the scene layer.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/issue.hpp"
#include "engine/scene/path.hpp"

namespace sg::scene {

class RuleContext {
 public:
  RuleContext(const nlohmann::json& config, const std::vector<Issue>& prior)
      : config_(config), prior_(prior) {}

  const nlohmann::json& config() const { return config_; }

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
  std::optional<nlohmann::json> value(const std::string& path) const {
    return usable(path) ? get_path(config_, path) : std::nullopt;
  }
  // The number of entries of an array (0 when it is missing or not an array), even when some entry has
  // an error: rules still check the other entries, each through its own path.
  std::size_t count(const std::string& path) const {
    const auto v = get_path(config_, path);
    return v && v->is_array() ? v->size() : 0;
  }
  bool is_rigid() const { return text("model.type") == std::optional<std::string>("rigid"); }
  bool is_tree() const { return text("model.type") == std::optional<std::string>("tree"); }
  // Whether integrator.type names an adaptive solver (the ones with contact events and backsolve).
  bool adaptive_integrator() const {
    const auto t = text("integrator.type");
    return t && (*t == "bosh3" || *t == "dopri5" || *t == "tsit5" || *t == "dopri8");
  }

 private:
  const nlohmann::json& config_;
  const std::vector<Issue>& prior_;
};

using Rule = std::function<void(const RuleContext&, std::vector<Issue>&)>;

// solref signs and solimp components of every MuJoCo parameter set (mujoco_parameter_rules.cpp).
void check_mujoco_parameters(const RuleContext& ctx, std::vector<Issue>& errors);
// model.type "rigid": bodies, contact model, supported body pairs, force windows, CFD (rigid_rules.cpp).
void check_rigid_rules(const RuleContext& ctx, std::vector<Issue>& errors);
// model.type "tree": parents, orientations, capacities, what trees do not have yet (tree_rules.cpp).
void check_tree_rules(const RuleContext& ctx, std::vector<Issue>& errors);

}  // namespace sg::scene
