// Mouse handling for the ImGui plot widget: legend toggles, zoom, pan, autofit, clicks, hover, context menu.
#include <algorithm>
#include <cmath>

#include "plots/imgui_plot_internal.hpp"

namespace sg::plot::imgui_detail {
namespace {

constexpr double kWheelZoom = 0.8;     // view scale per wheel notch (< 1 zooms in)
constexpr double kHoverRadius = 24.0;  // pixels
constexpr float kBoxMinimum = 4.0f;    // a right drag shorter than this along both axes is a click

bool usable(Range r, Scale scale) {
  return drawable_on(r.lo, scale) && drawable_on(r.hi, scale) && r.lo < r.hi;
}

// Scale the view about a pixel so the data under it stays put (the map is affine in transformed space).
Range zoom_axis(const AxisMap& m, double center_pixel, double factor) {
  return {m.to_data(center_pixel + (m.pix_lo - center_pixel) * factor),
          m.to_data(center_pixel + (m.pix_hi - center_pixel) * factor)};
}

Range pan_axis(const AxisMap& m, double delta_pixels) {
  return {m.to_data(m.pix_lo - delta_pixels), m.to_data(m.pix_hi - delta_pixels)};
}

bool apply_view(PlotViewState& state, const PlotLayout& layout, Range x, Range y) {
  if (!usable(x, layout.xmap.scale) || !usable(y, layout.ymap.scale)) return false;  // zoomed past precision
  state.autofit = false;
  state.x_min = x.lo;
  state.x_max = x.hi;
  state.y_min = y.lo;
  state.y_max = y.hi;
  return true;
}

bool handle_wheel(const ItemInput& in, PlotViewState& state, const PlotLayout& layout) {
  const float wheel = ImGui::GetIO().MouseWheel;
  if (!in.hovered || wheel == 0.0f) return false;
  // Over the data both axes zoom; over an axis margin only that axis does.
  const bool over_x = in.mouse.x >= layout.area_min.x;
  const bool over_y = in.mouse.y <= layout.area_max.y;
  const double factor = std::pow(kWheelZoom, static_cast<double>(wheel));
  const Range x = over_x ? zoom_axis(layout.xmap, in.mouse.x, factor) : layout.xmap.view;
  const Range y = over_y ? zoom_axis(layout.ymap, in.mouse.y, factor) : layout.ymap.view;
  return apply_view(state, layout, x, y);
}

bool handle_drag(const ItemInput& in, PlotViewState& state, const PlotLayout& layout) {
  if (!in.active || state.press_on_legend || !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) return false;
  // The first dragging frame catches up on the motion below the drag threshold.
  const ImVec2 delta =
      state.drag_moved ? ImGui::GetIO().MouseDelta : ImGui::GetMouseDragDelta(ImGuiMouseButton_Left);
  state.drag_moved = true;
  if (delta.x == 0.0f && delta.y == 0.0f) return false;
  using Axes = PlotViewState::DragAxes;
  const Range x = state.drag_axes == Axes::y ? layout.xmap.view : pan_axis(layout.xmap, delta.x);
  const Range y = state.drag_axes == Axes::x ? layout.ymap.view : pan_axis(layout.ymap, delta.y);
  return apply_view(state, layout, x, y);
}

// One axis autofitted to the shown data, the other kept.
bool fit_axis(const Plot& plot, PlotViewState& state, const PlotLayout& layout, AxisId axis) {
  const bool is_x = axis == AxisId::x;
  const Range fitted = auto_view(plot, axis, is_x ? layout.xmap.scale : layout.ymap.scale, layout.shown);
  return apply_view(state, layout, is_x ? fitted : layout.xmap.view, is_x ? layout.ymap.view : fitted);
}

ImVec2 clamp_to_area(ImVec2 p, const PlotLayout& layout) {
  return ImVec2(std::clamp(p.x, layout.area_min.x, layout.area_max.x),
                std::clamp(p.y, layout.area_min.y, layout.area_max.y));
}

void scale_menu(const char* label, std::optional<Scale>& override_scale, Scale current,
                PlotViewState& state) {
  if (!ImGui::BeginMenu(label)) return;
  for (Scale s : {Scale::linear, Scale::log, Scale::symlog}) {
    if (ImGui::MenuItem(scale_name(s), nullptr, current == s)) {
      override_scale = s;
      state.autofit = true;  // the old view may not exist on the new scale (e.g. negatives on log)
    }
  }
  ImGui::EndMenu();
}

}  // namespace

PlotZone zone_of(ImVec2 p, const PlotLayout& l) {
  if (inside(p, l.area_min, l.area_max)) return PlotZone::data;
  const bool in_x_span = p.x >= l.area_min.x && p.x < l.area_max.x;
  const bool in_y_span = p.y >= l.area_min.y && p.y < l.area_max.y;
  if (in_x_span && p.y >= l.area_max.y && p.y < l.widget_max.y) return PlotZone::x_axis;
  if (in_y_span && p.x >= l.widget_min.x && p.x < l.area_min.x) return PlotZone::y_axis;
  if (p.x >= l.widget_min.x && p.x < l.widget_max.x && p.y >= l.widget_min.y && p.y < l.area_min.y)
    return PlotZone::top;
  return PlotZone::other;
}

void note_press(const ItemInput& in, PlotViewState& state, const PlotLayout& layout) {
  if (!in.activated) return;  // a new press: nothing dragged yet
  state.drag_moved = false;
  state.press_on_legend = false;
  using Axes = PlotViewState::DragAxes;
  const PlotZone zone = zone_of(in.mouse, layout);
  state.drag_axes = zone == PlotZone::x_axis ? Axes::x : zone == PlotZone::y_axis ? Axes::y : Axes::both;
}

bool handle_legend_click(const ItemInput& in, PlotViewState& state, const std::vector<LegendEntry>& entries) {
  if (!in.activated) return false;
  for (const LegendEntry& e : entries) {
    if (!inside(in.mouse, e.min, e.max)) continue;
    state.press_on_legend = true;
    auto& hidden = state.hidden_series;
    const auto it = std::find(hidden.begin(), hidden.end(), e.key);
    if (it == hidden.end()) {
      hidden.push_back(e.key);
    } else {
      hidden.erase(it);
    }
    return true;
  }
  return false;
}

bool handle_zoom_and_pan(const ItemInput& in, const Plot& plot, PlotViewState& state,
                         const PlotLayout& layout, PlotInteraction& result) {
  if (in.double_clicked) {
    switch (zone_of(in.mouse, layout)) {
      case PlotZone::data:
        state.autofit = true;
        return true;
      case PlotZone::x_axis:
        return fit_axis(plot, state, layout, AxisId::x);
      case PlotZone::y_axis:
        return fit_axis(plot, state, layout, AxisId::y);
      case PlotZone::top:
        result.toggle_maximise = !state.press_on_legend;
        return false;
      case PlotZone::other:
        break;
    }
  }
  const bool zoomed = handle_wheel(in, state, layout);
  const bool panned = handle_drag(in, state, layout);
  return zoomed || panned;
}

bool handle_box_zoom(const ItemInput& in, PlotViewState& state, const PlotLayout& layout, bool* open_menu) {
  if (in.hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    state.right_pressed = true;  // on this plot: a release here may open its menu
    state.box_active = zone_of(in.mouse, layout) == PlotZone::data;
    state.box_from = in.mouse;
  }
  const bool released = ImGui::IsMouseReleased(ImGuiMouseButton_Right);
  const bool pressed_here = state.right_pressed;
  if (released || !ImGui::IsMouseDown(ImGuiMouseButton_Right)) state.right_pressed = false;
  if (!state.box_active) {
    // A right click on the margins; a drag that began on another plot opens nothing here.
    *open_menu = in.hovered && released && pressed_here;
    return false;
  }
  if (ImGui::IsMouseDown(ImGuiMouseButton_Right)) return false;  // still drawing the box
  state.box_active = false;
  if (!released) return false;
  const ImVec2 a = clamp_to_area(state.box_from, layout), b = clamp_to_area(in.mouse, layout);
  const bool wide = std::fabs(b.x - a.x) >= kBoxMinimum, tall = std::fabs(b.y - a.y) >= kBoxMinimum;
  if (!wide && !tall) {  // a right click without drag
    *open_menu = true;
    return false;
  }
  // A thin box zooms the axis it spans only (ImPlot's convention).
  const Range x =
      wide ? Range{layout.xmap.to_data(std::min(a.x, b.x)), layout.xmap.to_data(std::max(a.x, b.x))}
           : layout.xmap.view;
  const Range y =
      tall ? Range{layout.ymap.to_data(std::max(a.y, b.y)), layout.ymap.to_data(std::min(a.y, b.y))}
           : layout.ymap.view;
  return apply_view(state, layout, x, y);
}

void draw_box(ImDrawList* dl, const PlotViewState& state, const PlotLayout& layout) {
  if (!state.box_active) return;
  const ImVec2 a = clamp_to_area(state.box_from, layout), b = clamp_to_area(ImGui::GetIO().MousePos, layout);
  const ImVec2 lo(std::min(a.x, b.x), std::min(a.y, b.y)), hi(std::max(a.x, b.x), std::max(a.y, b.y));
  dl->AddRectFilled(lo, hi, IM_COL32(120, 170, 255, 50));
  dl->AddRect(lo, hi, IM_COL32(120, 170, 255, 220));
}

void handle_click(const ItemInput& in, const Plot& plot, PlotViewState& state, const PlotLayout& layout,
                  const std::optional<NearestPoint>& hover, PlotInteraction& result) {
  if (!in.deactivated || state.drag_moved || state.press_on_legend) return;
  if (!inside(in.mouse, layout.area_min, layout.area_max)) return;
  result.clicked = true;
  if (hover) {  // what the readout named is what the click selects
    const Series& s = plot.series[hover->series];
    result.clicked_x = s.x[hover->index];
    result.clicked_y = s.y[hover->index];
    result.snapped = true;
    return;
  }
  result.clicked_x = layout.xmap.to_data(in.mouse.x);
  result.clicked_y = layout.ymap.to_data(in.mouse.y);
}

std::optional<NearestPoint> update_hover(const ItemInput& in, const Plot& plot, PlotViewState& state,
                                         const PlotLayout& layout) {
  std::optional<NearestPoint> hit;
  if (in.hovered && !state.drag_moved && !state.box_active &&
      inside(in.mouse, layout.area_min, layout.area_max)) {
    hit = nearest_point(plot, layout.shown, layout.xmap, layout.ymap, in.mouse.x, in.mouse.y, kHoverRadius);
  }
  state.has_hover = hit.has_value();
  state.hover_text = hit ? point_readout(plot, *hit) : std::string();
  return hit;
}

void context_menu(const Plot& plot, PlotViewState& state, PlotInteraction& result, bool open,
                  bool maximised) {
  if (open) ImGui::OpenPopup("##plot-menu");
  if (!ImGui::BeginPopup("##plot-menu")) return;
  if (ImGui::MenuItem("Autofit", "double-click")) state.autofit = true;
  if (ImGui::MenuItem(maximised ? "Restore" : "Maximise", "double-click title"))
    result.toggle_maximise = true;
  scale_menu("X scale", state.x_scale, effective_x_scale(plot, state), state);
  scale_menu("Y scale", state.y_scale, effective_y_scale(plot, state), state);
  ImGui::Separator();
  if (ImGui::MenuItem("Export PNG")) result.export_png = true;
  if (ImGui::MenuItem("Export SVG")) result.export_svg = true;
  if (ImGui::MenuItem("Export CSV")) result.export_csv = true;
  if (ImGui::MenuItem("Export JSON")) result.export_json = true;
  ImGui::EndPopup();
}

}  // namespace sg::plot::imgui_detail
