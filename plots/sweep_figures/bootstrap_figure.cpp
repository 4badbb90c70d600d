#include "plots/sweep_figures/bootstrap_figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/scene/readable_path.hpp"

namespace sg {
namespace {

// The draws of number j as a density histogram, drawn as a staircase over sqrt(n) bins (5 to 40).
plot::Series histogram(const std::vector<std::vector<double>>& draws, std::size_t j, double* lo, double* hi) {
  plot::Series s;
  s.name = std::to_string(draws.size()) + " bootstrap draws";
  std::vector<double> v;
  for (const std::vector<double>& d : draws)
    if (j < d.size() && std::isfinite(d[j])) v.push_back(d[j]);
  if (v.empty()) return s;
  const auto [min_it, max_it] = std::minmax_element(v.begin(), v.end());
  *lo = *min_it;
  *hi = *max_it;
  const int bins = std::clamp(static_cast<int>(std::ceil(std::sqrt(static_cast<double>(v.size())))), 5, 40);
  const double width = *hi > *lo ? (*hi - *lo) / bins : std::max(std::fabs(*lo), 1.0) * 1e-6;
  std::vector<double> count(static_cast<std::size_t>(bins), 0.0);
  for (double x : v)
    count[static_cast<std::size_t>(std::clamp(static_cast<int>((x - *lo) / width), 0, bins - 1))] += 1.0;
  const double scale = 1.0 / (static_cast<double>(v.size()) * width);
  s.x.push_back(*lo);
  s.y.push_back(0.0);
  for (int b = 0; b < bins; ++b) {
    const double left = *lo + b * width, right = left + width;
    s.x.insert(s.x.end(), {left, right});
    s.y.insert(s.y.end(),
               {count[static_cast<std::size_t>(b)] * scale, count[static_cast<std::size_t>(b)] * scale});
  }
  s.x.push_back(*lo + bins * width);
  s.y.push_back(0.0);
  return s;
}

// The normal density of mean `fitted` and standard deviation se over [lo, hi].
plot::Series normal_density(double fitted, double se, double lo, double hi) {
  plot::Series s;
  s.name = "normal(fitted, std. error)";
  s.dashed = true;
  constexpr int kPoints = 121;
  for (int i = 0; i < kPoints; ++i) {
    const double x = lo + (hi - lo) * i / (kPoints - 1);
    const double z = (x - fitted) / se;
    s.x.push_back(x);
    s.y.push_back(std::exp(-0.5 * z * z) / (se * std::sqrt(2.0 * M_PI)));
  }
  return s;
}

plot::Plot parameter_plot(const std::string& path, double fitted, double se, const BootstrapResult& boot,
                          std::size_t j) {
  plot::Plot plt;
  plt.title = scene::readable_path(path);
  plt.x.label = path;
  plt.y.label = "density of the refitted values";
  double lo = fitted, hi = fitted;
  plt.series.push_back(histogram(boot.draws, j, &lo, &hi));
  if (std::isfinite(se) && se > 0.0) {
    lo = std::min(lo, fitted - 3.0 * se);
    hi = std::max(hi, fitted + 3.0 * se);
    plt.series.push_back(normal_density(fitted, se, lo, hi));
  }
  if (j < boot.lower.size() && std::isfinite(boot.lower[j]) && std::isfinite(boot.upper[j])) {
    char name[64];
    std::snprintf(name, sizeof name, "%.1f%% interval", 100.0 * boot.level);
    plot::Series ends;
    ends.name = name;
    ends.style = plot::SeriesStyle::line_and_markers;
    ends.width = 3.0f;
    ends.x = {boot.lower[j], boot.upper[j]};
    ends.y = {0.0, 0.0};
    plt.series.push_back(ends);
  }
  return plt;
}

// The draws' correlation of numbers a and b (NaN with fewer than 3 draws or a constant number).
double draw_correlation(const std::vector<std::vector<double>>& draws, std::size_t a, std::size_t b) {
  const double n = static_cast<double>(draws.size());
  if (draws.size() < 3) return NAN;
  double ma = 0.0, mb = 0.0;
  for (const std::vector<double>& d : draws) ma += d[a] / n, mb += d[b] / n;
  double sab = 0.0, saa = 0.0, sbb = 0.0;
  for (const std::vector<double>& d : draws) {
    sab += (d[a] - ma) * (d[b] - mb);
    saa += (d[a] - ma) * (d[a] - ma);
    sbb += (d[b] - mb) * (d[b] - mb);
  }
  return saa > 0.0 && sbb > 0.0 ? sab / std::sqrt(saa * sbb) : NAN;
}

// The draws of the two numbers they trade most strongly against each other, one point per draw: where the
// error surface has a ridge or several valleys, this is where it shows.
plot::Plot pair_plot(const std::vector<std::string>& paths, const std::vector<double>& fitted,
                     const BootstrapResult& boot) {
  std::size_t a = 0, b = 1;
  double best = -1.0;
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (std::size_t j = i + 1; j < paths.size(); ++j) {
      const double c = std::fabs(draw_correlation(boot.draws, i, j));
      if (c > best) best = c, a = i, b = j;
    }
  plot::Plot plt;
  char title[64];  // short: the axes name the two numbers
  std::snprintf(title, sizeof title, "correlated draws: r = %.2f", draw_correlation(boot.draws, a, b));
  plt.title = title;
  plt.x.label = paths[a];
  plt.y.label = paths[b];
  plot::Series points;
  points.name = "draws";
  points.style = plot::SeriesStyle::markers;
  for (const std::vector<double>& d : boot.draws) {
    points.x.push_back(d[a]);
    points.y.push_back(d[b]);
  }
  plt.series.push_back(points);
  plot::Series fit;
  fit.name = "fitted";
  fit.style = plot::SeriesStyle::markers;
  fit.width = 4.0f;
  fit.x = {fitted[a]};
  fit.y = {fitted[b]};
  plt.series.push_back(fit);
  return plt;
}

}  // namespace

plot::Figure bootstrap_figure(const std::vector<std::string>& paths, const std::vector<double>& fitted,
                              const std::vector<double>& std_error, const std::vector<double>& truth,
                              const BootstrapResult& boot) {
  plot::Figure figure;
  figure.title = "parametric bootstrap";  // also the exported files' name: no count in it
  figure.columns = static_cast<int>(std::min<std::size_t>(3, std::max<std::size_t>(1, paths.size())));
  for (std::size_t j = 0; j < paths.size() && j < fitted.size(); ++j) {
    const double se = j < std_error.size() ? std_error[j] : std::nan("");
    plot::Plot plt = parameter_plot(paths[j], fitted[j], se, boot, j);
    if (j < truth.size()) plt.vertical_markers.push_back(truth[j]);
    figure.plots.push_back(plt);
  }
  if (paths.size() >= 2 && fitted.size() >= paths.size() && boot.draws.size() >= 3)
    figure.plots.push_back(pair_plot(paths, fitted, boot));
  return figure;
}

}  // namespace sg
