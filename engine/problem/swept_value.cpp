#include "engine/problem/swept_value.hpp"

namespace sg {

bool overrides_set(const std::vector<std::string>& overrides, const std::string& path) {
  for (const std::string& o : overrides) {
    const std::string key = o.substr(0, o.find('='));
    if (path == key || path.rfind(key + ".", 0) == 0) return true;
  }
  return false;
}

double swept_value(const Problem& problem, const std::vector<std::string>& overrides, double fallback) {
  if (!overrides_set(overrides, problem.sweep.parameter)) return fallback;
  ProblemData<double> data = problem.data;  // parameter_slot needs a mutable copy
  return *parameter_slot(data, problem.sweep.parameter);
}

}  // namespace sg
