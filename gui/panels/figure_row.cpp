#include "gui/panels/figure_row.hpp"

#include <algorithm>

namespace sg::gui {

std::vector<plot::PlotInteraction> draw_figure_row(const std::string& id, const plot::Figure& figure,
                                                   std::vector<plot::PlotViewState>& views, ImVec2 size,
                                                   ImVec2 top_left) {
  std::vector<plot::PlotInteraction> out;
  if (figure.plots.empty()) return out;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float used = ImGui::GetCursorScreenPos().y - top_left.y;
  const std::size_t n = figure.plots.size();
  const float width = (size.x - static_cast<float>(n - 1) * style.ItemSpacing.x) / static_cast<float>(n);
  const float height = std::max(size.y - used - style.ItemSpacing.y, 60.0f);
  for (std::size_t i = 0; i < n && i < views.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    out.push_back(plot::draw_plot_imgui((id + std::to_string(i)).c_str(), figure.plots[i], views[i],
                                        ImVec2(width, height)));
  }
  return out;
}

}  // namespace sg::gui
