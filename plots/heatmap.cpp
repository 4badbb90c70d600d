#include "plots/heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sg::plot {
namespace {

Color mix(Color a, Color b, double t) {
  auto c = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(x + (y - x) * t));
  };
  return {c(a.r, b.r), c(a.g, b.g), c(a.b, b.b), 255};
}

// Piecewise-linear through stops at equal spacing.
Color ramp(const Color* stops, int count, double t) {
  t = std::clamp(t, 0.0, 1.0) * (count - 1);
  const int i = std::min(static_cast<int>(t), count - 2);
  return mix(stops[i], stops[i + 1], t - i);
}

Range edges(double from, double to, long n) {
  const double half = n > 1 ? 0.5 * (to - from) / static_cast<double>(n - 1) : 0.5;
  return {from - half, to + half};
}

}  // namespace

Range heat_range(const Heatmap& h) {
  std::vector<double> finite;
  for (double v : h.values)
    if (std::isfinite(v)) finite.push_back(h.diverging ? std::fabs(v) : v);
  Range r{h.lo, h.hi};
  if (!finite.empty()) {
    if (h.diverging) {
      const double m = quantile(finite, 0.98);
      if (!std::isfinite(r.lo)) r.lo = -m;
      if (!std::isfinite(r.hi)) r.hi = m;
    } else {
      if (!std::isfinite(r.lo)) r.lo = quantile(finite, 0.02);
      if (!std::isfinite(r.hi)) r.hi = quantile(finite, 0.98);
    }
  }
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi)) r = {0.0, 1.0};
  if (!(r.hi > r.lo)) {
    const double pad = std::max(std::fabs(r.lo), 1.0) * 1e-3;
    r = {r.lo - pad, r.hi + pad};
  }
  return r;
}

Color heat_color(const Heatmap& h, Range range, double v) {
  if (!std::isfinite(v)) return {190, 190, 190, 255};
  const double t = (v - range.lo) / (range.hi - range.lo);
  if (h.diverging) {
    static const Color stops[] = {{33, 102, 172, 255}, {247, 247, 247, 255}, {178, 24, 43, 255}};
    return ramp(stops, 3, t);
  }
  static const Color stops[] = {
      {48, 18, 59, 255}, {40, 100, 200, 255}, {30, 180, 170, 255}, {150, 210, 70, 255}, {250, 230, 40, 255}};
  return ramp(stops, 5, t);
}

Range heat_x_edges(const Heatmap& h) {
  return edges(h.x_from, h.x_to, h.nx);
}
Range heat_y_edges(const Heatmap& h) {
  return edges(h.y_from, h.y_to, h.ny);
}

std::vector<HeatCell> heat_cells(const Heatmap& h) {
  std::vector<HeatCell> cells;
  if (h.nx <= 0 || h.ny <= 0 || h.values.size() != static_cast<std::size_t>(h.nx * h.ny)) return cells;
  const Range colours = heat_range(h);
  const Range xe = heat_x_edges(h), ye = heat_y_edges(h);
  const double dx = (xe.hi - xe.lo) / static_cast<double>(h.nx),
               dy = (ye.hi - ye.lo) / static_cast<double>(h.ny);
  cells.reserve(h.values.size());
  for (long iy = 0; iy < h.ny; ++iy)
    for (long ix = 0; ix < h.nx; ++ix)
      cells.push_back({xe.lo + dx * static_cast<double>(ix), xe.lo + dx * static_cast<double>(ix + 1),
                       ye.lo + dy * static_cast<double>(iy), ye.lo + dy * static_cast<double>(iy + 1),
                       heat_color(h, colours, h.values[static_cast<std::size_t>(iy * h.nx + ix)])});
  return cells;
}

ColorBar heat_color_bar(const Heatmap& h, int steps) {
  ColorBar bar;
  if (h.nx <= 0 || h.ny <= 0 || h.values.size() != static_cast<std::size_t>(h.nx * h.ny)) return bar;
  bar.range = heat_range(h);
  bar.ticks = make_ticks(bar.range, Scale::linear, 1.0, 5);
  steps = std::max(steps, 2);
  bar.colors.reserve(static_cast<std::size_t>(steps));
  for (int k = 0; k < steps; ++k) {
    const double t = (k + 0.5) / steps;  // each step's centre
    bar.colors.push_back(heat_color(h, bar.range, bar.range.lo + t * (bar.range.hi - bar.range.lo)));
  }
  return bar;
}

}  // namespace sg::plot
