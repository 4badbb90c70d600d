#pragma once
// Dear ImGui renderer for plot descriptions, drawn with draw lists only (ImPlot is not packaged in Debian).
// Uses the same axis math as the SVG writer so a plot looks the same in the GUI and in an exported file.
#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "plots/plot.hpp"

namespace sg::plot {

// Per plot, owned by the caller, persists across frames.
struct PlotViewState {
  bool autofit = true;
  double x_min = 0.0, x_max = 1.0, y_min = 0.0, y_max = 1.0;  // current view when not autofit
  std::vector<std::string> hidden_series;                     // legend toggles
  bool has_hover = false;
  std::string hover_text;  // readout of the nearest point
  // Context-menu scale choices; empty means use the plot's Axis::scale.
  std::optional<Scale> x_scale, y_scale;
  // Mouse bookkeeping between frames (a press that became a drag is not a click).
  bool drag_moved = false;
  bool press_on_legend = false;
};

struct PlotInteraction {
  bool clicked = false;
  double clicked_x = 0, clicked_y = 0;  // data coordinates of a left click without drag
  bool export_png = false;
  bool export_svg = false;
  bool export_csv = false;
  bool export_json = false;
};

// Draws the plot as one widget of `size` (a non-positive component takes the available space) and handles
// zoom (wheel), pan (drag), autofit (double-click), legend toggles, hover readout and the context menu.
PlotInteraction draw_plot_imgui(const char* id, const Plot& plot, PlotViewState& state, ImVec2 size);

// The scale an axis is drawn in, after the view state's context-menu override.
Scale effective_x_scale(const Plot& plot, const PlotViewState& state);
Scale effective_y_scale(const Plot& plot, const PlotViewState& state);

}  // namespace sg::plot
