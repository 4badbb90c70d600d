#pragma once
// Human-readable pieces of error messages: what a field expects and what was found.
#include <string>

#include <nlohmann/json.hpp>

#include "engine/scene/field_spec.hpp"

namespace sg::scene {

// Shortest faithful decimal form: 0.01, 1e-06, 10000000, inf.
std::string format_number(double x);
// A value as it would appear in JSON, cut short when long; non-finite numbers as inf / -inf / nan.
std::string describe_value(const nlohmann::json& value);
// The bound part alone: "> 0", "in [0, 1]", "in (0, 1]", "" when unbounded.
std::string describe_bounds(double min, double max, bool min_exclusive, bool max_exclusive);
// "a number > 0", "an integer in [1, 1000]", "one of a, b, c", "an array of 3 numbers", ...
std::string describe_expectation(const FieldSpec& spec);
// "expected <expectation>, got <value>" (with "; got" after a list of choices).
std::string expected_got(const FieldSpec& spec, const std::string& got);

}  // namespace sg::scene
