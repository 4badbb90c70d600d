#include "gui/panels/figure_row.hpp"

#include <algorithm>

namespace sg::gui {

std::vector<plot::PlotInteraction> draw_figure_row(const std::string& id, const plot::Figure& figure,
                                                   std::vector<plot::PlotViewState>& views, ImVec2 size,
                                                   ImVec2 top_left, std::optional<std::size_t>* maximised) {
  const std::size_t n = std::min(figure.plots.size(), views.size());
  std::vector<plot::PlotInteraction> out(n);
  if (n == 0) return out;
  if (maximised && *maximised && **maximised >= n) maximised->reset();  // that plot has gone
  const std::optional<std::size_t> alone = maximised ? *maximised : std::nullopt;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float used = ImGui::GetCursorScreenPos().y - top_left.y;
  const std::size_t drawn = alone ? 1 : n;
  const float width =
      (size.x - static_cast<float>(drawn - 1) * style.ItemSpacing.x) / static_cast<float>(drawn);
  const float height = std::max(size.y - used - style.ItemSpacing.y, 60.0f);
  bool first = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (alone && *alone != i) continue;
    if (!first) ImGui::SameLine();
    first = false;
    out[i] = plot::draw_plot_imgui((id + std::to_string(i)).c_str(), figure.plots[i], views[i],
                                   ImVec2(width, height), alone.has_value());
    if (out[i].toggle_maximise && maximised)
      *maximised = alone ? std::nullopt : std::optional<std::size_t>(i);
  }
  return out;
}

}  // namespace sg::gui
