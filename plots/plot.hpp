#pragma once
// A renderer-independent plot description: what to draw, not how. The SVG writer (svg.hpp) and the
// ImGui renderer (imgui_plot.hpp) both draw these, so a figure in the GUI and one written headless agree.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace sg::plot {

enum class Scale { linear, log, symlog };

struct Axis {
  std::string label;
  Scale scale = Scale::linear;
  double symlog_threshold = 1.0;  // |v| below this is drawn linearly under Scale::symlog
  // Fixed limits; NaN means autofit to the data.
  double min = std::numeric_limits<double>::quiet_NaN();
  double max = std::numeric_limits<double>::quiet_NaN();
  // Autofit ignores outliers: when the full range is over 20 times the 1st-99th percentile band of the shown
  // values, the band (padded) is shown and the points beyond it are marked at the plot's edge. For gradient
  // plots, where one finite difference across a jump would otherwise flatten every other curve.
  bool robust = false;
};

enum class SeriesStyle { line, markers, line_and_markers };

struct Color {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

struct Series {
  std::string name;
  std::vector<double> x, y;  // same length; a NaN in either leaves a gap
  SeriesStyle style = SeriesStyle::line;
  Color color;
  bool auto_color = true;  // take the next palette colour when true
  bool dashed = false;
  bool faded = false;  // a pinned reference sweep, drawn behind and translucent
  float width = 1.5f;
  bool visible = true;  // legend toggle
  // Series with the same non-empty group (a pinned sweep's AD and FD curves) share one legend entry, named by
  // the group, and one toggle.
  std::string group;
};

// A scalar field on a regular grid, drawn as coloured cells beneath the series (2-D sweeps).
struct Heatmap {
  long nx = 0, ny = 0;  // 0: no heatmap
  // Centres of the first and last cells along each axis.
  double x_from = 0.0, x_to = 1.0, y_from = 0.0, y_to = 1.0;
  std::vector<double> values;  // row-major: ny rows of nx; NaN: no value (drawn grey)
  bool diverging = false;      // blue - white - red around 0 (signed quantities); else dark to bright
  // Colour range; NaN: robust, the 2nd and 98th percentiles (diverging: symmetric about 0).
  double lo = std::numeric_limits<double>::quiet_NaN();
  double hi = std::numeric_limits<double>::quiet_NaN();
};

struct Plot {
  std::string title;
  Axis x, y;
  Heatmap heatmap;
  std::vector<Series> series;
  std::vector<double> vertical_markers;  // e.g. the selected sweep value
  bool legend = true;  // drawn in rows between the title and the data area, never over the data
};

// Plots laid out on a grid, row by row.
struct Figure {
  std::string title;
  int columns = 1;
  std::vector<Plot> plots;
};

}  // namespace sg::plot
