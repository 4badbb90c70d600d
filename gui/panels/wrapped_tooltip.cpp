#include "gui/panels/wrapped_tooltip.hpp"

#include <imgui.h>

namespace sg::gui {

void wrapped_tooltip(const char* text, float width_in_font_sizes) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * width_in_font_sizes);  // inside the tooltip's own window
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace sg::gui
