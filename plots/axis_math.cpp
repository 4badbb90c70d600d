// Scale transforms, axis maps and data bounds (ticks live in ticks.cpp, series geometry in
// series_geometry.cpp).
#include "plots/axis_math.hpp"

#include <algorithm>
#include <cmath>

namespace sg::plot {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double safe_threshold(double threshold) {
  return threshold > 0.0 && std::isfinite(threshold) ? threshold : 1.0;
}

const std::vector<double>& axis_values(const Series& series, AxisId axis) {
  return axis == AxisId::x ? series.x : series.y;
}

const Axis& plot_axis(const Plot& plot, AxisId axis) {
  return axis == AxisId::x ? plot.x : plot.y;
}

}  // namespace

double scale_forward(double v, Scale scale, double threshold) {
  switch (scale) {
    case Scale::linear:
      return v;
    case Scale::log:
      return v > 0.0 ? std::log10(v) : kNaN;
    case Scale::symlog:
      return std::copysign(std::log10(1.0 + std::abs(v) / safe_threshold(threshold)), v);
  }
  return v;
}

double scale_inverse(double t, Scale scale, double threshold) {
  switch (scale) {
    case Scale::linear:
      return t;
    case Scale::log:
      return std::pow(10.0, t);
    case Scale::symlog:
      return std::copysign(safe_threshold(threshold) * (std::pow(10.0, std::abs(t)) - 1.0), t);
  }
  return t;
}

bool drawable_on(double v, Scale scale) {
  return std::isfinite(v) && (scale != Scale::log || v > 0.0);
}

double AxisMap::to_pixel(double v) const {
  const double t0 = scale_forward(view.lo, scale, threshold);
  const double t1 = scale_forward(view.hi, scale, threshold);
  if (!(t1 != t0)) return 0.5 * (pix_lo + pix_hi);
  return pix_lo + (scale_forward(v, scale, threshold) - t0) / (t1 - t0) * (pix_hi - pix_lo);
}

double AxisMap::to_data(double pixel) const {
  const double t0 = scale_forward(view.lo, scale, threshold);
  const double t1 = scale_forward(view.hi, scale, threshold);
  if (pix_hi == pix_lo) return view.lo;
  return scale_inverse(t0 + (pixel - pix_lo) / (pix_hi - pix_lo) * (t1 - t0), scale, threshold);
}

AxisMap make_axis_map(Scale scale, double threshold, Range view, double pix_lo, double pix_hi) {
  AxisMap map;
  map.scale = scale;
  map.threshold = safe_threshold(threshold);
  map.view = view;
  map.pix_lo = pix_lo;
  map.pix_hi = pix_hi;
  return map;
}

AxisMap make_axis_map(const Axis& axis, Range view, double pix_lo, double pix_hi) {
  return make_axis_map(axis.scale, axis.symlog_threshold, view, pix_lo, pix_hi);
}

std::vector<bool> shown_series(const Plot& plot, const std::vector<std::string>& hidden) {
  std::vector<bool> shown;
  shown.reserve(plot.series.size());
  for (const Series& s : plot.series) {
    const auto listed = [&](const std::string& key) {
      return std::find(hidden.begin(), hidden.end(), key) != hidden.end();
    };
    const bool is_hidden = listed(s.name) || (!s.group.empty() && listed(s.group));
    shown.push_back(s.visible && !is_hidden);
  }
  return shown;
}

std::optional<Range> data_bounds(const Plot& plot, AxisId axis, Scale scale, const std::vector<bool>& shown) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    if (i < shown.size() && !shown[i]) continue;
    for (double v : axis_values(plot.series[i], axis)) {
      if (!drawable_on(v, scale)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo > hi) return std::nullopt;
  return Range{lo, hi};
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return kNaN;
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + k, values.end());
  return values[static_cast<std::size_t>(k)];
}

std::optional<Range> fit_bounds(const Plot& plot, AxisId axis, Scale scale, const std::vector<bool>& shown) {
  const std::optional<Range> full = data_bounds(plot, axis, scale, shown);
  if (!full || !plot_axis(plot, axis).robust) return full;
  std::vector<double> values;
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    if (i < shown.size() && !shown[i]) continue;
    for (double v : axis_values(plot.series[i], axis))
      if (drawable_on(v, scale)) values.push_back(v);
  }
  // Percentiles commute with the monotone scale transforms; the comparison is made in transformed space.
  const double lo = quantile(values, 0.01), hi = quantile(values, 0.99);
  const auto t = [&](double v) { return scale_forward(v, scale, plot_axis(plot, axis).symlog_threshold); };
  const double band = t(hi) - t(lo), span = t(full->hi) - t(full->lo);
  // A band of (nearly) one value is shown as padded_range widens it: by 20% of the value, or a decade.
  const double widened = scale == Scale::linear && lo != 0.0 ? 0.2 * std::abs(lo) : 1.0;
  if (span <= 20.0 * std::max(band, widened)) return full;
  return Range{lo, hi};
}

Range padded_range(std::optional<Range> bounds, Scale scale, double threshold) {
  if (!bounds) return scale == Scale::log ? Range{1.0, 10.0} : Range{0.0, 1.0};
  double t0 = scale_forward(bounds->lo, scale, threshold);
  double t1 = scale_forward(bounds->hi, scale, threshold);
  if (!(t1 - t0 > 1e-9 * std::max(std::abs(t0), std::abs(t1)))) {
    const double mid = 0.5 * (t0 + t1);
    t0 = t1 = mid;
    // A single value: widen by 10% (linear) or half a decade (log/symlog) so it sits mid-axis.
    double half = 0.5;
    if (scale == Scale::linear && t0 != 0.0) half = std::abs(t0) * 0.1;
    t0 -= half;
    t1 += half;
  }
  const double pad = 0.05 * (t1 - t0);
  return Range{scale_inverse(t0 - pad, scale, threshold), scale_inverse(t1 + pad, scale, threshold)};
}

Range auto_view(const Plot& plot, AxisId axis, Scale scale, const std::vector<bool>& shown) {
  const Axis& a = plot_axis(plot, axis);
  const Range fitted = padded_range(fit_bounds(plot, axis, scale, shown), scale, a.symlog_threshold);
  Range view = fitted;
  if (drawable_on(a.min, scale)) view.lo = a.min;
  if (drawable_on(a.max, scale)) view.hi = a.max;
  return view.lo < view.hi ? view : fitted;
}

Range auto_view(const Plot& plot, AxisId axis) {
  return auto_view(plot, axis, plot_axis(plot, axis).scale, shown_series(plot));
}

const char* scale_name(Scale scale) {
  switch (scale) {
    case Scale::linear:
      return "linear";
    case Scale::log:
      return "log";
    case Scale::symlog:
      return "symlog";
  }
  return "linear";
}

}  // namespace sg::plot
