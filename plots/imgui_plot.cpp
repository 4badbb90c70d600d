// The ImGui plot widget: one invisible button for input, then layout, interaction and drawing.
#include "plots/imgui_plot.hpp"

#include <algorithm>

#include "plots/imgui_plot_internal.hpp"

namespace sg::plot {
namespace {

using namespace imgui_detail;

ImVec2 resolve_size(ImVec2 size) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  return ImVec2(size.x > 0.0f ? size.x : std::max(avail.x, 50.0f),
                size.y > 0.0f ? size.y : std::max(avail.y, 50.0f));
}

// Read right after the button: the context menu submits items that would change the "last item".
ItemInput capture_item_input() {
  ItemInput in;
  in.hovered = ImGui::IsItemHovered();
  in.active = ImGui::IsItemActive();
  in.activated = ImGui::IsItemActivated();
  in.deactivated = ImGui::IsItemDeactivated();
  in.double_clicked = in.hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
  in.mouse = ImGui::GetIO().MousePos;
  return in;
}

struct DrawnThisFrame {
  int frame = -1;
  std::vector<DrawnPlotInfo> plots;
};

DrawnThisFrame& drawn_registry() {
  static DrawnThisFrame drawn;  // the UI thread's; plots are drawn nowhere else
  if (drawn.frame != ImGui::GetFrameCount()) {
    drawn.frame = ImGui::GetFrameCount();
    drawn.plots.clear();
  }
  return drawn;
}

void note_drawn(const Plot& plot, const PlotLayout& layout) {
  drawn_registry().plots.push_back(
      {plot.title, layout.widget_min,
       ImVec2(layout.widget_max.x - layout.widget_min.x, layout.widget_max.y - layout.widget_min.y),
       ImVec2(layout.area_max.x - layout.area_min.x, layout.area_max.y - layout.area_min.y),
       layout.legend.size(), plot.legend ? legend_items(plot).size() : 0});
}

}  // namespace

const std::vector<DrawnPlotInfo>& plots_drawn_this_frame() {
  return drawn_registry().plots;
}

PlotInteraction draw_plot_imgui(const char* id, const Plot& plot, PlotViewState& state, ImVec2 size,
                                bool maximised) {
  PlotInteraction result;
  ImGui::PushID(id);
  const ImVec2 widget_size = resolve_size(size);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 corner(origin.x + widget_size.x, origin.y + widget_size.y);
  ImGui::InvisibleButton("##plot", widget_size, ImGuiButtonFlags_MouseButtonLeft);
  const ItemInput in = capture_item_input();

  sync_view(plot, state, shown_series(plot, state.hidden_series));
  PlotLayout layout = make_layout(plot, state, origin, corner);
  note_press(in, state, layout);
  const bool toggled = handle_legend_click(in, state, layout.legend);
  const bool moved = handle_zoom_and_pan(in, plot, state, layout, result);
  bool open_menu = false;
  const bool boxed = handle_box_zoom(in, state, layout, &open_menu);
  if (toggled || moved || boxed) {  // redo the layout so this frame already shows the change
    sync_view(plot, state, shown_series(plot, state.hidden_series));
    layout = make_layout(plot, state, origin, corner);
  }
  const std::optional<NearestPoint> hover = update_hover(in, plot, state, layout);
  handle_click(in, plot, state, layout, hover, result);
  legend_tooltip(in, layout);
  context_menu(plot, state, result, open_menu, maximised);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  draw_axes(dl, layout);
  draw_color_bar(dl, layout);
  draw_series(dl, plot, layout);
  draw_vertical_markers(dl, plot, layout);
  draw_off_scale(dl, plot, layout);
  draw_hover(dl, plot, layout, state, hover);
  draw_box(dl, state, layout);
  draw_legend(dl, plot, layout);
  note_drawn(plot, layout);
  ImGui::PopID();
  return result;
}

}  // namespace sg::plot
