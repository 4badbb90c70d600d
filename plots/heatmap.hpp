#pragma once
// Heatmap arithmetic shared by the renderers: the colour range (robust by default, so a few extreme cells do
// not wash out the map), the colour of a value, and the cells' edges in data coordinates.
#include <vector>

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

// One cell: its edges in data coordinates (cells extend half a step beyond the outer centres) and colour.
struct HeatCell {
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  Color color;
};
// Every cell of the map, row by row; none when the heatmap is empty or its values do not fill nx x ny.
std::vector<HeatCell> heat_cells(const Heatmap& h);

}  // namespace sg::plot
