#include "plots/sweep_figures/profile_figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/scene/readable_path.hpp"

namespace sg {
namespace {

plot::Series line(const char* name, bool dashed) {
  plot::Series s;
  s.name = name;
  s.dashed = dashed;
  return s;
}

plot::Plot parameter_plot(const std::string& path, double fitted, double se, const ProfileResult& profile,
                          const ParameterProfile& p) {
  plot::Plot plt;
  plt.title = scene::readable_path(path);
  plt.x.label = path;
  plt.y.label = "tau = sign(v - fitted) sqrt(delta)";
  plot::Series prof = line("profile", false);
  prof.style = plot::SeriesStyle::line_and_markers;
  for (const ProfilePoint& q : p.points) {
    prof.x.push_back(q.value);
    prof.y.push_back(std::copysign(std::sqrt(std::max(q.delta, 0.0)), q.value - fitted));
  }
  const double lo = p.points.empty() ? fitted : p.points.front().value;
  const double hi = p.points.empty() ? fitted : p.points.back().value;
  plt.series.push_back(prof);
  if (std::isfinite(se) && se > 0.0) {
    plot::Series linear = line("(v - fitted) / std. error", true);
    linear.x = {lo, hi};
    linear.y = {(lo - fitted) / se, (hi - fitted) / se};
    plt.series.push_back(linear);
  }
  char name[64];
  std::snprintf(name, sizeof name, "%.1f%% threshold", 100.0 * profile.level);
  const double z = std::sqrt(profile.threshold);
  plot::Series threshold = line(name, true);
  threshold.x = {lo, hi, std::nan(""), lo, hi};
  threshold.y = {-z, -z, std::nan(""), z, z};
  plt.series.push_back(threshold);
  return plt;
}

}  // namespace

plot::Figure profile_figure(const std::vector<std::string>& paths, const std::vector<double>& fitted,
                            const std::vector<double>& std_error, const std::vector<double>& truth,
                            const ProfileResult& profile) {
  plot::Figure figure;
  figure.title = "profile likelihood";
  figure.columns = static_cast<int>(std::min<std::size_t>(3, std::max<std::size_t>(1, paths.size())));
  for (std::size_t j = 0; j < profile.parameters.size() && j < paths.size(); ++j) {
    const double se = j < std_error.size() ? std_error[j] : std::nan("");
    plot::Plot plt = parameter_plot(paths[j], fitted[j], se, profile, profile.parameters[j]);
    if (j < truth.size()) plt.vertical_markers.push_back(truth[j]);
    figure.plots.push_back(plt);
  }
  return figure;
}

}  // namespace sg
