#include "cli/fit_bootstrap_output.hpp"

#include <cmath>
#include <cstdio>

#include "cli/fit_output.hpp"
#include "engine/optimize/profile.hpp"
#include "engine/problem/json_number.hpp"
#include "engine/scene/describe.hpp"

namespace sg::cli {

void print_bootstrap(const std::vector<std::string>& paths, const FitResult& fit,
                     const BootstrapResult& boot) {
  const double z = std::sqrt(profile_threshold(boot.level));
  std::printf("bootstrap intervals at %.1f%% (%zu of %d draws refitted; quantiles %.4g and %.4g):\n",
              100.0 * boot.level, boot.draws.size(), boot.requested, 0.5 * (1.0 - boot.level),
              0.5 * (1.0 + boot.level));
  std::printf("%-36s %14s %14s %14s %14s %12s   %s\n", "parameter", "fitted", "median", "lower", "upper",
              "spread", "fitted -+ z std. error");
  const std::vector<double>& fitted = fit.path.back().values;
  for (std::size_t j = 0; j < paths.size() && j < boot.lower.size(); ++j) {
    std::printf("%-36s %14.8g %14.8g %14.8g %14.8g %12.4g", paths[j].c_str(), fitted[j], boot.median[j],
                boot.lower[j], boot.upper[j], boot.spread[j]);
    print_linear_interval(fitted[j], j < fit.std_error.size() ? fit.std_error[j] : NAN, z);
  }
  std::printf("(spread: the draws' standard deviation, comparable with the standard error)\n");
  if (boot.failed > 0)
    std::printf("note: %d draws could not be refitted (left out); the first: %s\n", boot.failed,
                boot.first_failure.c_str());
  if (boot.cancelled) std::printf("note: cancelled: the intervals are from the draws made\n");
  if (boot.draws.size() < 50)
    std::printf("note: %zu draws give rough quantiles; 100 or more are usual\n", boot.draws.size());
}

nlohmann::json bootstrap_json(const std::vector<std::string>& paths, const BootstrapResult& boot) {
  nlohmann::json params = nlohmann::json::array();
  for (std::size_t j = 0; j < paths.size(); ++j) {
    const bool have = j < boot.lower.size();
    params.push_back({{"path", paths[j]},
                      {"lower", have ? number_or_null(boot.lower[j]) : nlohmann::json()},
                      {"upper", have ? number_or_null(boot.upper[j]) : nlohmann::json()},
                      {"median", have ? number_or_null(boot.median[j]) : nlohmann::json()},
                      {"spread", have ? number_or_null(boot.spread[j]) : nlohmann::json()}});
  }
  return {{"status", boot.status},
          {"level", boot.level},
          {"requested", boot.requested},
          {"failed", boot.failed},
          {"first_failure", boot.first_failure},
          {"cancelled", boot.cancelled},
          {"parameters", params},
          {"draws", boot.draws},
          {"draw_index", boot.draw_index},
          {"runs", boot.runs}};
}

std::string bootstrap_csv(const std::vector<std::string>& paths, const BootstrapResult& boot) {
  std::string out = "draw";
  for (const std::string& p : paths) out += "," + p;
  out += "\n";
  for (std::size_t k = 0; k < boot.draws.size(); ++k) {
    out += std::to_string(boot.draw_index[k]);
    for (double v : boot.draws[k]) out += "," + scene::format_number(v);
    out += "\n";
  }
  return out;
}

}  // namespace sg::cli
