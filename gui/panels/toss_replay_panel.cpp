#include "gui/panels/toss_replay_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/panels/error_text.hpp"
#include "gui/panels/figure_row.hpp"
#include "gui/panels/wrapped_tooltip.hpp"
#include "plots/sweep_figures/toss_fit_figure.hpp"

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

void TossReplayPanel::set_fit(const TossFitSnapshot& fit) {
  const bool started = fit.phase == SweepPhase::waiting && fit_.phase != SweepPhase::waiting;
  fit_ = fit;
  fit_figure_ = fit_.steps.empty() ? plot::Figure{} : toss_fit_figure(fit_.names, {{"fit", fit_.steps}});
  if (fit_views_.size() < fit_figure_.plots.size()) fit_views_.resize(fit_figure_.plots.size());
  if (started) show_fit_ = true;
}

TossReplayEvents TossReplayPanel::draw(ImVec2 size, ImVec2 top_left, bool busy) {
  TossReplayEvents events;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30.0f);
  ImGui::InputText("tosses (CSV)", file_, sizeof file_);
  if (ImGui::IsItemHovered())
    wrapped_tooltip(
        "Measured tosses of the scene's body 0: toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz per frame "
        "(../shared/data/contactnets/README.md), frames integrator.dt apart");
  draw_replay_row(events, busy);
  draw_fit_row(events);
  const bool both = !result_.figure.plots.empty() && !fit_figure_.plots.empty();
  if (both) {
    if (ImGui::RadioButton("replay", !show_fit_)) show_fit_ = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("fit", show_fit_)) show_fit_ = true;
  }
  const bool fit_shown = both ? show_fit_ : !fit_figure_.plots.empty();
  if (fit_shown) {
    draw_figure_row("toss fit", fit_figure_, fit_views_, size, top_left, &maximised_);
  } else if (!result_.figure.plots.empty()) {
    draw_figure_row("toss replay", result_.figure, views_, size, top_left, &maximised_);
  }
  return events;
}

void TossReplayPanel::draw_replay_row(TossReplayEvents& events, bool busy) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputInt("toss", &toss_);
  toss_ = std::max(toss_, 0);
  ImGui::SameLine();
  if (busy) {
    ImGui::TextDisabled("replaying...");
  } else if (ImGui::Button("Replay")) {
    events.replay = std::make_pair(std::string(file_), toss_);
    show_fit_ = false;
  }
  if (ImGui::IsItemHovered())
    wrapped_tooltip(
        "Runs the scene from the toss's first measured frame for as many frames as it has: the measurement "
        "(dashed) against the simulation, and both in the 3-D view (the measured body translucent)");
  ImGui::SameLine();
  if (!result_.error.empty()) {
    error_text(result_.error);
  } else if (result_.simulated) {
    ImGui::Text("toss %d: %zu frames, mean distance between measured and simulated centres %.1f mm",
                result_.toss, result_.t.size(), 1e3 * result_.mean_position_error);
  } else {
    ImGui::NewLine();
  }
}

void TossReplayPanel::draw_fit_row(TossReplayEvents& events) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  ImGui::InputText("fit", wrt_, sizeof wrt_);
  if (ImGui::IsItemHovered())
    wrapped_tooltip(
        "Numbers of the scene to fit, comma separated; a vector key whose entries are equal (the cube's "
        "half sides, model.bodies.0.size) is one number");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputText("to tosses", select_, sizeof select_);
  if (ImGui::IsItemHovered()) wrapped_tooltip("Which tosses, e.g. 0-19,25 or all; segments of 5 frames");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  ImGui::Combo("##method", &method_, "Levenberg-Marquardt\0Adam (DiffMJX)\0");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
  ImGui::InputInt("steps", &steps_);
  steps_ = std::clamp(steps_, 1, 10000);
  ImGui::SameLine();
  const bool running = fit_.phase == SweepPhase::running || fit_.phase == SweepPhase::waiting;
  if (running) {
    if (ImGui::Button("Cancel fit")) events.cancel_fit = true;
  } else if (ImGui::Button("Fit")) {
    TossFitRequest request;
    request.file = file_;
    request.select = select_;
    std::string wrt = wrt_;
    for (std::size_t at = 0; at <= wrt.size();) {
      const std::size_t comma = std::min(wrt.find(',', at), wrt.size());
      std::string one = wrt.substr(at, comma - at);
      one.erase(0, one.find_first_not_of(' '));
      one.erase(one.find_last_not_of(' ') + 1);
      if (!one.empty()) request.wrt.push_back(one);
      at = comma + 1;
    }
    request.adam = method_ == 1;
    request.steps = steps_;
    events.fit = std::move(request);
  }
  if (fit_.phase == SweepPhase::finished && fit_.error.empty() && !fit_.steps.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Apply to the scene")) events.apply_fit = true;
    if (ImGui::IsItemHovered())
      wrapped_tooltip("Sets the fitted values in the scene (then Replay shows them)");
  }
  draw_fit_status();
}

void TossReplayPanel::draw_fit_status() const {
  if (!fit_.error.empty()) {
    error_text("fit: " + fit_.error);
    return;
  }
  if (fit_.steps.empty()) return;
  const FitStep& last = fit_.steps.back();
  std::string values;
  for (std::size_t j = 0; j < fit_.names.size() && j < last.values.size(); ++j) {
    char se[48] = "", one[200];
    if (j < fit_.std_error.size() && std::isfinite(fit_.std_error[j]))
      std::snprintf(se, sizeof se, " +- %.2g", fit_.std_error[j]);
    std::snprintf(one, sizeof one, "%s%s %.5g%s", j ? ", " : "", fit_.names[j].c_str(), last.values[j], se);
    values += one;
  }
  ImGui::Text("%s: step %d, error %.4g (%ld segments of %ld tosses)%s%s: %s",
              fit_.phase == SweepPhase::running ? "fitting" : "fit", last.iteration, last.loss, fit_.segments,
              fit_.tosses, fit_.stopped.empty() ? "" : ", stopped: ", fit_.stopped.c_str(), values.c_str());
}

}  // namespace sg::gui
