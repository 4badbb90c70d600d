#include "plots/sweep_figures/toss_fit_figure.hpp"

#include "engine/scene/readable_path.hpp"

namespace sg {
namespace {

plot::Series fit_line(const LabelledFit& fit, std::size_t number) {
  plot::Series s;
  s.name = fit.label;
  s.style = plot::SeriesStyle::line;
  for (const FitStep& step : fit.steps) {
    const double y = number == static_cast<std::size_t>(-1)
                         ? (step.loss > 0.0 ? step.loss : std::nan(""))
                         : (number < step.values.size() ? step.values[number] : std::nan(""));
    s.x.push_back(step.iteration);
    s.y.push_back(y);
  }
  return s;
}

}  // namespace

plot::Figure toss_fit_figure(const std::vector<std::string>& names, const std::vector<LabelledFit>& fits,
                             const std::vector<double>& reference) {
  plot::Figure figure;
  figure.title = "fits to measured tosses";
  figure.columns = static_cast<int>(names.size()) + 1;
  plot::Plot loss;
  loss.title = "segments' mean squared error";
  loss.x.label = "iteration";
  loss.y.label = "error";
  loss.y.scale = plot::Scale::log;
  loss.legend = false;  // the same lines, in the same colours, as the numbers' plots, which carry the legend
  for (const LabelledFit& f : fits) loss.series.push_back(fit_line(f, static_cast<std::size_t>(-1)));
  figure.plots.push_back(loss);
  for (std::size_t j = 0; j < names.size(); ++j) {
    plot::Plot p;
    p.title = scene::readable_path(names[j]);
    p.x.label = "iteration";
    p.y.label = "value";
    p.legend = fits.size() > 1 || (j < reference.size() && std::isfinite(reference[j]));
    for (const LabelledFit& f : fits) p.series.push_back(fit_line(f, j));
    if (j < reference.size() && std::isfinite(reference[j]) && !fits.empty() && !fits.front().steps.empty()) {
      plot::Series r;
      r.name = "measured";
      r.dashed = true;
      int last = 0;
      for (const LabelledFit& f : fits)
        if (!f.steps.empty()) last = std::max(last, f.steps.back().iteration);
      r.x = {0.0, static_cast<double>(last)};
      r.y = {reference[j], reference[j]};
      p.series.push_back(r);
    }
    figure.plots.push_back(p);
  }
  return figure;
}

}  // namespace sg
