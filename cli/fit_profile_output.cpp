#include "cli/fit_profile_output.hpp"

#include <cmath>
#include <cstdio>

#include "cli/fit_output.hpp"
#include "engine/problem/json_number.hpp"

namespace sg::cli {

void print_profile(const std::vector<std::string>& paths, const FitResult& fit,
                   const ProfileResult& profile) {
  const double z = std::sqrt(profile.threshold);
  std::printf(
      "profile-likelihood intervals at %.1f%% (where the error, the other numbers fitted again, rises by "
      "%.3g s^2):\n",
      100.0 * profile.level, profile.threshold);
  std::printf("%-36s %14s %18s %18s   %s\n", "parameter", "fitted", "lower", "upper",
              "fitted -+ z std. error");
  const std::vector<double>& fitted = fit.path.back().values;
  for (std::size_t j = 0; j < profile.parameters.size(); ++j) {
    const ParameterProfile& p = profile.parameters[j];
    std::printf("%-36s %14.8g %18s %18s", paths[j].c_str(), fitted[j],
                profile_end_label(p.lower, p.lower_end, true).c_str(),
                profile_end_label(p.upper, p.upper_end, false).c_str());
    print_linear_interval(fitted[j], j < fit.std_error.size() ? fit.std_error[j] : NAN, z);
    if (!p.failure.empty()) std::printf("  %s: a refit failed: %s\n", paths[j].c_str(), p.failure.c_str());
  }
  std::printf(
      "(bound: the interval reaches the number's bound; < or >: not reached within the values scanned)\n");
  if (!profile.note.empty()) std::printf("note: %s\n", profile.note.c_str());
}

nlohmann::json profile_json(const std::vector<std::string>& paths, const ProfileResult& profile) {
  nlohmann::json params = nlohmann::json::array();
  for (std::size_t j = 0; j < profile.parameters.size(); ++j) {
    const ParameterProfile& p = profile.parameters[j];
    nlohmann::json points = nlohmann::json::array();
    for (const ProfilePoint& q : p.points)
      points.push_back(
          {{"value", q.value}, {"delta", number_or_null(q.delta)}, {"loss", number_or_null(q.loss)}});
    params.push_back({{"path", paths[j]},
                      {"lower", number_or_null(p.lower)},
                      {"upper", number_or_null(p.upper)},
                      {"lower_end", profile_end_text(p.lower_end)},
                      {"upper_end", profile_end_text(p.upper_end)},
                      {"points", points}});
  }
  return {{"status", profile.status},    {"level", profile.level}, {"threshold", profile.threshold},
          {"parameters", params},        {"runs", profile.runs},   {"note", profile.note},
          {"restarts", profile.restarts}};
}

}  // namespace sg::cli
