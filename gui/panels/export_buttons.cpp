#include "gui/panels/export_buttons.hpp"

#include <imgui.h>

#include <utility>

namespace sg::gui {

ExportKind draw_export_buttons(const char* caption) {
  ImGui::TextDisabled("%s", caption);
  ExportKind clicked = ExportKind::none;
  for (auto [label, kind] : {std::pair{"PNG", ExportKind::png}, std::pair{"SVG", ExportKind::svg},
                             std::pair{"CSV", ExportKind::csv}, std::pair{"JSON", ExportKind::json}}) {
    ImGui::SameLine();
    if (ImGui::SmallButton(label)) clicked = kind;
  }
  return clicked;
}

}  // namespace sg::gui
