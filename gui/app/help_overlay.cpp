#include "gui/app/help_overlay.hpp"

#include "gui/app/panel_names.hpp"
#include "gui/app/shortcuts.hpp"

namespace sg::gui {

void draw_help_overlay(bool* open, ImVec2 display) {
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse;
  if (ImGui::Begin(k_help_window, open, flags)) {
    if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      for (const Shortcut& shortcut : shortcut_table()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(shortcut_label(shortcut).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(shortcut.description);
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled("Viewport: left drag orbits, right or middle drag pans, wheel zooms.");
  }
  ImGui::End();
}

}  // namespace sg::gui
