#pragma once
// The value of the swept number a single run uses when none is given (`softgrad simulate`, `tradeoff`, the
// Python module): the value a `--set` override gave it, else the command's own default.
#include <string>
#include <vector>

#include "engine/problem/problem.hpp"

namespace sg {

// Whether an override "key=value" sets `path`: the number itself, or a vector or object holding it.
bool overrides_set(const std::vector<std::string>& overrides, const std::string& path);

// The swept number's value in the problem when an override set it, else `fallback`.
double swept_value(const Problem& problem, const std::vector<std::string>& overrides, double fallback);

}  // namespace sg
