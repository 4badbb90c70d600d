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

}  // namespace

PlotInteraction draw_plot_imgui(const char* id, const Plot& plot, PlotViewState& state, ImVec2 size) {
  PlotInteraction result;
  ImGui::PushID(id);
  const ImVec2 widget_size = resolve_size(size);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 corner(origin.x + widget_size.x, origin.y + widget_size.y);
  ImGui::InvisibleButton("##plot", widget_size, ImGuiButtonFlags_MouseButtonLeft);
  const ItemInput in = capture_item_input();
  context_menu(plot, state, result);

  sync_view(plot, state, shown_series(plot, state.hidden_series));
  PlotLayout layout = make_layout(plot, state, origin, corner);
  const bool toggled = handle_legend_click(in, state, layout.legend);
  const bool moved = handle_zoom_and_pan(in, state, layout);
  if (toggled || moved) {  // redo the layout so this frame already shows the change
    sync_view(plot, state, shown_series(plot, state.hidden_series));
    layout = make_layout(plot, state, origin, corner);
  }
  handle_click(in, state, layout, result);
  const std::optional<NearestPoint> hover = update_hover(in, plot, state, layout);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  draw_axes(dl, layout);
  draw_series(dl, plot, layout);
  draw_vertical_markers(dl, plot, layout);
  draw_off_scale(dl, plot, layout);
  draw_hover(dl, plot, layout, state, hover);
  draw_legend(dl, plot, layout);
  ImGui::PopID();
  return result;
}

}  // namespace sg::plot
