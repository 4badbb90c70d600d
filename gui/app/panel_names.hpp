#pragma once
// ImGui window names: they key the layout in imgui.ini, so keep them stable.
namespace sg::gui {

inline constexpr const char* k_controls_window = "Controls";
inline constexpr const char* k_viewport_window = "Viewport";
inline constexpr const char* k_plots_window = "Plots";
inline constexpr const char* k_status_window = "##status_bar";
inline constexpr const char* k_help_window = "Keyboard shortcuts";

}  // namespace sg::gui
