// Per-series geometry shared by the renderers: NaN-gap runs, hover lookup and palette colours.
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
