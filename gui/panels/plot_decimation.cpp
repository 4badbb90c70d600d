#include "gui/panels/plot_decimation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sg::gui {

plot::Series decimate_series(const plot::Series& series, int max_points) {
  const std::size_t n = std::min(series.x.size(), series.y.size());
  const std::size_t budget = static_cast<std::size_t>(std::max(max_points, 4));
  if (n <= budget) return series;
  plot::Series out = series;
  out.x.clear();
  out.y.clear();
  // Dense markers carry no extra information over a line and cost one circle each.
  if (out.style != plot::SeriesStyle::line) out.style = plot::SeriesStyle::line;
  const std::size_t buckets = budget / 2;
  const auto push = [&](std::size_t i) {
    out.x.push_back(series.x[i]);
    out.y.push_back(series.y[i]);
  };
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t begin = b * n / buckets, end = (b + 1) * n / buckets;
    std::size_t lo = end, hi = end;
    bool gap = false;
    for (std::size_t i = begin; i < end; ++i) {
      if (!std::isfinite(series.x[i]) || !std::isfinite(series.y[i])) {
        gap = true;
        continue;
      }
      if (lo == end || series.y[i] < series.y[lo]) lo = i;
      if (hi == end || series.y[i] > series.y[hi]) hi = i;
    }
    if (lo != end) {
      push(std::min(lo, hi));
      if (hi != lo) push(std::max(lo, hi));
    }
    if (gap) {
      out.x.push_back(std::numeric_limits<double>::quiet_NaN());
      out.y.push_back(std::numeric_limits<double>::quiet_NaN());
    }
  }
  return out;
}

plot::Plot decimate_plot(const plot::Plot& plot, int max_points) {
  plot::Plot out = plot;
  for (plot::Series& s : out.series) s = decimate_series(s, max_points);
  return out;
}

std::vector<plot::Plot> decimate_figure(const plot::Figure& figure, int max_points) {
  std::vector<plot::Plot> plots;
  plots.reserve(figure.plots.size());
  for (const plot::Plot& p : figure.plots) plots.push_back(decimate_plot(p, max_points));
  return plots;
}

}  // namespace sg::gui
