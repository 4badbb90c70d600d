#pragma once
// Heatmap arithmetic shared by the renderers: the colour range (robust by default, so a few extreme cells do
// not wash out the map), the colour of a value, and the cells' edges in data coordinates.
#include "plots/axis_math.hpp"
#include "plots/plot.hpp"

namespace sg::plot {

// The colour range of a heatmap: its lo/hi when set, else the 2nd and 98th percentiles of the finite values
// (diverging maps: +- the 98th percentile of |v|). A degenerate range is widened around its value.
Range heat_range(const Heatmap& h);
// v mapped into the range (clamped): a perceptually ordered dark-blue to yellow ramp, or blue-white-red for
// diverging maps; grey for a NaN.
Color heat_color(const Heatmap& h, Range range, double v);
// The outer edges of the cells along x and y (centres +- half a cell).
Range heat_x_edges(const Heatmap& h);
Range heat_y_edges(const Heatmap& h);

}  // namespace sg::plot
