#pragma once
// Internals of the ImGui plot renderer shared by its layout, drawing and input files.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "plots/axis_math.hpp"
#include "plots/heatmap.hpp"
#include "plots/imgui_plot.hpp"
#include "plots/imgui_text_fit.hpp"

namespace sg::plot::imgui_detail {

struct LegendEntry {
  std::size_t series = 0;  // whose colour and dash the sample line takes
  std::string key, label;  // what a click toggles in PlotViewState::hidden_series; the (shortened) text
  std::string full_label;  // shown in a tooltip when label is shortened
  ImVec2 min, max;
  bool hidden = false;  // toggled off by the user, drawn greyed
};

// Where everything goes this frame, and how data maps to pixels.
struct PlotLayout {
  ImVec2 widget_min, widget_max;
  ImVec2 area_min, area_max;  // the data area inside the axes
  AxisMap xmap, ymap;
  std::vector<bool> shown;
  std::vector<Color> colors;
  // Text above the data area. ImGui cannot rotate text, so the y label sits top left, next to the title,
  // on its own row below it, or shortened from the front ("...particles.0.pos.2") so the two never overlap.
  std::string title, y_label;
  ImVec2 title_pos, y_label_pos;
  std::string x_label;  // shortened at its end to the widget's width ("body 0 velocity z  (model.bo...")
  std::vector<LegendEntry> legend;  // in rows between the title and the data area
  ColorBar bar;                     // a heatmap's colour bar, right of the data area
};

// Text shortened to a width (plots/imgui_text_fit.hpp).
using plot::fit_head;
using plot::fit_middle;
using plot::fit_tail;

// What the plot widget's mouse state was right after it was submitted (before the context menu).
struct ItemInput {
  bool hovered = false, active = false, activated = false, deactivated = false, double_clicked = false;
  ImVec2 mouse;
};

// layout: imgui_plot_layout.cpp
void sync_view(const Plot& plot, PlotViewState& state, const std::vector<bool>& shown);
PlotLayout make_layout(const Plot& plot, const PlotViewState& state, ImVec2 widget_min, ImVec2 widget_max);
bool inside(ImVec2 p, ImVec2 min, ImVec2 max);
ImU32 to_imgui_color(Color c, float alpha_scale = 1.0f);

// drawing: imgui_plot_draw.cpp
void draw_axes(ImDrawList* dl, const PlotLayout& layout);
void draw_series(ImDrawList* dl, const Plot& plot, const PlotLayout& layout);
void draw_vertical_markers(ImDrawList* dl, const Plot& plot, const PlotLayout& layout);
// Triangles at the top or bottom edge for shown points above or below the view.
void draw_off_scale(ImDrawList* dl, const Plot& plot, const PlotLayout& layout);
void draw_legend(ImDrawList* dl, const Plot& plot, const PlotLayout& layout);
// The whole label of a shortened legend entry under the mouse, as a tooltip.
void legend_tooltip(const ItemInput& in, const PlotLayout& layout);
void draw_color_bar(ImDrawList* dl, const PlotLayout& layout);
void draw_hover(ImDrawList* dl, const Plot& plot, const PlotLayout& layout, const PlotViewState& state,
                const std::optional<NearestPoint>& hit);

// input: imgui_plot_input.cpp
// Where a point of the widget is: the data area, an axis's margin (its tick labels), the rows above the data
// (title, label, legend), or elsewhere (the corner below the y axis).
enum class PlotZone { data, x_axis, y_axis, top, other };
PlotZone zone_of(ImVec2 p, const PlotLayout& layout);
// A new press: resets the drag bookkeeping and notes which axes a drag from there pans.
void note_press(const ItemInput& in, PlotViewState& state, const PlotLayout& layout);
bool handle_legend_click(const ItemInput& in, PlotViewState& state, const std::vector<LegendEntry>& entries);
bool handle_zoom_and_pan(const ItemInput& in, const Plot& plot, PlotViewState& state,
                         const PlotLayout& layout, PlotInteraction& result);
// Right drag over the data: the box is drawn while the button is down and zoomed into on release; a right
// click without drag sets *open_menu.
bool handle_box_zoom(const ItemInput& in, PlotViewState& state, const PlotLayout& layout, bool* open_menu);
void draw_box(ImDrawList* dl, const PlotViewState& state, const PlotLayout& layout);
void handle_click(const ItemInput& in, const Plot& plot, PlotViewState& state, const PlotLayout& layout,
                  const std::optional<NearestPoint>& hover, PlotInteraction& result);
std::optional<NearestPoint> update_hover(const ItemInput& in, const Plot& plot, PlotViewState& state,
                                         const PlotLayout& layout);
void context_menu(const Plot& plot, PlotViewState& state, PlotInteraction& result, bool open, bool maximised);

}  // namespace sg::plot::imgui_detail
