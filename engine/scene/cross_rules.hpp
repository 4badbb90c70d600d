#pragma once
// Rules that tie several keys together, checked after every key has passed its own check.
// Internal to the scene layer.
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/issue.hpp"

namespace sg::scene {

// Appends to `errors`; a rule is skipped when a key it reads already has an error.
void check_cross_rules(const nlohmann::json& config, std::vector<Issue>& errors);

}  // namespace sg::scene
