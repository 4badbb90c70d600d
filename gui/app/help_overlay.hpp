#pragma once
// The F1 overlay: the shortcut table rendered as a centred window.
#include <imgui.h>

namespace sg::gui {

// Draws nothing when *open is false; the window's close button clears *open.
void draw_help_overlay(bool* open, ImVec2 display);

}  // namespace sg::gui
