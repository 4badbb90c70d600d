#include "gui/panels/identify_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/scene/readable_path.hpp"
#include "gui/panels/export_buttons.hpp"
#include "gui/panels/figure_row.hpp"
#include "plots/sweep_figures/bootstrap_figure.hpp"
#include "plots/sweep_figures/identification_figure.hpp"
#include "plots/sweep_figures/profile_figure.hpp"

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
  profile_figure_ = plot::Figure{};
  if (has_profile()) {
    ProfileResult shown = snapshot_.profile;
    if (shown.threshold == 0.0) {  // still running: the level's threshold for the plot
      shown.level = snapshot_.problem->identify.level;
      shown.threshold = profile_threshold(shown.level);
    }
    const FitStep& fit = snapshot_.steps.back();
    for (std::size_t j = 0; snapshot_.profiling && j < shown.parameters.size(); ++j) {
      // So far: the refits as they came, with the fit's own point, in value order.
      std::vector<ProfilePoint>& points = shown.parameters[j].points;
      points.push_back({fit.values[j], 0.0, fit.loss});
      std::sort(points.begin(), points.end(),
                [](const ProfilePoint& a, const ProfilePoint& b) { return a.value < b.value; });
    }
    profile_figure_ =
        profile_figure(snapshot_.paths, fit.values, snapshot_.std_error, snapshot_.truth, shown);
    profile_views_.resize(profile_figure_.plots.size());
  }
  bootstrap_figure_ = plot::Figure{};
  if (has_bootstrap()) {
    BootstrapResult shown = snapshot_.bootstrap;
    if (shown.level == 0.0) shown.level = snapshot_.problem->identify.level;
    bootstrap_figure_ = bootstrap_figure(snapshot_.paths, snapshot_.steps.back().values, snapshot_.std_error,
                                         snapshot_.truth, shown);
    bootstrap_views_.resize(bootstrap_figure_.plots.size());
  }
}

const plot::Figure& IdentifyPanel::figure() const {
  switch (shown()) {
    case bootstrap_view:
      return bootstrap_figure_;
    case profile_view:
      return profile_figure_;
    case fit_view:
      break;
  }
  return figure_;
}

IdentifyPanel::View IdentifyPanel::shown() const {
  if (view_ >= bootstrap_view && has_bootstrap()) return bootstrap_view;
  if (view_ >= profile_view && has_profile()) return profile_view;
  return fit_view;
}

// Number j's correlations with the others, for the standard error's tooltip.
std::string IdentifyPanel::correlation_text(std::size_t j) const {
  const std::size_t n = snapshot_.paths.size();
  if (n < 2 || snapshot_.correlation.size() != n * n) return "";
  std::string out = "\n\nCorrelations with the others (near +-1: the data trade one against the other):";
  for (std::size_t k = 0; k < n; ++k) {
    if (k == j) continue;
    char line[160];
    const double c = snapshot_.correlation[j * n + k];
    if (std::isfinite(c))
      std::snprintf(line, sizeof line, "\n  %s: %.2f", scene::readable_path(snapshot_.paths[k]).c_str(), c);
    else
      std::snprintf(line, sizeof line, "\n  %s: -", scene::readable_path(snapshot_.paths[k]).c_str());
    out += line;
  }
  return out;
}

bool IdentifyPanel::has_profile() const {
  if (snapshot_.steps.empty()) return false;
  for (const ParameterProfile& p : snapshot_.profile.parameters)
    if (!p.points.empty()) return true;
  return false;
}

// The profile interval of number j: "lower .. upper", an end marked where the scan did not cross the
// level (reached a bound, not reached, failed).
void IdentifyPanel::draw_interval(std::size_t j) const {
  if (snapshot_.profiling || j >= snapshot_.profile.parameters.size() || snapshot_.profile.status != "ok")
    return;
  const ParameterProfile& p = snapshot_.profile.parameters[j];
  if (p.points.empty()) return;
  ImGui::Text("%s .. %s", profile_end_label(p.lower, p.lower_end, true).c_str(),
              profile_end_label(p.upper, p.upper_end, false).c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Profile-likelihood interval at %.1f%%: where the error, this number held and the others fitted "
        "again, stays within %.3g s^2 of the fit's. Unlike the standard error it follows the model's "
        "nonlinearity (a lopsided interval), and it stays in the number's range.",
        100.0 * snapshot_.profile.level, snapshot_.profile.threshold);
}

// Number j's bootstrap interval: the draws' quantiles, with their median and spread in the tooltip.
void IdentifyPanel::draw_bootstrap_interval(std::size_t j) const {
  const BootstrapResult& b = snapshot_.bootstrap;
  if (snapshot_.bootstrapping || b.status != "ok" || j >= b.lower.size() || !std::isfinite(b.lower[j]))
    return;
  ImGui::Text("%.6g .. %.6g", b.lower[j], b.upper[j]);
  if (!ImGui::IsItemHovered()) return;
  char text[512];
  std::snprintf(
      text, sizeof text,
      "Parametric bootstrap interval at %.1f%%: the quantiles of this number over %zu refits, each on "
      "measurements drawn from the fitted model with the fit's noise level (%.3g m).\nMedian %.6g, "
      "spread (standard deviation) %.3g against the standard error's %.3g.",
      100.0 * b.level, b.draws.size(), snapshot_.residual_sigma, b.median[j], b.spread[j],
      j < snapshot_.std_error.size() ? snapshot_.std_error[j] : NAN);
  std::string tip = text;
  if (b.failed > 0)
    tip += "\n" + std::to_string(b.failed) + " draws could not be refitted: " + b.first_failure;
  if (b.cancelled) tip += "\nCancelled: from the draws made.";
  ImGui::SetTooltip("%s", tip.c_str());
}

void IdentifyPanel::draw_status() {
  const FitStep* last = snapshot_.steps.empty() ? nullptr : &snapshot_.steps.back();
  char text[320] = "";
  switch (snapshot_.phase) {
    case SweepPhase::waiting:
    case SweepPhase::running:
      if (last && snapshot_.bootstrapping) {
        const BootstrapResult& b = snapshot_.bootstrap;
        std::snprintf(text, sizeof text, "bootstrap: %zu of %d draws refitted%s, %.1f s", b.draws.size(),
                      b.requested, b.failed > 0 ? (" (" + std::to_string(b.failed) + " failed)").c_str() : "",
                      snapshot_.elapsed_seconds);
      } else if (last && snapshot_.profiling) {
        std::size_t refits = 0;
        for (const ParameterProfile& p : snapshot_.profile.parameters) refits += p.points.size();
        std::snprintf(text, sizeof text, "profiling: %zu refits of %zu numbers, %.1f s", refits,
                      snapshot_.paths.size(), snapshot_.elapsed_seconds);
      } else if (last)
        std::snprintf(text, sizeof text, "fitting: step %d, error %.4g m^2, %.1f s", last->iteration,
                      last->loss, snapshot_.elapsed_seconds);
      else
        std::snprintf(text, sizeof text, "simulating the truth (the measurements)...");
      break;
    case SweepPhase::finished:
      if (snapshot_.status != "ok")
        std::snprintf(text, sizeof text, "failed: %s", snapshot_.status.c_str());
      else if (last && snapshot_.profile.status != "ok")
        std::snprintf(text, sizeof text, "done: %d steps, error %.4g m^2; no profile: %s", last->iteration,
                      last->loss, snapshot_.profile.status.c_str());
      else if (last && snapshot_.bootstrap.status != "ok")
        std::snprintf(text, sizeof text, "done: %d steps, error %.4g m^2; no bootstrap: %s", last->iteration,
                      last->loss, snapshot_.bootstrap.status.c_str());
      else if (last)
        std::snprintf(
            text, sizeof text, "done: %d steps, error %.4g m^2, %ld simulations in %.1f s (stopped: %s)%s",
            last->iteration, last->loss, snapshot_.runs + snapshot_.profile.runs + snapshot_.bootstrap.runs,
            snapshot_.elapsed_seconds, snapshot_.stopped.c_str(),
            snapshot_.profile.note.empty() ? "" : "; see the profile's note");
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
  const bool bootstrap_column = live_->identify.bootstrap > 0 || has_bootstrap();
  if (!ImGui::BeginTable("identify values", bootstrap_column ? 8 : 7, flags)) return;
  char interval[48], bootstrap[48];
  std::snprintf(interval, sizeof interval, "profile (%.1f%%)", 100.0 * live_->identify.level);
  std::snprintf(bootstrap, sizeof bootstrap, "bootstrap (%.1f%%)", 100.0 * live_->identify.level);
  for (const char* h : {"number", "truth (scene)", "start", "current", "std. error", "rel. error",
                        static_cast<const char*>(interval)})
    ImGui::TableSetupColumn(h);
  if (bootstrap_column) ImGui::TableSetupColumn(bootstrap);
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
      const std::string why = j < snapshot_.not_identified.size() ? snapshot_.not_identified[j] : "";
      if (why.empty())
        ImGui::Text("%.2g%s", snapshot_.std_error[j], bound ? " (at bound)" : "");
      else
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.2f, 1.0f), "%.2g not identified", snapshot_.std_error[j]);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s%sStandard error from the Gauss-Newton covariance at the fit: the spread of this number over "
            "repeated noisy measurements, to first order (inf: the data do not determine it)%s",
            why.empty() ? "" : "Not identified: ", why.empty() ? "" : (why + ".\n").c_str(),
            correlation_text(j).c_str());
    }
    ImGui::TableNextColumn();
    if (last) {
      const double scale = rows.truth[j] != 0.0 ? std::fabs(rows.truth[j]) : 1.0;
      ImGui::Text("%.3g%%", 100.0 * std::fabs(last->values[j] - rows.truth[j]) / scale);
    }
    ImGui::TableNextColumn();
    if (last) draw_interval(j);
    if (bootstrap_column) {
      ImGui::TableNextColumn();
      if (last) draw_bootstrap_interval(j);
    }
  }
  ImGui::EndTable();
  if (!live_rows && !snapshot_.profile.note.empty())
    ImGui::TextWrapped("profile: %s", snapshot_.profile.note.c_str());
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
  draw_view_choice();
  if (!figure().plots.empty()) {
    events.export_kind = draw_export_buttons("export:");
    events.export_min = top_left;
    events.export_max = ImVec2(top_left.x + size.x, top_left.y + size.y);
  }
  switch (shown()) {
    case bootstrap_view:
      draw_figure_row("identify bootstrap", bootstrap_figure_, bootstrap_views_, size, top_left, &maximised_);
      break;
    case profile_view:
      draw_figure_row("identify profiles", profile_figure_, profile_views_, size, top_left, &maximised_);
      break;
    case fit_view:
      draw_figure_row("identify", figure_, views_, size, top_left, &maximised_);
      break;
  }
  return events;
}

// Radio buttons between the figures there are (none while there is only the fit's).
void IdentifyPanel::draw_view_choice() {
  if (!has_profile() && !has_bootstrap()) return;
  const View now = shown();
  if (ImGui::RadioButton("fit", now == fit_view)) view_ = fit_view;
  ImGui::SameLine();
  if (has_profile()) {
    if (ImGui::RadioButton("profiles", now == profile_view)) view_ = profile_view;
    ImGui::SameLine();
  }
  if (has_bootstrap()) {
    if (ImGui::RadioButton("bootstrap", now == bootstrap_view)) view_ = bootstrap_view;
    ImGui::SameLine();
  }
}

}  // namespace sg::gui
