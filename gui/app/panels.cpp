#include "gui/app/panels.hpp"

#include "gui/app/panel_names.hpp"

namespace sg::gui {

namespace {
void place(const PanelRect& rect, ImGuiCond cond) {
  ImGui::SetNextWindowPos(rect.pos, cond);
  ImGui::SetNextWindowSize(rect.size, cond);
}
}  // namespace

void draw_control_panel(const PanelRect& rect, ImGuiCond cond, const Workbench& workbench) {
  place(rect, cond);
  if (ImGui::Begin(k_controls_window, nullptr, ImGuiWindowFlags_NoCollapse)) {
    if (workbench.draw_controls) {
      workbench.draw_controls();
    } else {
      ImGui::TextDisabled("No controls.");
    }
  }
  ImGui::End();
}

void draw_plot_panel(const PanelRect& rect, ImGuiCond cond, const Workbench& workbench) {
  place(rect, cond);
  if (ImGui::Begin(k_plots_window, nullptr, ImGuiWindowFlags_NoCollapse)) {
    const ImVec2 size = ImGui::GetContentRegionAvail();
    if (workbench.draw_plots) {
      workbench.draw_plots(size);
    } else {
      ImGui::Dummy(size);  // keep the region so the layout does not jump
    }
  }
  ImGui::End();
}

float status_bar_height() {
  return ImGui::GetFrameHeight() + 2.0f * ImGui::GetStyle().WindowPadding.y;
}

void draw_status_bar(const PanelRect& rect, const Workbench& workbench) {
  // Always glued to the bottom edge: not part of the user-arranged layout.
  ImGui::SetNextWindowPos(rect.pos, ImGuiCond_Always);
  ImGui::SetNextWindowSize(rect.size, ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (ImGui::Begin(k_status_window, nullptr, flags)) {
    const StatusInfo status = workbench.status ? workbench.status() : StatusInfo{"Ready", -1.0f};
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(status.text.c_str());
    if (status.progress >= 0.0f) {
      const float bar_width = ImGui::GetFontSize() * 14.0f;
      ImGui::SameLine(ImGui::GetWindowWidth() - bar_width - ImGui::GetStyle().WindowPadding.x);
      ImGui::ProgressBar(status.progress, ImVec2(bar_width, 0.0f));
    }
  }
  ImGui::End();
}

}  // namespace sg::gui
