#include "gui/identify_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/scene/readable_path.hpp"
#include "gui/figure_row.hpp"
#include "plots/sweep_figures/identification_figure.hpp"

namespace sg::gui {
namespace {

// identify.rollouts as "path = value" lines.
std::string rollout_list(const IdentifySpec& spec) {
  std::string out = "identify.rollouts, each fitted with the scene's own run:";
  for (std::size_t k = 0; k < spec.rollout_paths.size(); ++k) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", spec.rollout_values[k]);
    out += "\n" + std::to_string(k + 1) + ": " + spec.rollout_paths[k] + " = " + value;
  }
  return out;
}

}  // namespace

void IdentifyPanel::set_snapshot(const IdentifySnapshot& snapshot) {
  snapshot_ = snapshot;
  figure_ = snapshot_.steps.empty()
                ? plot::Figure{}
                : identification_figure(snapshot_.paths, snapshot_.truth, snapshot_.steps);
}

void IdentifyPanel::draw_status() {
  const FitStep* last = snapshot_.steps.empty() ? nullptr : &snapshot_.steps.back();
  char text[320] = "";
  switch (snapshot_.phase) {
    case SweepPhase::waiting:
    case SweepPhase::running:
      if (last)
        std::snprintf(text, sizeof text, "fitting: step %d, error %.4g m^2, %.1f s", last->iteration,
                      last->loss, snapshot_.elapsed_seconds);
      else
        std::snprintf(text, sizeof text, "simulating the truth (the measurements)...");
      break;
    case SweepPhase::finished:
      if (snapshot_.status != "ok")
        std::snprintf(text, sizeof text, "failed: %s", snapshot_.status.c_str());
      else if (last)
        std::snprintf(text, sizeof text,
                      "done: %d steps, error %.4g m^2, %ld simulations in %.1f s (stopped: %s)",
                      last->iteration, last->loss, snapshot_.runs, snapshot_.elapsed_seconds,
                      snapshot_.stopped.c_str());
      break;
    case SweepPhase::cancelled:
      std::snprintf(text, sizeof text, "cancelled after %zu steps", snapshot_.steps.size());
      break;
    case SweepPhase::idle:
      std::snprintf(text, sizeof text, "Press Fit: the numbers start at their identify start values.");
      break;
  }
  const bool stale = snapshot_.problem && snapshot_.problem != live_;
  ImGui::TextDisabled("%s%s", text, stale ? " (for earlier settings)" : "");
}

// parameter | truth | start | current | error: the fit's numbers against the scene's own values; before a
// fit (or for other settings) the live scene's numbers and starts.
void IdentifyPanel::draw_table() {
  const bool live_rows = snapshot_.paths.empty() || snapshot_.problem != live_;
  IdentifySnapshot preview;
  if (live_rows) {
    preview.paths = live_->identify.paths;
    preview.start = live_->identify.start;
    ProblemData<double> copy = live_->data;
    for (const std::string& p : preview.paths) {
      const double* slot = parameter_slot(copy, p);
      preview.truth.push_back(slot ? *slot : std::nan(""));
    }
  }
  const IdentifySnapshot& rows = live_rows ? preview : snapshot_;
  const FitStep* last = live_rows || snapshot_.steps.empty() ? nullptr : &snapshot_.steps.back();
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("identify values", 6, flags)) return;
  for (const char* h : {"number", "truth (scene)", "start", "current", "std. error", "rel. error"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (std::size_t j = 0; j < rows.paths.size(); ++j) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(scene::readable_path(rows.paths[j]).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", rows.paths[j].c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.6g", rows.truth[j]);
    ImGui::TableNextColumn();
    ImGui::Text("%.6g", rows.start[j]);
    ImGui::TableNextColumn();
    if (last) ImGui::Text("%.6g", last->values[j]);
    ImGui::TableNextColumn();
    if (last && j < snapshot_.std_error.size()) {
      const bool bound = j < snapshot_.at_bound.size() && snapshot_.at_bound[j];
      ImGui::Text("%.2g%s", snapshot_.std_error[j], bound ? " (at bound)" : "");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Standard error from the Gauss-Newton covariance at the fit: the spread of this number over "
            "repeated noisy measurements, to first order (inf: the data do not determine it)");
    }
    ImGui::TableNextColumn();
    if (last) {
      const double scale = rows.truth[j] != 0.0 ? std::fabs(rows.truth[j]) : 1.0;
      ImGui::Text("%.3g%%", 100.0 * std::fabs(last->values[j] - rows.truth[j]) / scale);
    }
  }
  ImGui::EndTable();
}

IdentifyPanelEvents IdentifyPanel::draw(ImVec2 size) {
  IdentifyPanelEvents events;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  if (!live_) {
    ImGui::TextDisabled("No scene.");
    return events;
  }
  const IdentifySpec& spec = live_->identify;
  if (spec.paths.empty()) {
    ImGui::TextWrapped(
        "This scene lists no identify.parameters. Name the numbers to fit and where each starts (the scene's "
        "own values are the truth that synthetic measurements come from); the identify cube preset "
        "(scenes/identify_cube_toss.json) has an example, docs/identification.md explains it.");
    return events;
  }
  const bool running = snapshot_.phase == SweepPhase::running || snapshot_.phase == SweepPhase::waiting;
  if (running) {
    if (ImGui::Button("Cancel fit")) events.cancel = true;
  } else if (ImGui::Button("Fit")) {
    events.run = true;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Fits the identify.parameters from their start values to the scene's own positions");
  ImGui::SameLine();
  const std::size_t rollouts = spec.rollout_paths.size();
  ImGui::Text("%s, %zu numbers, measurements: the scene's positions every %.3g s%s, noise %.3g m",
              spec.adam ? "Adam" : "Levenberg-Marquardt", spec.paths.size(), live_->integrator.dt,
              rollouts == 0 ? "" : (" and " + std::to_string(rollouts) + " more rollouts").c_str(),
              spec.noise);
  if (rollouts > 0 && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", rollout_list(spec).c_str());
  draw_status();
  draw_table();
  draw_figure_row("identify", figure_, views_, size, top_left);
  return events;
}

}  // namespace sg::gui
