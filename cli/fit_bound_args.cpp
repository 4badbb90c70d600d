#include "cli/fit_bound_args.hpp"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace sg::cli {
namespace {

// A whole finite number, or +-inf for an empty end.
std::optional<double> end_value(const std::string& text, double if_empty) {
  if (text.empty()) return if_empty;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

bool apply_bound_args(const std::vector<std::string>& args, const std::vector<std::string>& paths,
                      std::vector<scene::KeyRange>* bounds, std::string* error) {
  for (const std::string& arg : args) {
    const std::size_t eq = arg.find('='), colon = arg.find(':', eq == std::string::npos ? 0 : eq);
    const auto fail = [&](const std::string& why) {
      *error = "--bound " + arg + ": " + why;
      return false;
    };
    if (eq == std::string::npos || colon == std::string::npos)
      return fail("expected PATH=MIN:MAX (either end may be empty)");
    const std::string path = arg.substr(0, eq);
    const std::optional<double> lo = end_value(arg.substr(eq + 1, colon - eq - 1), -HUGE_VAL);
    const std::optional<double> hi = end_value(arg.substr(colon + 1), HUGE_VAL);
    if (!lo || !hi) return fail("MIN and MAX must be finite numbers");
    if (!(*lo < *hi)) return fail("MIN must be below MAX");
    std::size_t j = 0;
    while (j < paths.size() && paths[j] != path) ++j;
    if (j == paths.size()) return fail("\"" + path + "\" is not one of the fitted numbers");
    (*bounds)[j] = (*bounds)[j].narrowed({*lo, *hi, false, false});
  }
  return true;
}

}  // namespace sg::cli
