#include "gui/panels/map_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/scene/config_diff.hpp"
#include "engine/scene/path.hpp"
#include "engine/scene/readable_path.hpp"
#include "gui/panels/figure_row.hpp"
#include "plots/sweep_figures/sweep2d_figure.hpp"

namespace sg::gui {
namespace {

// A range around the number's current value: half to one and a half times it (or -1 to 1 at 0).
std::pair<double, double> default_range(double v) {
  if (!std::isfinite(v) || v == 0.0) return {-1.0, 1.0};
  return {std::min(0.5 * v, 1.5 * v), std::max(0.5 * v, 1.5 * v)};
}

// The y a researcher most likely wants first: a parameter of the active contact model (penalty stiffness,
// kappa, impratio), friction or solref, a damping (joint trees have no contacts yet), else any number but
// gravity.
std::string preferred_y(const std::vector<std::string>& paths, const nlohmann::json& config) {
  const std::string model = "contact." + config.value("/contact/model"_json_pointer, std::string()) + ".";
  for (const std::string& key :
       {model, std::string(".friction"), std::string("solref"), std::string(".damping")})
    for (const std::string& p : paths)
      if (p.find(key) != std::string::npos) return p;
  for (const std::string& p : paths)
    if (p.find("gravity") == std::string::npos) return p;
  return paths.empty() ? std::string() : paths.front();
}

// An axis's FROM and TO fields and its point count, on the current line.
void range_controls(const char* id, GridAxis& axis, const char* count_format) {
  ImGui::PushID(id);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f + ImGui::GetStyle().ItemInnerSpacing.x);
  double range[2] = {axis.from, axis.to};
  if (ImGui::InputScalarN("##range", ImGuiDataType_Double, range, 2, nullptr, nullptr, "%.4g")) {
    axis.from = range[0];
    axis.to = range[1];
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  int points = static_cast<int>(axis.points);
  if (ImGui::SliderInt("##points", &points, 2, 100, count_format)) axis.points = points;
  ImGui::PopID();
}

}  // namespace

void MapPanel::set_problem(const std::shared_ptr<const Problem>& problem) {
  if (!problem || problem == live_) return;
  const bool same_scene = live_ && live_->name == problem->name;
  live_ = problem;
  x_.path = problem->sweep.parameter;
  x_.from = problem->sweep.from;
  x_.to = problem->sweep.to;
  parameters_.clear();
  for (const std::string& p : differentiable_parameters(*problem))
    if (p != x_.path) parameters_.push_back(p);
  const bool keep_y =
      same_scene && std::find(parameters_.begin(), parameters_.end(), y_.path) != parameters_.end();
  if (!keep_y && !parameters_.empty()) choose_y(preferred_y(parameters_, problem->config));
}

bool MapPanel::computed_for_live() {
  const Problem* grid = snapshot_.problem.get();
  if (!grid || !live_ || grid == live_.get()) return true;
  if (compared_ == std::pair(grid, live_.get())) return computed_for_live_;
  compared_ = {grid, live_.get()};
  nlohmann::json as_computed = grid->config;
  const std::string& y_path = snapshot_.result.y.path;
  if (const auto live_y = scene::get_path(live_->config, y_path))
    scene::set_path(as_computed, y_path, *live_y, nullptr);
  computed_for_live_ = scene::same_sweep_settings(as_computed, live_->config);
  return computed_for_live_;
}

void MapPanel::choose_y(const std::string& path) {
  y_.path = path;
  const auto current = scene::get_path(live_->config, path);
  const double v = current && current->is_number() ? current->get<double>() : 0.0;
  std::tie(y_.from, y_.to) = default_range(v);
}

void MapPanel::set_snapshot(const MapSnapshot& snapshot) {
  snapshot_ = snapshot;
  figure_ = snapshot_.problem && !snapshot_.result.points.empty()
                ? sg::sweep2d_figure(*snapshot_.problem, snapshot_.result)
                : plot::Figure{};
}

void MapPanel::draw_axis_controls(MapPanelEvents& events) {
  const bool running = snapshot_.phase == SweepPhase::running || snapshot_.phase == SweepPhase::waiting;
  if (running) {
    if (ImGui::Button("Cancel map")) events.cancel = true;
  } else if (ImGui::Button("Run map")) {
    events.run = std::make_pair(x_, y_);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Each cell: the loss, its AD gradient in x and y (one dual run) and central FD (four runs)");
  ImGui::SameLine();
  ImGui::Text("x: %s", scene::readable_path(x_.path).c_str());
  ImGui::SameLine();
  range_controls("x", x_, "%d columns");

  ImGui::Text("y:");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (ImGui::BeginCombo("##ypath", scene::readable_path(y_.path).c_str())) {
    for (const std::string& p : parameters_) {
      const std::string label = scene::readable_path(p) + "  (" + p + ")";
      if (ImGui::Selectable(label.c_str(), p == y_.path)) choose_y(p);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  range_controls("y", y_, "%d rows");
}

MapPanelEvents MapPanel::draw(ImVec2 size) {
  MapPanelEvents events;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  if (!live_) {
    ImGui::TextDisabled("No scene.");
    return events;
  }
  draw_axis_controls(events);
  const long total = static_cast<long>(snapshot_.result.points.size());
  char progress[160] = "";
  switch (snapshot_.phase) {
    case SweepPhase::running:
    case SweepPhase::waiting:
      std::snprintf(progress, sizeof progress, "computing: %ld of %ld cells, %.1f s", snapshot_.completed,
                    total, snapshot_.elapsed_seconds);
      break;
    case SweepPhase::finished:
      std::snprintf(progress, sizeof progress, "%ld cells in %.1f s%s%s", total, snapshot_.elapsed_seconds,
                    snapshot_.device == "cuda" ? " on the GPU" : "",
                    snapshot_.result.failed ? ", some failed (grey)" : "");
      break;
    case SweepPhase::cancelled:
      std::snprintf(progress, sizeof progress, "cancelled after %ld of %ld cells", snapshot_.completed,
                    total);
      break;
    case SweepPhase::idle:
      std::snprintf(progress, sizeof progress, "%s",
                    snapshot_.error.empty() ? "Choose y and press Run map." : snapshot_.error.c_str());
      break;
  }
  ImGui::TextDisabled("%s%s  |  click a map to open that point", progress,
                      computed_for_live() ? "" : " (computed for earlier settings)");
  for (const plot::PlotInteraction& in :
       draw_figure_row("map", figure_, views_, size, top_left, &maximised_)) {
    if (in.clicked) {
      events.clicked = std::make_pair(in.clicked_x, in.clicked_y);
      events.y_path = snapshot_.result.y.path;
    }
  }
  return events;
}

}  // namespace sg::gui
