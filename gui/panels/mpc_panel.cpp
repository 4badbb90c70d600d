#include "gui/panels/mpc_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/panels/export_buttons.hpp"
#include "gui/panels/figure_row.hpp"
#include "plots/sweep_figures/mpc_figure.hpp"

namespace sg::gui {
namespace {

bool scene_cfd(const Problem& p) {
  return p.data.type == ModelType::tree && p.data.tree.con.cfd.enabled;
}

const char* kNotes =
    "What the gradient planner needs (DiffMJX Sec. 5.3):\n"
    "- Gradient clipping (mpc.clip): near contact a rollout's gradient can be huge for a tiny change of the\n"
    "  plan; clipped, one bad gradient cannot throw Adam's plan far.\n"
    "- The best iterate: Adam's last iterate is not always its best, as the loss through contact is rough;\n"
    "  each planning step executes the plan with the lowest cost it evaluated.\n"
    "- Contacts From Distance (contact.cfd): before the finger touches the box the cost does not depend on\n"
    "  the plan at all, so its gradient is exactly 0 and Adam never moves; CFD lets the gradient feel the\n"
    "  box from a distance. Tick 'also without CFD' to see the planner stall.\n"
    "Predictive sampling needs no gradient: it rolls out perturbed plans (mpc.samples, mpc.noise) and keeps\n"
    "the cheapest, so CFD (straight-through) changes nothing for it.";

}  // namespace

std::string mpc_unavailable(const Problem& problem) {
  if (problem.data.type != ModelType::tree)
    return "MPC plans the actuators of a joint tree (a robot): open a scene such as mpc_finger_push.";
  if (problem.data.tree.act.nu == 0) return "This tree has no actuators: there is nothing to plan.";
  return "";
}

std::vector<MpcRunSpec> MpcPanel::chosen_runs() const {
  std::vector<MpcRunSpec> runs;
  const bool cfd = live_ && scene_cfd(*live_);
  const bool both = cfd && without_cfd_;
  for (const Planner p : {Planner::gradient, Planner::sampling}) {
    if ((p == Planner::gradient && !gradient_) || (p == Planner::sampling && !sampling_)) continue;
    const std::string name = p == Planner::gradient ? "gradient" : "sampling";
    if (!both) {
      runs.push_back({name, p, std::nullopt});
      continue;
    }
    runs.push_back({name + ", CFD on", p, true});
    runs.push_back({name + ", CFD off", p, false});
  }
  return runs;
}

void MpcPanel::set_snapshot(const MpcSnapshot& snapshot) {
  snapshot_ = snapshot;
  std::vector<LabelledMpc> runs;
  for (std::size_t k = 0; k < snapshot_.results.size(); ++k)
    if (!snapshot_.results[k].t.empty()) runs.push_back({snapshot_.runs[k].label, &snapshot_.results[k]});
  const double success = snapshot_.problem ? mpc_settings(*snapshot_.problem).success : 0.0;
  figure_ = runs.empty() ? plot::Figure{} : mpc_figure(runs, success);
}

void MpcPanel::draw_controls(MpcPanelEvents& events) {
  const bool running = snapshot_.phase == SweepPhase::running || snapshot_.phase == SweepPhase::waiting;
  if (running) {
    if (ImGui::Button("Cancel MPC")) events.cancel = true;
  } else if (ImGui::Button("Run MPC")) {
    std::vector<MpcRunSpec> runs = chosen_runs();
    if (!runs.empty()) events.run = std::move(runs);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Plan the controls over mpc.horizon output steps, execute mpc.execute of them, plan again from the "
        "state reached, for mpc.duration steps (the scene's integrator.steps when 0). As `softgrad mpc`.");
  ImGui::SameLine();
  ImGui::Checkbox("gradient", &gradient_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Adam on the knots with the reverse-mode gradient (mpc.iterations, mpc.lr, mpc.clip)");
  ImGui::SameLine();
  ImGui::Checkbox("sampling", &sampling_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Predictive sampling: mpc.samples plans, noise mpc.noise");
  if (live_ && scene_cfd(*live_)) {
    ImGui::SameLine();
    ImGui::Checkbox("also without CFD", &without_cfd_);
  }
}

void MpcPanel::draw_status() const {
  char text[256] = "";
  std::size_t steps = 0;
  for (const MpcResult& r : snapshot_.results) steps += r.steps.size();
  switch (snapshot_.phase) {
    case SweepPhase::running:
    case SweepPhase::waiting:
      std::snprintf(text, sizeof text, "planning: %zu planning steps so far, %.1f s", steps,
                    snapshot_.elapsed_seconds);
      break;
    case SweepPhase::finished:
      std::snprintf(text, sizeof text, "done: %zu planning steps in %.1f s", steps,
                    snapshot_.elapsed_seconds);
      break;
    case SweepPhase::cancelled:
      std::snprintf(text, sizeof text, "cancelled after %zu planning steps", steps);
      break;
    case SweepPhase::idle:
      std::snprintf(text, sizeof text, "Choose the planners, then Run MPC. The settings are the mpc.* keys.");
      break;
  }
  ImGui::TextDisabled(
      "%s%s", text,
      snapshot_.problem && snapshot_.problem != live_ ? " (computed for earlier settings)" : "");
  if (!snapshot_.error.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", snapshot_.error.c_str());
}

void MpcPanel::draw_runs(MpcPanelEvents& events) const {
  for (std::size_t k = 0; k < snapshot_.results.size(); ++k) {
    const MpcResult& r = snapshot_.results[k];
    if (r.steps.empty()) continue;
    double ms = 0.0;
    for (const PlanningStep& s : r.steps) ms += s.wall_ms;
    ImGui::PushID(static_cast<int>(k));
    const bool done = k < snapshot_.motions.size() && snapshot_.motions[k];
    if (done) {
      if (ImGui::SmallButton("play")) events.play = k;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play the executed motion in the 3-D view");
      ImGui::SameLine();
    }
    const double cost = r.cost.empty() ? NAN : r.cost.back();
    ImGui::Text("%s: cost %.3g%s, %zu planning steps, %.1f ms each%s%s", snapshot_.runs[k].label.c_str(),
                cost, done ? (r.success ? " (solved)" : " (not solved)") : "", r.steps.size(),
                ms / r.steps.size(), r.status == "ok" ? "" : ": ", r.status == "ok" ? "" : r.status.c_str());
    ImGui::PopID();
  }
}

MpcPanelEvents MpcPanel::draw(ImVec2 size) {
  MpcPanelEvents events;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  if (!live_) {
    ImGui::TextDisabled("No scene.");
    return events;
  }
  if (const std::string why = mpc_unavailable(*live_); !why.empty()) {
    ImGui::TextDisabled("%s", why.c_str());
    return events;
  }
  draw_controls(events);
  draw_status();
  draw_runs(events);
  if (ImGui::TreeNode("What the three ingredients do")) {
    ImGui::TextUnformatted(kNotes);
    ImGui::TreePop();
  }
  if (figure_.plots.empty()) return events;
  events.export_kind = draw_export_buttons("export:");
  events.export_min = top_left;
  events.export_max = ImVec2(top_left.x + size.x, top_left.y + size.y);
  draw_figure_row("mpc", figure_, views_, size, top_left, &maximised_);
  return events;
}

}  // namespace sg::gui
