#include "gui/panels/plot_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/scene/config_diff.hpp"
#include "gui/panels/export_buttons.hpp"
#include "gui/panels/plot_decimation.hpp"
#include "gui/panels/wrapped_tooltip.hpp"
#include "plots/imgui_text_fit.hpp"
#include "plots/sweep_figures/sweep_figure.hpp"
#include "plots/sweep_figures/trajectory_figure.hpp"

namespace sg::gui {

namespace {

plot::Series failure_markers(const SweepResult& result) {
  plot::Series markers;
  long count = 0;
  for (const PointResult& p : result.points) {
    if (p.status == "ok" || p.status == "pending" || p.status == "cancelled") continue;
    ++count;
    markers.x.push_back(p.value);
    markers.y.push_back(std::isfinite(p.loss) ? p.loss : 0.0);
  }
  markers.name = "failed (" + std::to_string(count) + ")";
  markers.style = plot::SeriesStyle::markers;
  markers.color = {230, 40, 40, 255};
  markers.auto_color = false;
  return markers;
}

// Points per series for a plot this wide: a min and a max per two pixel columns, at least 64.
int display_points(float width) {
  return std::max(64, static_cast<int>(width));
}

// Widths within a few pixels reuse the cached copy (panel resizes drag through many widths).
bool width_matches(int cached, float width) {
  return cached >= 0 && std::abs(cached - static_cast<int>(width)) < 4;
}

ExportKind requested_export(const plot::PlotInteraction& in) {
  if (in.export_png) return ExportKind::png;
  if (in.export_svg) return ExportKind::svg;
  if (in.export_csv) return ExportKind::csv;
  if (in.export_json) return ExportKind::json;
  return ExportKind::none;
}

constexpr plot::Color kDescentColor = {255, 200, 40, 255};      // gold: clear of the palette and the pins
constexpr plot::Color kDescentEndColor = {255, 255, 255, 255};  // where each path ended

}  // namespace

void PlotPanel::set_descent(const DescentSnapshot& snapshot) {
  descent_ = snapshot;
  match_descent();
  sweep_drawn_.clear();
}

void PlotPanel::match_descent() {
  descent_matches_ = descent_.problem && live_problem_ &&
                     scene::same_sweep_settings(descent_.problem->config, live_problem_->config);
}

// Each path as a line with a marker per Adam step, and its end point; one legend entry for all.
std::vector<plot::Series> PlotPanel::descent_series() const {
  std::vector<plot::Series> out;
  if (!descent_shown()) return out;
  const DescentSettings& d = descent_.problem->descent;
  char group[96];
  std::snprintf(group, sizeof group, "descent: Adam, %ld steps, lr %g", d.steps, d.lr);
  plot::Series ends;
  ends.name = ends.group = group;
  ends.style = plot::SeriesStyle::markers;
  ends.auto_color = false;
  ends.color = kDescentEndColor;
  for (const DescentPath& path : descent_.result.paths) {
    if (path.x.empty()) continue;
    plot::Series s;
    s.name = s.group = group;
    s.x = path.x;
    s.y = path.loss;
    s.style = plot::SeriesStyle::line_and_markers;
    s.auto_color = false;
    s.color = kDescentColor;
    out.push_back(std::move(s));
    ends.x.push_back(path.x.back());
    ends.y.push_back(path.loss.back());
  }
  out.push_back(std::move(ends));
  return out;
}

void PlotPanel::set_sweep(const SweepSnapshot& snapshot) {
  if (!snapshot.problem) return;
  live_problem_ = snapshot.problem;
  match_descent();
  sweep_ = sg::sweep_figure(*snapshot.problem, snapshot.result);
  plot::Series markers = failure_markers(snapshot.result);
  if (!markers.x.empty() && !sweep_.plots.empty()) sweep_.plots[0].series.push_back(std::move(markers));
  sweep_shown_ = decimate_figure(sweep_);
  sweep_drawn_.clear();
}

void PlotPanel::set_trajectory(const Trajectory* trajectory) {
  source_ = trajectory;
  set_body(body_);
}

int PlotPanel::body_count() const {
  if (!source_ || source_->q.empty()) return 0;
  return static_cast<int>(source_->q[0].size() / (source_->layout == "particles" ? 3 : 7));
}

void PlotPanel::set_body(int body) {
  body_ = std::clamp(body, 0, std::max(body_count() - 1, 0));
  trajectory_ = source_ ? sg::trajectory_figure(*source_, body_) : plot::Figure{};
  trajectory_shown_ = decimate_figure(trajectory_);
  trajectory_drawn_.clear();
}

void PlotPanel::record(const SweepSnapshot& snapshot) {
  if (!snapshot.problem) return;
  history_.record(snapshot.problem, sg::sweep_figure(*snapshot.problem, snapshot.result));
}

void PlotPanel::set_live_config(const nlohmann::json& config) {
  history_.set_live_config(config);
}

void PlotPanel::pin() {
  if (!live_problem_) return;
  history_.set_pinned(history_.record(live_problem_, sweep_), true);
}

void PlotPanel::set_pinned(std::size_t record, bool pinned) {
  history_.set_pinned(record, pinned);
}

void PlotPanel::unpin() {
  history_.unpin_all();
}

const plot::Plot& PlotPanel::drawn_sweep_plot(std::size_t index, float width) {
  if (history_version_ != history_.version()) {
    sweep_drawn_.clear();
    history_version_ = history_.version();
  }
  if (sweep_drawn_.size() != sweep_.plots.size()) sweep_drawn_.assign(sweep_.plots.size(), {});
  DrawnPlot& drawn = sweep_drawn_[index];
  if (!width_matches(drawn.width, width)) {
    drawn.plot = decimate_plot(decorated_sweep_plot(index, false), display_points(width));
    drawn.width = static_cast<int>(width);
  }
  return drawn.plot;
}

const plot::Plot& PlotPanel::drawn_trajectory_plot(std::size_t index, float width) {
  if (trajectory_drawn_.size() != trajectory_.plots.size())
    trajectory_drawn_.assign(trajectory_.plots.size(), {});
  DrawnPlot& drawn = trajectory_drawn_[index];
  if (!width_matches(drawn.width, width)) {
    drawn.plot = decimate_plot(trajectory_.plots[index], display_points(width));
    drawn.width = static_cast<int>(width);
  }
  drawn.plot.vertical_markers.clear();
  if (time_) drawn.plot.vertical_markers.push_back(*time_);
  return drawn.plot;
}

plot::Plot PlotPanel::decorated_sweep_plot(std::size_t index, bool display) const {
  plot::Plot p = display ? sweep_shown_[index] : sweep_.plots[index];
  // Live series first, so they keep their palette colours; pins are drawn behind them anyway (faded).
  for (plot::Series& s : history_.pinned_series(index, display)) p.series.push_back(std::move(s));
  if (index == 0)
    for (plot::Series& s : descent_series()) p.series.push_back(std::move(s));
  if (selected_) p.vertical_markers.push_back(*selected_);
  return p;
}

plot::Figure PlotPanel::shown_figure() const {
  plot::Figure figure;
  figure.title = sweep_.title;
  figure.columns = 3;
  for (std::size_t i = 0; i < sweep_.plots.size(); ++i)
    figure.plots.push_back(decorated_sweep_plot(i, false));
  for (const plot::Plot& p : trajectory_.plots) figure.plots.push_back(p);
  return figure;
}

void PlotPanel::draw_pins_popup() {
  if (!ImGui::BeginPopup("pins")) return;
  const std::vector<SweepRecord>& records = history_.records();
  if (records.empty()) ImGui::TextDisabled("No finished sweeps yet.");
  ImGui::TextDisabled("Recent sweeps, newest last; pinned ones are drawn behind the live sweep");
  for (std::size_t i = 0; i < records.size(); ++i) {
    const SweepRecord& r = records[i];
    ImGui::PushID(static_cast<int>(i));
    bool pinned = r.pinned;
    if (ImGui::Checkbox("##pinned", &pinned)) set_pinned(i, pinned);
    ImGui::SameLine();
    if (r.pinned) {
      ImGui::ColorButton("##colour", ImVec4(r.color.r / 255.0f, r.color.g / 255.0f, r.color.b / 255.0f, 1.0f),
                         ImGuiColorEditFlags_NoTooltip,
                         ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
      ImGui::SameLine();
    }
    const bool live = r.problem == live_problem_;
    ImGui::Text("%s%s", r.label.c_str(), live ? "  (live)" : "");
    ImGui::PopID();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Unpin all", nullptr, false, pinned())) unpin();
  ImGui::EndPopup();
}

void PlotPanel::draw_descent_buttons(PlotPanelEvents& events) {
  const bool running = descent_.phase == SweepPhase::running || descent_.phase == SweepPhase::waiting;
  if (running) {
    ImGui::TextDisabled("descending %ld/%zu", descent_.completed, descent_.result.paths.size());
    return;
  }
  if (ImGui::Button("Descend")) events.descend = true;
  if (ImGui::IsItemHovered())
    wrapped_tooltip(
        "Gradient descent on the loss curve: Adam with the AD gradient from optimize.starts values spread "
        "over the sweep range (optimize.steps steps, learning rate optimize.lr), drawn as paths on the loss "
        "plot. Do the gradients lead to the minimum?");
  if (descent_shown()) {
    ImGui::SameLine();
    if (ImGui::SmallButton("x##descent")) events.clear_descent = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide the descent paths");
  }
}

void PlotPanel::draw_note(float panel_height) {
  if (note_.empty() || !show_notes_) return;
  // The preset's note: what a student should look at in these plots. In a short panel (a 720p projector) one
  // line, the whole note in its tooltip, so that the plots keep their room.
  const std::string text = "Note: " + note_;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.85f, 0.45f, 1.0f));
  if (panel_height >= 30.0f * ImGui::GetTextLineHeightWithSpacing()) {
    ImGui::TextWrapped("%s", text.c_str());
  } else {
    ImGui::TextUnformatted(plot::fit_head(text, ImGui::GetContentRegionAvail().x).c_str());
    if (ImGui::IsItemHovered()) wrapped_tooltip(text.c_str(), 40.0f);
  }
  ImGui::PopStyleColor();
}

void PlotPanel::draw_toolbar(PlotPanelEvents& events) {
  if (ImGui::Button("Pin")) events.pin = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Keep this sweep as a reference behind the live one, labelled by what differs (P)");
  ImGui::SameLine();
  const std::string pins = "Pins (" + std::to_string(history_.pin_count()) + ")";
  if (ImGui::Button(pins.c_str())) ImGui::OpenPopup("pins");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Recent sweeps: pin or unpin any of them");
  draw_pins_popup();
  ImGui::SameLine();
  draw_descent_buttons(events);
  ImGui::SameLine();
  // One click to a symmetric log gradient axis: FD spikes and small gradients both stay readable.
  plot::PlotViewState& grad_view = views_[1];
  const plot::Scale grad_scale =
      grad_view.y_scale.value_or(sweep_.plots.size() > 1 ? sweep_.plots[1].y.scale : plot::Scale::linear);
  bool symlog = grad_scale == plot::Scale::symlog;
  if (ImGui::Checkbox("symlog", &symlog)) {
    grad_view.y_scale = symlog ? plot::Scale::symlog : plot::Scale::linear;
    grad_view.autofit = true;
  }
  if (ImGui::IsItemHovered())
    wrapped_tooltip(
        "Gradient axis: symmetric log (linear near 0) or linear. Triangles at the plot's edge "
        "mark points outside the view.");
  if (!note_.empty()) {
    ImGui::SameLine();
    ImGui::Checkbox("note", &show_notes_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the preset's teaching note above the plots");
  }
  ImGui::SameLine();
  if (const ExportKind kind = draw_export_buttons("|  export all:"); kind != ExportKind::none)
    events.export_kind = kind;
  if (const int bodies = body_count(); bodies > 1) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    int body = body_;
    const bool rigid = source_->layout != "particles";
    if (ImGui::SliderInt("##body", &body, 0, bodies - 1, rigid ? "body %d" : "particle %d")) set_body(body);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Which body the trajectory plots show");
  }
  ImGui::SameLine();
  if (maximised_) {
    if (ImGui::SmallButton("Restore")) maximised_.reset();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show all plots again (or double-click the plot's title)");
    ImGui::SameLine();
  }
  ImGui::TextDisabled(
      "|  click: simulate that point; double-click a title: maximise; right-drag: zoom; right-click: more");
}

void PlotPanel::draw_sweep_plot(std::size_t i, ImVec2 size, PlotPanelEvents& events) {
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  if (!ImGui::IsRectVisible(size)) {  // scrolled or clipped away: no drawing
    ImGui::Dummy(size);
    return;
  }
  const plot::Plot& shown = drawn_sweep_plot(i, size.x);
  const plot::PlotInteraction in =
      plot::draw_plot_imgui(("sweep" + std::to_string(i)).c_str(), shown, views_[i], size, maximised_ == i);
  if (in.clicked) events.clicked_value = in.clicked_x;
  if (in.toggle_maximise) toggle_maximised(i);
  if (const ExportKind kind = requested_export(in); kind != ExportKind::none) {
    events.export_kind = kind;
    events.export_figure = plot::Figure{shown.title, 1, {decorated_sweep_plot(i, false)}};
    events.export_min = corner;
    events.export_max = ImVec2(corner.x + size.x, corner.y + size.y);
  }
}

void PlotPanel::draw_trajectory_plot(std::size_t i, ImVec2 size, PlotPanelEvents& events) {
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  if (!ImGui::IsRectVisible(size)) {
    ImGui::Dummy(size);
    return;
  }
  const plot::PlotInteraction in =
      plot::draw_plot_imgui(("trajectory" + std::to_string(i)).c_str(), drawn_trajectory_plot(i, size.x),
                            views_[3 + i], size, maximised_ == 3 + i);
  if (in.toggle_maximise) toggle_maximised(3 + i);
  if (const ExportKind kind = requested_export(in); kind != ExportKind::none) {
    const plot::Plot& full = trajectory_.plots[i];
    events.export_kind = kind;
    events.export_figure = plot::Figure{full.title, 1, {full}};
    events.export_min = corner;
    events.export_max = ImVec2(corner.x + size.x, corner.y + size.y);
  }
}

void PlotPanel::toggle_maximised(std::size_t view) {
  maximised_ = maximised_ == view ? std::nullopt : std::optional<std::size_t>(view);
}

PlotPanelEvents PlotPanel::draw(ImVec2 size) {
  PlotPanelEvents events;
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  draw_note(size.y);
  draw_toolbar(events);

  const ImGuiStyle& style = ImGui::GetStyle();
  const float used = ImGui::GetCursorScreenPos().y - top_left.y;
  const std::size_t n_traj = trajectory_shown_.size();
  // A maximised plot that has gone (fewer trajectory plots now) gives the space back.
  if (maximised_ && (*maximised_ < 3 ? *maximised_ >= sweep_shown_.size() : *maximised_ - 3 >= n_traj))
    maximised_.reset();
  if (maximised_) {
    const ImVec2 whole(size.x, std::max(size.y - used - style.ItemSpacing.y, 40.0f));
    if (*maximised_ < 3) {
      draw_sweep_plot(*maximised_, whole, events);
    } else {
      draw_trajectory_plot(*maximised_ - 3, whole, events);
    }
  } else {
    const float row_height = std::max((size.y - used - style.ItemSpacing.y) * 0.5f, 40.0f);
    const float sweep_width = (size.x - 2.0f * style.ItemSpacing.x) / 3.0f;
    for (std::size_t i = 0; i < sweep_shown_.size() && i < 3; ++i) {
      if (i > 0) ImGui::SameLine();
      draw_sweep_plot(i, ImVec2(sweep_width, row_height), events);
    }
    if (sweep_.plots.empty()) ImGui::Dummy(ImVec2(size.x, row_height));
    if (n_traj == 0) ImGui::TextDisabled("Click a sweep plot to see that point's trajectory here.");
    const float traj_width =
        n_traj ? (size.x - static_cast<float>(n_traj - 1) * style.ItemSpacing.x) / static_cast<float>(n_traj)
               : 0.0f;
    for (std::size_t i = 0; i < n_traj && i + 3 < views_.size(); ++i) {
      if (i > 0) ImGui::SameLine();
      draw_trajectory_plot(i, ImVec2(traj_width, row_height), events);
    }
  }
  if (events.export_kind != ExportKind::none && !events.export_figure) {
    events.export_min = top_left;
    events.export_max = ImVec2(top_left.x + size.x, top_left.y + size.y);
  }
  return events;
}

}  // namespace sg::gui
