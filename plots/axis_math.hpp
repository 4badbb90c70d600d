#pragma once
// Axis arithmetic shared by the SVG writer and the ImGui renderer, so both place ticks, bounds and
// series identically: scale transforms, tick generation and labels, data bounds, NaN-gap splitting,
// nearest-point lookup and the default palette.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "plots/plot.hpp"

namespace sg::plot {

enum class AxisId { x, y };

// ---- Scale transforms -------------------------------------------------------------------------------
// forward maps data to "transformed" space, where the axis is linear. Log of a non-positive value is NaN
// (drawn as a gap). symlog: sign(v) * log10(1 + |v| / threshold).
double scale_forward(double v, Scale scale, double threshold = 1.0);
double scale_inverse(double t, Scale scale, double threshold = 1.0);
// True when v can be drawn on the scale (finite, and positive for log).
bool drawable_on(double v, Scale scale);

struct Range {
  double lo = 0.0, hi = 1.0;
};

// Data range [lo, hi] mapped affinely (in transformed space) onto pixels [pix_lo, pix_hi].
// For a y axis pass pix_lo = bottom, pix_hi = top.
struct AxisMap {
  Scale scale = Scale::linear;
  double threshold = 1.0;
  Range view;
  double pix_lo = 0.0, pix_hi = 1.0;

  double to_pixel(double v) const;
  double to_data(double pixel) const;
};

AxisMap make_axis_map(const Axis& axis, Range view, double pix_lo, double pix_hi);
AxisMap make_axis_map(Scale scale, double threshold, Range view, double pix_lo, double pix_hi);

// ---- Ticks -----------------------------------------------------------------------------------------
struct Tick {
  double value = 0.0;
  std::string label;
};

// Ticks inside [lo, hi], increasing. linear: 1-2-5 steps; log: decades (with 2 and 5 if fewer than two
// decades fit); symlog: 0 and +-threshold * 10^k. Falls back to linear ticks when a scale has too few.
std::vector<Tick> make_ticks(Range view, Scale scale, double threshold = 1.0, int target_count = 6);
// A 1-2-5 step near span / target_count.
double nice_step(double span, int target_count);

// Compact label: "0", "0.5", "12.25", "1e-3", "-2e4". `step` (tick spacing) picks the precision so
// neighbouring labels differ; pass 0 for a general-purpose 4-significant-digit readout.
std::string format_tick(double v, double step = 0.0);

// ---- Bounds ----------------------------------------------------------------------------------------
// The q-quantile of values (the element at floor(q (n - 1)) in sorted order); NaN when there are none.
double quantile(std::vector<double> values, double q);

// Which series count (drawn, autofitted, in legends): Series::visible and neither its name nor its group is
// in `hidden`.
std::vector<bool> shown_series(const Plot& plot, const std::vector<std::string>& hidden = {});

// Min/max of the shown series' values on one axis, ignoring NaN/inf and (on log) non-positive values.
std::optional<Range> data_bounds(const Plot& plot, AxisId axis, Scale scale, const std::vector<bool>& shown);

// data_bounds, or for a robust axis (Axis::robust) the 1st-99th percentile band when the full range is over
// 20 times wider than it.
std::optional<Range> fit_bounds(const Plot& plot, AxisId axis, Scale scale, const std::vector<bool>& shown);

// 5% padding in transformed space; a degenerate range (also one narrower than 1e-9 of its magnitude, which
// rounding noise produces: ticks 1 and 0.99999999995) widens around its value; no data gives a default.
Range padded_range(std::optional<Range> bounds, Scale scale, double threshold = 1.0);

// The range to show: Axis::min/max where set (finite and valid on the scale), otherwise autofit.
Range auto_view(const Plot& plot, AxisId axis, Scale scale, const std::vector<bool>& shown);
Range auto_view(const Plot& plot, AxisId axis);

// ---- Series geometry -------------------------------------------------------------------------------
struct IndexRun {
  std::size_t begin = 0, end = 0;  // [begin, end)
};

// Contiguous runs of drawable points; a NaN/inf (or non-positive on log) in x or y ends a run.
std::vector<IndexRun> drawable_runs(const Series& series, Scale x_scale, Scale y_scale);

struct NearestPoint {
  std::size_t series = 0;
  std::size_t index = 0;
  double distance_px = 0.0;
};

// Closest drawable point of the shown series to (px, py) in screen space, within max_distance_px.
std::optional<NearestPoint> nearest_point(const Plot& plot, const std::vector<bool>& shown,
                                          const AxisMap& xmap, const AxisMap& ymap, double px, double py,
                                          double max_distance_px);

// "name: x=..., y=..." for a hover readout.
std::string point_readout(const Plot& plot, const NearestPoint& point);

// Shown points whose x lies in the view and whose finite y lies above or below it: the renderers mark them
// at the plot's top or bottom edge, so a robust autofit never hides data silently.
struct OffScalePoint {
  std::size_t series = 0;
  double x = 0.0;
  bool above = false;
};
std::vector<OffScalePoint> off_scale_points(const Plot& plot, const std::vector<bool>& shown, Scale x_scale,
                                            Scale y_scale, Range x_view, Range y_view);

// ---- Legend -----------------------------------------------------------------------------------------
struct LegendItem {
  std::size_t series = 0;  // the first series of its group: its colour and dash stand for the entry
  std::string label;       // the group, else the series name ("series N" when unnamed)
  std::string key;         // what hiding it adds to PlotViewState::hidden_series: the group, else the name
};
// One entry per visible ungrouped series and per group, in series order.
std::vector<LegendItem> legend_items(const Plot& plot);

// ---- Colours ---------------------------------------------------------------------------------------
// Okabe-Ito (colour-blind safe), black swapped for grey so it shows on light and dark backgrounds.
Color palette_color(std::size_t index);
// One colour per series: auto_color series take consecutive palette entries, the others keep theirs.
std::vector<Color> resolve_colors(const Plot& plot);

const char* scale_name(Scale scale);

}  // namespace sg::plot
