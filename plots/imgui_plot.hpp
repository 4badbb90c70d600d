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
  // What a left drag pans: both axes, or only the axis whose margin (tick labels) the press started in.
  enum class DragAxes { both, x, y };
  DragAxes drag_axes = DragAxes::both;
  // A right drag over the data draws a box to zoom into; a right click without drag opens the menu.
  bool box_active = false;
  ImVec2 box_from;
  bool right_pressed = false;  // the right button went down over this plot and is not yet released
};

struct PlotInteraction {
  bool clicked = false;
  // Data coordinates of a left click without drag: the hovered point's, when the readout showed one (the
  // click selects what the readout named), else the mouse's.
  double clicked_x = 0, clicked_y = 0;
  bool snapped = false;          // the click took the hovered point's coordinates
  bool toggle_maximise = false;  // double-click on the title row, or the menu's "Maximise" / "Restore"
  bool export_png = false;
  bool export_svg = false;
  bool export_csv = false;
  bool export_json = false;
};

// Draws the plot as one widget of `size` (a non-positive component takes the available space) and handles
// zoom (wheel; over an axis's margin that axis only), box zoom (right drag), pan (drag; from an axis's margin
// that axis only), autofit (double-click the data; an axis's margin fits that axis), legend toggles, hover
// readout and the context menu (right click). `maximised` only names the menu item ("Restore").
PlotInteraction draw_plot_imgui(const char* id, const Plot& plot, PlotViewState& state, ImVec2 size,
                                bool maximised = false);

// What each plot drawn in the current ImGui frame got: the F3 overlay and the layout tests read it to tell
// whether a window is too small for its plots (a data area of a few pixels, legend entries left out).
struct DrawnPlotInfo {
  std::string title;
  ImVec2 widget_min;             // top-left corner on screen
  ImVec2 widget, area;           // sizes in pixels
  std::size_t legend_shown = 0;  // entries drawn
  std::size_t legend_items = 0;  // entries the plot has
};
const std::vector<DrawnPlotInfo>& plots_drawn_this_frame();

// The scale an axis is drawn in, after the view state's context-menu override.
Scale effective_x_scale(const Plot& plot, const PlotViewState& state);
Scale effective_y_scale(const Plot& plot, const PlotViewState& state);

}  // namespace sg::plot
