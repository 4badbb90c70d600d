#pragma once
// A number for JSON output: finite values as numbers, NaN and infinities as null (JSON has no such numbers).
#include <cmath>

#include <nlohmann/json.hpp>

namespace sg {

inline nlohmann::json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

}  // namespace sg
