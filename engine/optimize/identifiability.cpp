#include "engine/optimize/identifiability.hpp"

#include <cmath>
#include <cstdio>

namespace sg {
namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string problem_of(double x, double x0, double std_error, bool at_bound) {
  if (!std::isfinite(x)) return "ran to " + number(x);
  if (x0 != 0.0) {
    const double ratio = std::fabs(x) / std::fabs(x0);
    if (ratio > kRunawayFactor || ratio < 1.0 / kRunawayFactor)
      return "ran to " + number(x) + ", " + number(ratio) + " times its start";
  }
  if (at_bound) return "on its bound: the data pull it further";
  if (std::isinf(std_error)) return "the data do not determine it (std. error inf)";
  // A positive quantity (friction, a time constant, a size) known only to within its own size.
  if (x0 > 0.0 && std_error > x) return "std. error " + number(std_error) + " exceeds the value";
  return "";
}

}  // namespace

std::vector<std::string> identification_problems(const FitResult& result, const std::vector<double>& start,
                                                 const FitSettings& settings) {
  std::vector<std::string> problems(start.size());
  if (result.path.empty()) return problems;
  const std::vector<double>& x = result.path.back().values;
  for (std::size_t j = 0; j < start.size() && j < x.size(); ++j) {
    if (j < settings.fixed.size() && settings.fixed[j]) continue;
    const double se = j < result.std_error.size() ? result.std_error[j] : std::nan("");
    const bool bound = j < result.at_bound.size() && result.at_bound[j];
    problems[j] = problem_of(x[j], start[j], se, bound);
  }
  return problems;
}

std::string not_identified_text(const std::vector<std::string>& names,
                                const std::vector<std::string>& problems) {
  std::string text;
  for (std::size_t j = 0; j < problems.size(); ++j) {
    if (problems[j].empty()) continue;
    text += text.empty() ? "not identified: " : "; ";
    text += (j < names.size() ? names[j] : "parameter " + std::to_string(j + 1)) + " (" + problems[j] + ")";
  }
  return text;
}

}  // namespace sg
