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

// The colour bar both renderers draw right of a heatmap's data area, so a colour can be read as a number:
// the colour range, ticks inside it, and `steps` colours of equal height from its bottom (lo) to its top.
struct ColorBar {
  Range range;
  std::vector<Tick> ticks;
  std::vector<Color> colors;
};
// Empty (no colours) when the plot has no heatmap to draw.
ColorBar heat_color_bar(const Heatmap& h, int steps = 64);
// What a renderer reserves right of the data area for the bar: gap, strip and tick labels.
constexpr double kColorBarGap = 10.0, kColorBarWidth = 12.0, kColorBarTickGap = 4.0;

}  // namespace sg::plot
