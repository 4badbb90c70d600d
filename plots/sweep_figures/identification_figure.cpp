#include "plots/sweep_figures/identification_figure.hpp"

#include <cmath>

#include "engine/scene/readable_path.hpp"

namespace sg {

plot::Figure identification_figure(const std::vector<std::string>& paths, const std::vector<double>& truth,
                                   const std::vector<FitStep>& steps) {
  plot::Figure figure;
  figure.title = "identification";
  figure.columns = truth.empty() ? 1 : 2;
  plot::Plot loss;
  loss.title = "mean squared position error";
  loss.x.label = "iteration";
  loss.y.label = "m^2";
  loss.y.scale = plot::Scale::log;
  loss.legend = false;
  plot::Series line;
  line.name = "error";
  line.style = plot::SeriesStyle::line_and_markers;
  for (const FitStep& s : steps) {
    line.x.push_back(s.iteration);
    // A loss of exactly 0 (a fit that hit the truth) has no place on a log axis: a gap.
    line.y.push_back(s.loss > 0.0 ? s.loss : std::nan(""));
  }
  loss.series.push_back(line);
  figure.plots.push_back(loss);
  if (truth.empty()) return figure;

  plot::Plot error;
  error.title = "relative error against the truth";
  error.x.label = "iteration";
  error.y.label = "|x - truth| / |truth|";
  error.y.scale = plot::Scale::log;
  for (std::size_t j = 0; j < paths.size() && j < truth.size(); ++j) {
    plot::Series s;
    s.name = scene::readable_path(paths[j]);
    s.style = plot::SeriesStyle::line_and_markers;
    const double scale = truth[j] != 0.0 ? std::fabs(truth[j]) : 1.0;
    for (const FitStep& step : steps) {
      if (j >= step.values.size()) continue;
      const double e = std::fabs(step.values[j] - truth[j]) / scale;
      s.x.push_back(step.iteration);
      s.y.push_back(e > 0.0 ? e : std::nan(""));
    }
    error.series.push_back(s);
  }
  figure.plots.push_back(error);
  return figure;
}

}  // namespace sg
