// Per-series geometry shared by the renderers: NaN-gap runs, off-scale points, hover lookup and palette
// colours.
#include <algorithm>
#include <array>
#include <cmath>

#include "plots/axis_math.hpp"

namespace sg::plot {

std::vector<IndexRun> drawable_runs(const Series& series, Scale x_scale, Scale y_scale) {
  std::vector<IndexRun> runs;
  const std::size_t n = std::min(series.x.size(), series.y.size());
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= n; ++i) {
    const bool ok = i < n && drawable_on(series.x[i], x_scale) && drawable_on(series.y[i], y_scale);
    if (ok) continue;
    if (i > begin) runs.push_back({begin, i});
    begin = i + 1;
  }
  return runs;
}

std::vector<OffScalePoint> off_scale_points(const Plot& plot, const std::vector<bool>& shown, Scale x_scale,
                                            Scale y_scale, Range x_view, Range y_view) {
  std::vector<OffScalePoint> points;
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    if (s < shown.size() && !shown[s]) continue;
    const Series& series = plot.series[s];
    const std::size_t n = std::min(series.x.size(), series.y.size());
    for (std::size_t i = 0; i < n; ++i) {
      const double x = series.x[i], y = series.y[i];
      if (!drawable_on(x, x_scale) || !drawable_on(y, y_scale) || x < x_view.lo || x > x_view.hi) continue;
      if (y > y_view.hi || y < y_view.lo) points.push_back({s, x, y > y_view.hi});
    }
  }
  return points;
}

std::vector<LegendItem> legend_items(const Plot& plot) {
  std::vector<LegendItem> items;
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const Series& s = plot.series[i];
    if (!s.visible) continue;
    if (!s.group.empty()) {
      const bool listed = std::any_of(items.begin(), items.end(),
                                      [&](const LegendItem& item) { return item.key == s.group; });
      if (!listed) items.push_back({i, s.group, s.group});
      continue;
    }
    items.push_back({i, s.name.empty() ? "series " + std::to_string(i + 1) : s.name, s.name});
  }
  return items;
}

std::optional<NearestPoint> nearest_point(const Plot& plot, const std::vector<bool>& shown,
                                          const AxisMap& xmap, const AxisMap& ymap, double px, double py,
                                          double max_distance_px) {
  std::optional<NearestPoint> best;
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    if (s < shown.size() && !shown[s]) continue;
    const Series& series = plot.series[s];
    for (const IndexRun& run : drawable_runs(series, xmap.scale, ymap.scale)) {
      for (std::size_t i = run.begin; i < run.end; ++i) {
        const double d = std::hypot(xmap.to_pixel(series.x[i]) - px, ymap.to_pixel(series.y[i]) - py);
        if (d <= max_distance_px && (!best || d < best->distance_px)) best = NearestPoint{s, i, d};
      }
    }
  }
  return best;
}

std::string point_readout(const Plot& plot, const NearestPoint& point) {
  const Series& series = plot.series.at(point.series);
  const std::string name = series.name.empty() ? "series " + std::to_string(point.series + 1) : series.name;
  return name + ": x=" + format_tick(series.x.at(point.index)) +
         ", y=" + format_tick(series.y.at(point.index));
}

Color palette_color(std::size_t index) {
  static constexpr std::array<Color, 8> kOkabeIto = {{
      {0, 114, 178, 255},    // blue
      {230, 159, 0, 255},    // orange
      {0, 158, 115, 255},    // bluish green
      {213, 94, 0, 255},     // vermillion
      {204, 121, 167, 255},  // reddish purple
      {86, 180, 233, 255},   // sky blue
      {240, 228, 66, 255},   // yellow
      {153, 153, 153, 255},  // grey (stands in for black)
  }};
  return kOkabeIto[index % kOkabeIto.size()];
}

std::vector<Color> resolve_colors(const Plot& plot) {
  std::vector<Color> colors;
  colors.reserve(plot.series.size());
  std::size_t next = 0;
  for (const Series& s : plot.series) colors.push_back(s.auto_color ? palette_color(next++) : s.color);
  return colors;
}

}  // namespace sg::plot
