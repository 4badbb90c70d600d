#include "gui/panels/toss_replay_panel.hpp"

#include <algorithm>
#include <cstdio>

#include "gui/panels/figure_row.hpp"
#include "gui/panels/wrapped_tooltip.hpp"

namespace sg::gui {

std::string default_tosses_file(const std::filesystem::path& scenes_folder) {
  return (scenes_folder.parent_path() / ".." / "shared" / "data" / "contactnets" / "tosses.csv")
      .lexically_normal()
      .string();
}

TossReplayPanel::TossReplayPanel(std::string default_file) {
  set_request(default_file, 0);
}

void TossReplayPanel::set_request(const std::string& file, int toss) {
  std::snprintf(file_, sizeof file_, "%s", file.c_str());
  toss_ = toss;
}

void TossReplayPanel::set_result(const TossReplay& result) {
  result_ = result;
  views_.assign(std::max<std::size_t>(result_.figure.plots.size(), 1), plot::PlotViewState{});
}

TossReplayEvents TossReplayPanel::draw(ImVec2 size, ImVec2 top_left, bool busy) {
  TossReplayEvents events;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30.0f);
  ImGui::InputText("tosses (CSV)", file_, sizeof file_);
  if (ImGui::IsItemHovered())
    wrapped_tooltip(
        "Measured tosses of the scene's body 0: toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz per frame "
        "(../shared/data/contactnets/README.md), frames integrator.dt apart");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputInt("toss", &toss_);
  toss_ = std::max(toss_, 0);
  ImGui::SameLine();
  if (busy) {
    ImGui::TextDisabled("replaying...");
  } else if (ImGui::Button("Replay")) {
    events.replay = std::make_pair(std::string(file_), toss_);
  }
  if (ImGui::IsItemHovered())
    wrapped_tooltip(
        "Runs the scene from the toss's first measured frame for as many frames as it has: the measurement "
        "(dashed) against the simulation, and both in the 3-D view (the measured body translucent)");
  if (!result_.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", result_.error.c_str());
    ImGui::PopStyleColor();
  } else if (result_.simulated) {
    ImGui::Text("toss %d: %zu frames, mean distance between measured and simulated centres %.1f mm",
                result_.toss, result_.t.size(), 1e3 * result_.mean_position_error);
  }
  if (!result_.figure.plots.empty())
    draw_figure_row("toss replay", result_.figure, views_, size, top_left, &maximised_);
  return events;
}

}  // namespace sg::gui
