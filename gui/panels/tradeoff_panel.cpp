#include "gui/panels/tradeoff_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/scene/readable_path.hpp"
#include "gui/panels/export_buttons.hpp"
#include "gui/panels/figure_row.hpp"
#include "plots/sweep_figures/tradeoff_figure.hpp"

namespace sg::gui {

void TradeoffPanel::set_problem(const std::shared_ptr<const Problem>& problem,
                                std::optional<double> selected) {
  if (selected != selected_ && selected) value_set_ = false;  // a new click: the study follows it
  selected_ = selected;
  if (!problem) return;
  if (problem != live_) {
    const bool same_scene = live_ && live_->name == problem->name;
    if (!same_scene) {
      value_set_ = false;
      families_.clear();
      for (const TradeoffFamily& f : tradeoff_families()) families_.push_back(f.name);
      const std::vector<std::string> defaults = default_tradeoff_families(*problem);
      chosen_.assign(families_.size(), 0);
      for (std::size_t i = 0; i < families_.size(); ++i)
        chosen_[i] = std::find(defaults.begin(), defaults.end(), families_[i]) != defaults.end();
    }
    live_ = problem;
  }
  if (!value_set_) value_ = selected_ ? *selected_ : 0.5 * (live_->sweep.from + live_->sweep.to);
}

void TradeoffPanel::set_snapshot(const TradeoffSnapshot& snapshot) {
  snapshot_ = snapshot;
  figure_ = snapshot_.phase == SweepPhase::finished ? tradeoff_figure(snapshot_.result) : plot::Figure{};
}

void TradeoffPanel::draw_controls(TradeoffPanelEvents& events) {
  const bool running = snapshot_.phase == SweepPhase::running || snapshot_.phase == SweepPhase::waiting;
  if (running) {
    if (ImGui::Button("Cancel study")) events.cancel = true;
  } else if (ImGui::Button("Run study") && std::isfinite(value_)) {
    TradeoffOptions options;
    for (std::size_t i = 0; i < families_.size(); ++i)
      if (chosen_[i]) options.families.push_back(families_[i]);
    if (!options.families.empty()) events.run = std::make_pair(value_, options);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Each method at fixed steps dt/1 ... dt/300 or tolerances 1e-4 ... 1e-10: the loss and its gradient "
        "against a Tsit5 1e-12 reference, over the time of one run (best of 3 rounds, one thread). "
        "As `softgrad tradeoff`.");
  ImGui::SameLine();
  ImGui::Text("at %s =", scene::readable_path(live_->sweep.parameter).c_str());
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (ImGui::InputDouble("##value", &value_, 0.0, 0.0, "%.4g") && std::isfinite(value_)) value_set_ = true;
  if (selected_ && *selected_ != value_) {
    ImGui::SameLine();
    if (ImGui::SmallButton("clicked point")) {
      value_ = *selected_;
      value_set_ = false;
    }
  }
  for (std::size_t i = 0; i < families_.size(); ++i) {
    if (i > 0) ImGui::SameLine();
    bool on = chosen_[i] != 0;
    if (ImGui::Checkbox(families_[i].c_str(), &on)) chosen_[i] = on;
  }
}

void TradeoffPanel::draw_status() const {
  char text[256] = "";
  const TradeoffResult& r = snapshot_.result;
  switch (snapshot_.phase) {
    case SweepPhase::running:
    case SweepPhase::waiting:
      std::snprintf(text, sizeof text, "measuring: %zu of %zu runs, %.1f s", snapshot_.done, snapshot_.total,
                    snapshot_.elapsed_seconds);
      break;
    case SweepPhase::finished:
      if (r.ok())
        std::snprintf(text, sizeof text,
                      "at %g: reference %s (loss %.10g, gradient %.10g), %s differs by %.2g / %.2g; %.1f s",
                      r.value, r.reference.setting.label().c_str(), r.reference.loss, r.reference.grad,
                      r.reference_check.setting.label().c_str(), r.spread_loss, r.spread_grad,
                      snapshot_.elapsed_seconds);
      else
        std::snprintf(text, sizeof text, "the reference run failed: %s", r.reference.status.c_str());
      break;
    case SweepPhase::cancelled:
      std::snprintf(text, sizeof text, "cancelled after %zu of %zu runs", snapshot_.done, snapshot_.total);
      break;
    case SweepPhase::idle:
      std::snprintf(text, sizeof text, "Choose the value and the methods, then Run study.");
      break;
  }
  ImGui::TextDisabled(
      "%s%s", text,
      snapshot_.problem && snapshot_.problem != live_ ? " (computed for earlier settings)" : "");
}

void TradeoffPanel::draw_table() const {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("tradeoff rows", 7, flags, ImVec2(0.0f, ImGui::GetContentRegionAvail().y))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* h :
       {"setting", "|loss - ref|", "|grad - ref|", "ms loss", "ms loss + grad", "steps", "status"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const TradeoffRow& row : snapshot_.result.rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.setting.label().c_str());
    const bool ran = row.status.rfind("not run", 0) != 0;
    for (double v : {row.loss_error, row.grad_error, 1e3 * row.seconds_loss, 1e3 * row.seconds_grad}) {
      ImGui::TableNextColumn();
      if (ran && std::isfinite(v)) ImGui::Text("%.3g", v);
    }
    ImGui::TableNextColumn();
    if (ran) ImGui::Text("%ld", row.steps);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.status.c_str());
    if (!ran && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.status.c_str());
  }
  ImGui::EndTable();
}

TradeoffPanelEvents TradeoffPanel::draw(ImVec2 size) {
  TradeoffPanelEvents events;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  if (!live_) {
    ImGui::TextDisabled("No scene.");
    return events;
  }
  draw_controls(events);
  draw_status();
  if (figure_.plots.empty()) return events;
  if (ImGui::RadioButton("plots", !table_view_)) table_view_ = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("table", table_view_)) table_view_ = true;
  ImGui::SameLine();
  events.export_kind = draw_export_buttons("| export:");
  events.export_min = top_left;
  events.export_max = ImVec2(top_left.x + size.x, top_left.y + size.y);
  if (table_view_) {
    draw_table();
  } else {
    draw_figure_row("tradeoff", figure_, views_, size, top_left, &maximised_);
  }
  return events;
}

}  // namespace sg::gui
