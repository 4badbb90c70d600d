#pragma once
// Checks one leaf value against its FieldSpec and normalises it in place (integers stored as integers,
// numbers as doubles, infinity as the string "inf"). Internal to the scene layer.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/field_spec.hpp"
#include "engine/scene/issue.hpp"

namespace sg::scene {

void check_field(const FieldSpec& spec, nlohmann::json& value, const std::string& path,
                 std::vector<Issue>& errors);

// Whether x satisfies the spec's bounds.
bool within_bounds(const FieldSpec& spec, double x);

}  // namespace sg::scene
