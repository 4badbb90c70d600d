// Mouse handling for the ImGui plot widget: legend toggles, zoom, pan, autofit, clicks, hover, context menu.
#include <algorithm>
#include <cmath>

#include "plots/imgui_plot_internal.hpp"

namespace sg::plot::imgui_detail {
namespace {

constexpr double kWheelZoom = 0.8;     // view scale per wheel notch (< 1 zooms in)
constexpr double kHoverRadius = 24.0;  // pixels

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
  return apply_view(state, layout, pan_axis(layout.xmap, delta.x), pan_axis(layout.ymap, delta.y));
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

bool handle_legend_click(const ItemInput& in, PlotViewState& state, const std::vector<LegendEntry>& entries) {
  if (in.activated) {  // a new press: nothing dragged yet
    state.drag_moved = false;
    state.press_on_legend = false;
  }
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

bool handle_zoom_and_pan(const ItemInput& in, PlotViewState& state, const PlotLayout& layout) {
  if (in.double_clicked && inside(in.mouse, layout.area_min, layout.area_max)) {
    state.autofit = true;
    return true;
  }
  const bool zoomed = handle_wheel(in, state, layout);
  const bool panned = handle_drag(in, state, layout);
  return zoomed || panned;
}

void handle_click(const ItemInput& in, PlotViewState& state, const PlotLayout& layout,
                  PlotInteraction& result) {
  if (!in.deactivated || state.drag_moved || state.press_on_legend) return;
  if (!inside(in.mouse, layout.area_min, layout.area_max)) return;
  result.clicked = true;
  result.clicked_x = layout.xmap.to_data(in.mouse.x);
  result.clicked_y = layout.ymap.to_data(in.mouse.y);
}

std::optional<NearestPoint> update_hover(const ItemInput& in, const Plot& plot, PlotViewState& state,
                                         const PlotLayout& layout) {
  std::optional<NearestPoint> hit;
  if (in.hovered && !state.drag_moved && inside(in.mouse, layout.area_min, layout.area_max)) {
    hit = nearest_point(plot, layout.shown, layout.xmap, layout.ymap, in.mouse.x, in.mouse.y, kHoverRadius);
  }
  state.has_hover = hit.has_value();
  state.hover_text = hit ? point_readout(plot, *hit) : std::string();
  return hit;
}

void context_menu(const Plot& plot, PlotViewState& state, PlotInteraction& result) {
  if (!ImGui::BeginPopupContextItem("##plot-menu")) return;
  if (ImGui::MenuItem("Autofit")) state.autofit = true;
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
