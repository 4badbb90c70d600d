#pragma once
// A figure's plots side by side, filling the rest of a tab: the width split evenly, the height what is left
// below the tab's controls (the map and identify tabs).
#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "plots/imgui_plot.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

// size: the tab's region; top_left: where it started (the controls drawn since take their height). Returns
// each plot's interaction (empty for plots not drawn); views holds one state per plot (plots beyond it are
// not drawn). *maximised, when given, names the one plot that fills the row (a double-click on a title or
// the plot's menu toggles it).
std::vector<plot::PlotInteraction> draw_figure_row(const std::string& id, const plot::Figure& figure,
                                                   std::vector<plot::PlotViewState>& views, ImVec2 size,
                                                   ImVec2 top_left,
                                                   std::optional<std::size_t>* maximised = nullptr);

}  // namespace sg::gui
