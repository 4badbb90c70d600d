#pragma once
// The three plain panels of the shell; each draws one ImGui window from a Workbench hook.
#include <imgui.h>

#include "gui/app/layout.hpp"
#include "gui/app/workbench.hpp"

namespace sg::gui {

// cond: ImGuiCond_FirstUseEver normally (imgui.ini wins), ImGuiCond_Always right after "Reset layout".
void draw_control_panel(const PanelRect& rect, ImGuiCond cond, const Workbench& workbench);
void draw_plot_panel(const PanelRect& rect, ImGuiCond cond, const Workbench& workbench);
void draw_status_bar(const PanelRect& rect, const Workbench& workbench);
float status_bar_height();  // for the current font and style

}  // namespace sg::gui
