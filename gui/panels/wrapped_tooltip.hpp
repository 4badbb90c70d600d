#pragma once
// A tooltip whose text wraps at a readable width (ImGui's SetTooltip draws one line however long).
namespace sg::gui {

// Call right after the item it explains, when that item is hovered.
void wrapped_tooltip(const char* text, float width_in_font_sizes = 35.0f);

}  // namespace sg::gui
