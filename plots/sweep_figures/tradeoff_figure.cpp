#include "plots/sweep_figures/tradeoff_figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sg {
namespace {

enum class Measure { loss, gradient };

double error_of(const TradeoffRow& r, Measure m) {
  return m == Measure::loss ? r.loss_error : r.grad_error;
}
double seconds_of(const TradeoffRow& r, Measure m) {
  return m == Measure::loss ? r.seconds_loss : r.seconds_grad;
}

// A family's runs that finished, from the coarsest setting to the finest (the line follows the knob, so
// timing noise does not fold it); an error of exactly 0 has no place on a log axis and is left out.
plot::Series family_series(const TradeoffResult& result, const TradeoffFamily& family, Measure m) {
  plot::Series s;
  s.name = family.name;
  s.style = plot::SeriesStyle::line_and_markers;
  s.dashed = !family.adaptive;
  std::vector<const TradeoffRow*> rows;
  for (const TradeoffRow& r : result.rows)
    if (r.setting.family == family.name && r.status == "ok" && error_of(r, m) > 0.0) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const TradeoffRow* a, const TradeoffRow* b) {
    return a->setting.knob > b->setting.knob;
  });
  for (const TradeoffRow* r : rows) {
    s.x.push_back(seconds_of(*r, m));
    s.y.push_back(error_of(*r, m));
  }
  return s;
}

plot::Plot measure_plot(const TradeoffResult& result, Measure m) {
  plot::Plot p;
  const bool loss = m == Measure::loss;
  p.title = loss ? "Loss error against cost" : "Gradient error against cost";
  p.x.label = loss ? "time of one loss run [s]" : "time of one loss + gradient run [s]";
  p.y.label = loss ? "|loss - reference|" : "|gradient - reference|";
  p.x.scale = plot::Scale::log;
  p.y.scale = plot::Scale::log;
  double lo = INFINITY, hi = 0.0;
  for (const TradeoffFamily& f : tradeoff_families()) {
    plot::Series s = family_series(result, f, m);
    if (s.x.empty()) continue;
    lo = std::min(lo, *std::min_element(s.x.begin(), s.x.end()));
    hi = std::max(hi, *std::max_element(s.x.begin(), s.x.end()));
    p.series.push_back(std::move(s));
  }
  const double spread = loss ? result.spread_loss : result.spread_grad;
  if (hi > 0.0 && spread > 0.0 && std::isfinite(spread)) {
    plot::Series floor;
    char name[160];
    std::snprintf(name, sizeof name, "reference: %s vs %s", result.reference.setting.label().c_str(),
                  result.reference_check.setting.label().c_str());
    floor.name = name;
    floor.dashed = true;
    floor.faded = true;
    floor.x = {lo, hi};
    floor.y = {spread, spread};
    p.series.push_back(std::move(floor));
  }
  return p;
}

}  // namespace

plot::Figure tradeoff_figure(const TradeoffResult& result) {
  plot::Figure figure;
  char title[256];
  std::snprintf(title, sizeof title, "%s at %s = %g: accuracy against cost", result.scene.c_str(),
                result.parameter.c_str(), result.value);
  figure.title = title;
  figure.columns = 2;
  figure.plots.push_back(measure_plot(result, Measure::loss));
  figure.plots.push_back(measure_plot(result, Measure::gradient));
  return figure;
}

}  // namespace sg
