// Tick positions and compact tick labels for each scale.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "plots/axis_math.hpp"

namespace sg::plot {
namespace {

constexpr int kMaxTicks = 200;  // guards against absurd spans producing huge tick lists

// Strip trailing zeros (and a dangling '.') from a fixed-point mantissa.
std::string trim_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string format_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::clamp(decimals, 0, 17), v);
  std::string s = trim_zeros(buf);
  return s == "-0" ? "0" : s;
}

std::string format_scientific(double v, int significant) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", std::clamp(significant - 1, 0, 16), v);
  const std::string s = buf;
  const auto e = s.find('e');
  const int exponent = std::stoi(s.substr(e + 1));
  return trim_zeros(s.substr(0, e)) + "e" + std::to_string(exponent);
}

std::vector<Tick> linear_ticks(Range view, int target_count) {
  std::vector<Tick> ticks;
  const double step = nice_step(view.hi - view.lo, target_count);
  if (!(step > 0.0) || !std::isfinite(step)) return ticks;
  const double first = std::ceil(view.lo / step - 1e-9);
  const double last = std::floor(view.hi / step + 1e-9);
  for (double i = first; i <= last && ticks.size() < kMaxTicks; i += 1.0) {
    double v = i * step;
    if (std::abs(v) < step * 1e-9) v = 0.0;  // no "-0" or 1e-17 at the origin
    ticks.push_back({v, format_tick(v, step)});
  }
  return ticks;
}

// Every stride-th decade in the view (the multiples of stride).
std::vector<Tick> decades_every(int d0, int d1, int stride) {
  std::vector<Tick> ticks;
  for (int d = d0; d <= d1; ++d) {
    if (((d % stride) + stride) % stride != 0) continue;
    const double v = std::pow(10.0, d);
    ticks.push_back({v, format_tick(v)});
  }
  return ticks;
}

// Every decade, or every stride-th decade when there are more than target_count; where that leaves fewer than
// three of a view spanning three decades or more, a smaller stride (a short plot's axis over many decades
// still reads in decades).
std::vector<Tick> decade_ticks(Range view, int target_count) {
  const int d0 = static_cast<int>(std::ceil(std::log10(view.lo) - 1e-9));
  const int d1 = static_cast<int>(std::floor(std::log10(view.hi) + 1e-9));
  int stride = std::max(1, (d1 - d0 + target_count) / std::max(1, target_count));
  std::vector<Tick> ticks = decades_every(d0, d1, stride);
  while (ticks.size() < 3 && stride > 1 && d1 - d0 >= 2) ticks = decades_every(d0, d1, --stride);
  return ticks;
}

// 1, 2, 5 times each decade, for log views spanning two decades or less.
std::vector<Tick> sub_decade_ticks(Range view) {
  std::vector<Tick> ticks;
  const int d0 = static_cast<int>(std::floor(std::log10(view.lo)));
  const int d1 = static_cast<int>(std::floor(std::log10(view.hi)));
  for (int d = d0; d <= d1; ++d) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, d);
      if (v >= view.lo * (1 - 1e-9) && v <= view.hi * (1 + 1e-9)) ticks.push_back({v, format_tick(v)});
    }
  }
  return ticks;
}

std::vector<Tick> log_ticks(Range view, int target_count) {
  if (!(view.lo > 0.0) || !(view.hi > view.lo) || !std::isfinite(view.hi)) return {};
  std::vector<Tick> ticks = decade_ticks(view, target_count);
  if (ticks.size() >= 3) return ticks;
  // Two decades or fewer: 1, 2 and 5 per decade read better (over more, they are too many to label).
  if (std::log10(view.hi / view.lo) <= 2.0 + 1e-9)
    if (std::vector<Tick> finer = sub_decade_ticks(view); finer.size() >= 2) return finer;
  if (ticks.size() >= 2) return ticks;
  ticks = linear_ticks(view, target_count);
  std::erase_if(ticks, [](const Tick& t) { return !(t.value > 0.0); });
  return ticks;
}

// 0 and +-threshold * 10^k inside the view, every stride-th decade when there are too many; linear ticks
// for views that barely leave the linear region.
std::vector<Tick> symlog_ticks(Range view, double threshold, int target_count) {
  const double extent = std::max(std::abs(view.lo), std::abs(view.hi));
  // Mostly inside the near-linear region (under a decade past the threshold): decades would give just 0, +-t.
  if (extent < 10.0 * threshold) return linear_ticks(view, target_count);
  const auto inside = [&](double v) {
    const double slack = 1e-9 * std::max(threshold, std::abs(v));
    return v >= view.lo - slack && v <= view.hi + slack;
  };
  std::vector<std::pair<int, double>> candidates;  // (decade index k, value)
  int k = 0;
  for (double m = threshold; m <= extent * (1 + 1e-9) && k < 300; m *= 10.0, ++k) {
    if (inside(-m)) candidates.emplace_back(k, -m);
    if (inside(m)) candidates.emplace_back(k, m);
  }
  const int count = static_cast<int>(candidates.size()) + 1;
  const int stride = std::max(1, (count + target_count - 1) / std::max(1, target_count));
  std::vector<double> values;
  if (inside(0.0)) values.push_back(0.0);
  for (const auto& [decade, v] : candidates) {
    if (decade % stride == 0) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  std::vector<Tick> ticks;
  for (double v : values) ticks.push_back({v, format_tick(v)});
  return ticks.size() >= 2 ? ticks : linear_ticks(view, target_count);
}

}  // namespace

double nice_step(double span, int target_count) {
  if (!(span > 0.0) || !std::isfinite(span)) return 0.0;
  const double raw = span / std::max(1, target_count);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / decade;
  const double nice = fraction < 1.5 ? 1.0 : fraction < 3.5 ? 2.0 : fraction < 7.5 ? 5.0 : 10.0;
  return nice * decade;
}

std::string format_tick(double v, double step) {
  if (v == 0.0) return "0";
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  const double magnitude = std::abs(v);
  const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  const bool has_step = step > 0.0 && std::isfinite(step);
  const int step_exponent = has_step ? static_cast<int>(std::floor(std::log10(step) + 1e-9)) : 0;
  // Significant digits: enough to separate neighbouring ticks, or 4 for a general readout.
  const int significant = has_step ? std::clamp(exponent - step_exponent + 1, 1, 15) : 4;
  if (magnitude >= 1e4 || magnitude < 1e-2) return format_scientific(v, significant);
  const int decimals = has_step ? -step_exponent : significant - 1 - exponent;
  return format_fixed(v, std::max(0, decimals));
}

std::vector<Tick> make_ticks(Range view, Scale scale, double threshold, int target_count) {
  if (!std::isfinite(view.lo) || !std::isfinite(view.hi) || !(view.hi > view.lo)) return {};
  switch (scale) {
    case Scale::linear:
      return linear_ticks(view, target_count);
    case Scale::log:
      return log_ticks(view, target_count);
    case Scale::symlog:
      return symlog_ticks(view, threshold > 0.0 ? threshold : 1.0, target_count);
  }
  return {};
}

}  // namespace sg::plot
