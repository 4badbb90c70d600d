#pragma once
// Numbers between JSON and doubles where infinities occur: out, finite values as numbers and NaN and
// infinities as null (JSON has no such numbers); in, a scene's number or its "inf" / "-inf" text.
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace sg {

inline nlohmann::json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

// A validated number_or_inf field (engine/scene): a number, or "inf" / "-inf".
inline double read_number_or_inf(const nlohmann::json& j) {
  const double inf = std::numeric_limits<double>::infinity();
  if (j.is_string()) return j.get<std::string>() == "-inf" ? -inf : inf;
  return j.get<double>();
}

}  // namespace sg
