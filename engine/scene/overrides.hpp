#pragma once
// `--set path=value` overrides, applied to a parsed document before it is validated.
// Internal to the scene layer.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/issue.hpp"

namespace sg::scene {

// Applies each override in order; a bad override is reported and skipped. `doc` must be an object.
void apply_overrides(nlohmann::json& doc, const std::vector<std::string>& overrides,
                     std::vector<Issue>& errors);

}  // namespace sg::scene
