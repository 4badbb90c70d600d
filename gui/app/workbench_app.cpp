#include "gui/app/workbench_app.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/gradient/reference.hpp"
#include "engine/optimize/identifiability.hpp"
#include "engine/scene/config_diff.hpp"
#include "engine/scene/path.hpp"
#include "engine/sweep/gradient_agreement.hpp"
#include "gui/document/presets.hpp"
#include "gui/document/scenes_folder.hpp"
#include "gui/export/figure_png.hpp"
#include "gui/export/plot_export.hpp"
#include "gui/panels/device_choice.hpp"
#include "gui/view3d/scene_bounds.hpp"
#include "gui/view3d/scene_view_3d.hpp"

namespace sg::gui {

namespace {

// An error's first line, at most 160 characters (the status bar has one line; the controls show it whole).
std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 160) line = line.substr(0, 157) + "...";
  return line;
}

}  // namespace

namespace {

// ", not identified: NAME (why)" for the status bar, or "" when every fitted number is identified.
std::string identification_note(const std::vector<std::string>& paths,
                                const std::vector<std::string>& problems) {
  const std::string text = not_identified_text(paths, problems);
  return text.empty() ? "" : ", " + text;
}

std::filesystem::path resolve_folder(const std::filesystem::path& folder) {
  return folder.empty() ? default_scenes_folder() : folder;
}

std::string format_seconds(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", s);
  return buffer;
}

}  // namespace

std::string default_scene_file(const std::filesystem::path& scenes_folder) {
  return (resolve_folder(scenes_folder) / "toy_point_mass.json").string();
}

WorkbenchApp::WorkbenchApp(WorkbenchOptions options)
    : options_(std::move(options)),
      controls_(resolve_folder(options_.scenes_folder), options_.out_folder),
      sweeper_(options_.sweep_threads),
      mapper_(options_.sweep_threads),
      descender_(options_.sweep_threads),
      toss_panel_(default_tosses_file(resolve_folder(options_.scenes_folder))) {
  options_.scenes_folder = resolve_folder(options_.scenes_folder);
}

bool WorkbenchApp::open_scene(const std::string& file, const std::vector<std::string>& overrides) {
  if (!doc_.open(file, overrides)) return false;
  after_open();
  return true;
}

bool WorkbenchApp::open_scene_text(const std::string& text, const std::string& source) {
  if (!doc_.open_text(text, source)) return false;
  after_open();
  return true;
}

void WorkbenchApp::after_open() {
  active_preset_.clear();
  identify_view_ = -1;
  edits_since_open_ = 0;
  plots_.set_note("");
  if (doc_.problem()) plots_.prefer_body(scored_body(*doc_.problem()));
  selected_.reset();
  refit_camera();
  on_problem_changed();
}

// The body the loss's first position, velocity or site term scores (the trajectory plots show it first; a
// site's body), else 0.
int WorkbenchApp::scored_body(const Problem& p) {
  for (int i = 0; i < p.data.loss.count; ++i) {
    const LossQuantity q = p.data.loss.terms[i].quantity;
    if (q == LossQuantity::position || q == LossQuantity::velocity) return p.data.loss.terms[i].body;
    if (q == LossQuantity::site)
      return std::max(0, p.data.tree.act.ten.site[p.data.loss.terms[i].body].body - 1);
  }
  return 0;
}

bool WorkbenchApp::apply_preset(const std::string& name) {
  const Preset* preset = find_preset(name);
  if (!preset) {
    message_ = "unknown preset \"" + name + "\"; the presets are:";
    for (const Preset& p : preset_table()) message_ += std::string(" ") + p.name;
    return false;
  }
  const bool ok = open_scene((options_.scenes_folder / preset->scene).string(), preset->overrides);
  if (ok) mark_preset(*preset);
  message_ = ok ? std::string("preset: ") + preset->label : doc_.error();
  return ok;
}

void WorkbenchApp::mark_preset(const Preset& preset) {
  active_preset_ = preset.name;
  plots_.set_note(preset.help);
}

bool WorkbenchApp::set_path(const std::string& path, const nlohmann::json& value) {
  if (!doc_.set(path, value)) return false;
  on_problem_changed();
  return true;
}

SceneBounds WorkbenchApp::scene_bounds() const {
  return doc_.problem() ? problem_scene_bounds(*doc_.problem()) : SceneBounds{};
}

void WorkbenchApp::refit_camera() {
  // Rigid scenes and joint trees span centimetres to metres: frame their bodies. Particle scenes keep the
  // user's (persisted) camera, unless the view was fitted to bodies before.
  const SceneBounds bounds = scene_bounds();
  if (!bounds.empty || fitted_bodies_) pending_camera_ = fitted_camera(bounds);
  fitted_bodies_ = !bounds.empty;
}

std::optional<render::Camera> WorkbenchApp::camera_request(bool home) {
  if (home) return fitted_camera(scene_bounds());
  std::optional<render::Camera> camera = std::move(pending_camera_);
  pending_camera_.reset();
  return camera;
}

void WorkbenchApp::cancel() {
  // Says what it stopped, and nothing when nothing ran (Esc with the workers idle).
  std::string stopped;
  const auto stop = [&](auto& worker, const char* what) {
    if (!worker.busy()) return;
    worker.cancel();
    stopped += (stopped.empty() ? "" : ", ") + std::string(what);
  };
  stop(sweeper_, "sweep");
  stop(mapper_, "2-D map");
  stop(descender_, "descent");
  stop(identifier_, "fit");
  stop(tradeoffer_, "study");
  stop(mpcer_, "MPC");
  stop(toss_fitter_, "fit to the tosses");
  if (!stopped.empty()) message_ = "cancelled: " + stopped;
}

void WorkbenchApp::select_value(double value) {
  if (!doc_.problem()) return;
  const SweepSpec& sweep = doc_.problem()->sweep;
  selected_ = std::clamp(value, std::min(sweep.from, sweep.to), std::max(sweep.from, sweep.to));
  plots_.set_selected(selected_);
  simulator_.request(doc_.problem(), *selected_);
}

void WorkbenchApp::pin() {
  plots_.pin();
  message_ = "pinned the current sweep (Pins lists recent sweeps)";
}

void WorkbenchApp::unpin() {
  plots_.unpin();
  message_ = "unpinned all";
}

void WorkbenchApp::descend() {
  if (!doc_.problem()) return;
  descent_wanted_ = true;
  descender_.submit(doc_.problem());
  const DescentSettings& d = doc_.problem()->descent;
  message_ = "descending from " + std::to_string(d.starts) + " starts, " + std::to_string(d.steps) + " steps";
}

void WorkbenchApp::identify() {
  if (!doc_.problem()) return;
  if (doc_.problem()->identify.paths.empty()) {
    message_ = "identify: the scene lists no identify.parameters";
    return;
  }
  identifier_.submit(doc_.problem());
  message_ = "identifying " + std::to_string(doc_.problem()->identify.paths.size()) + " numbers";
}

void WorkbenchApp::clear_descent() {
  descent_wanted_ = false;
  descender_.cancel();
  descent_snapshot_ = DescentSnapshot{descent_snapshot_.version};
  plots_.set_descent(descent_snapshot_);
}

void WorkbenchApp::on_problem_changed() {
  if (scrub_ && dragging_) {
    sweep_deferred_ = true;
  } else {
    submit_sweep();
  }
  plots_.set_live_config(doc_.config());
  // Keep the selected value if possible, else start at the parameter's value in the scene.
  if (!selected_) {
    const auto current = scene::get_path(doc_.config(), doc_.problem()->sweep.parameter);
    selected_ = current && current->is_number() ? current->get<double>() : doc_.problem()->sweep.from;
  }
  select_value(*selected_);
}

void WorkbenchApp::submit_sweep() {
  sweep_deferred_ = false;
  if (message_.rfind("cancelled", 0) == 0) message_.clear();  // stale once a new sweep runs
  // The optimize.* knobs do not change the sweep: only the descent re-runs for them.
  const bool descent_only = swept_problem_ && swept_problem_->config != doc_.problem()->config &&
                            scene::same_sweep_settings(swept_problem_->config, doc_.problem()->config);
  if (!descent_only) {
    sweeper_.submit(doc_.problem(), options_.debounce);
    swept_problem_ = doc_.problem();
  }
  if (descent_wanted_) descender_.submit(doc_.problem());
}

void WorkbenchApp::set_scrub(bool on) {
  scrub_ = on;
  submit_if_released();
}

void WorkbenchApp::set_dragging(bool dragging) {
  dragging_ = dragging;
  submit_if_released();
}

void WorkbenchApp::submit_if_released() {
  if (sweep_deferred_ && !(scrub_ && dragging_) && doc_.problem()) submit_sweep();
}

void WorkbenchApp::handle_action(Action action) {
  switch (action) {
    case Action::kCancelRun:
      cancel();
      break;
    case Action::kPlayPause:
      player_.toggle();
      break;
    case Action::kStepForward:
      player_.step(1);
      break;
    case Action::kStepBack:
      player_.step(-1);
      break;
    case Action::kPinSweep:
      pin();
      break;
    default:
      break;
  }
}

void WorkbenchApp::update(float delta_seconds) {
  if (mapper_.snapshot(&map_snapshot_)) maps_.set_snapshot(map_snapshot_);
  if (tradeoffer_.snapshot(&tradeoff_snapshot_)) {
    tradeoff_panel_.set_snapshot(tradeoff_snapshot_);
    if (tradeoff_snapshot_.phase == SweepPhase::finished)
      message_ = tradeoff_snapshot_.result.ok() ? "accuracy vs cost: done"
                                                : "accuracy vs cost: the reference failed (" +
                                                      tradeoff_snapshot_.result.reference.status + ")";
  }
  if (descender_.snapshot(&descent_snapshot_)) {
    plots_.set_descent(descent_snapshot_);
    // "descending from N starts" gives way to the outcome.
    if (descent_snapshot_.phase == SweepPhase::finished && message_.rfind("descending", 0) == 0)
      message_ = "descent: " + std::to_string(descent_snapshot_.result.paths.size()) + " paths done";
  }
  if (identifier_.snapshot(&identify_snapshot_)) {
    identify_panel_.set_snapshot(identify_snapshot_);
    const IdentifySnapshot& fit = identify_snapshot_;
    if (fit.phase == SweepPhase::cancelled) message_ = "identify: cancelled";
    if (fit.phase == SweepPhase::finished)
      message_ = fit.status != "ok" ? "identify failed: " + fit.status
                 : fit.steps.empty()
                     ? "identify: no steps"
                     : "identify: done in " + std::to_string(fit.steps.back().iteration) + " steps (" +
                           fit.stopped + ")" + identification_note(fit.paths, fit.not_identified);
  }
  update_mpc();
  update_toss_replay();
  if (sweeper_.snapshot(&snapshot_)) {
    plots_.set_sweep(snapshot_);
    if (snapshot_.phase == SweepPhase::finished && snapshot_.problem != recorded_problem_) {
      recorded_problem_ = snapshot_.problem;
      plots_.record(snapshot_);
    }
  }
  long version = 0;
  auto latest = simulator_.latest(&version);
  if (version != trajectory_version_) {
    trajectory_version_ = version;
    trajectory_ = std::move(latest);
    plots_.set_trajectory(trajectory_.get());
    player_.set_times(trajectory_ ? trajectory_->t : std::vector<double>{});
  }
  player_.advance(delta_seconds);
  plots_.set_time(trajectory_ ? std::optional<double>(player_.time()) : std::nullopt);
  if (auto text = capture_->take_message()) message_ = *text;
}

bool WorkbenchApp::wait_until_idle(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  };
  const auto rest = [&] { return std::max(left(), std::chrono::milliseconds(0)); };
  const bool ok = sweeper_.wait_idle(left()) && simulator_.wait_idle(rest()) && mapper_.wait_idle(rest()) &&
                  descender_.wait_idle(rest()) && identifier_.wait_idle(rest()) &&
                  tradeoffer_.wait_idle(rest()) && mpcer_.wait_idle(rest()) &&
                  toss_replayer_.wait_idle(rest()) && toss_fitter_.wait_idle(rest());
  update(0.0f);
  return ok;
}

StatusInfo WorkbenchApp::status() const {
  StatusInfo info;
  const std::string name = doc_.config().value("name", std::string("no scene"));
  const long total = static_cast<long>(snapshot_.result.points.size());
  std::string text = name + ": ";
  switch (snapshot_.phase) {
    case SweepPhase::idle:
      text += "idle";
      break;
    case SweepPhase::waiting:
      text += "starting sweep...";
      info.progress = 0.0f;
      break;
    case SweepPhase::running:
      text += "sweeping " + std::to_string(snapshot_.completed) + "/" + std::to_string(total) + " points, " +
              format_seconds(snapshot_.elapsed_seconds);
      if (const double left = snapshot_.seconds_left(); left >= 0.0)
        text += ", about " + format_seconds(left) + " left";
      text += " (Esc cancels)";
      info.progress = total > 0 ? static_cast<float>(snapshot_.completed) / static_cast<float>(total) : 0.0f;
      break;
    case SweepPhase::finished: {
      if (!snapshot_.error.empty()) {
        text += "sweep failed: " + snapshot_.error;
        break;
      }
      text += std::to_string(total) + " points in " + format_seconds(snapshot_.elapsed_seconds);
      if (snapshot_.device == "cuda") text += " on the GPU";
      // What the adaptive solver did (the AD runs): with integrator.events off, rejections show the price.
      const SweepSnapshot::StepTotals steps = snapshot_.step_totals();
      if (steps.rejected + steps.events > 0)
        text += " | " + std::to_string(steps.accepted) + " steps, " + std::to_string(steps.rejected) +
                " rejected, " + std::to_string(steps.events) + " contact events";
      // Against the chosen reference, without the points where both are zero (the markers show the rest).
      if (snapshot_.problem) {
        text += " | " + agreement_text(snapshot_.result.stats, compared_reference_name(*snapshot_.problem));
        if (straight_through_tangents_uncontrolled(*snapshot_.problem))
          text +=
              " | CFD surrogate's switches inside steps: integrator.events and contact.cfd.surrogate_events "
              "for point accuracy";
      }
      break;
    }
    case SweepPhase::cancelled:
      text += "cancelled: " + std::to_string(snapshot_.completed) + " of " + std::to_string(total) +
              " points computed, the rest marked \"cancelled\"";
      break;
  }
  if (const long failed = snapshot_.failed(); failed > 0)
    text += " | " + std::to_string(failed) + " points failed (red markers)";
  if (sweep_deferred_) text += " | scrubbing: the sweep re-runs when the knob is let go";
  if (!doc_.error().empty())
    text += " | " + first_line(doc_.error()) + " (the last valid scene keeps running)";
  if (!message_.empty()) text += " | " + message_;
  info.text = text;
  return info;
}

void WorkbenchApp::apply(const ControlsRequest& request) {
  if (request.dragging) dragging_ = true;  // before the edits: they belong to the drag
  if (request.open_file || request.preset) {
    // Another scene would replace the edits made here: ask first (draw_switch_confirmation).
    pending_switch_ = {request.open_file, request.preset, request.open_overrides};
    if (edits_since_open_ == 0) confirm_switch(true);
  }
  for (const auto& [path, value] : request.edits) edits_since_open_ += set_path(path, value) ? 1 : 0;
  set_dragging(request.dragging);  // a knob let go this frame starts the deferred sweep
  if (request.save_to) {
    std::string error;
    message_ = doc_.save(*request.save_to, &error) ? "saved " + *request.save_to : "save failed: " + error;
  }
}

void WorkbenchApp::confirm_switch(bool discard_edits) {
  const PendingSwitch pending = pending_switch_;
  pending_switch_ = {};
  if (!discard_edits) return;
  // The status bar names the file; the error itself follows it there and at the top of the controls.
  if (pending.open_file && !open_scene(*pending.open_file, pending.overrides))
    message_ = "could not open " + std::filesystem::path(*pending.open_file).filename().string();
  if (pending.preset) apply_preset(*pending.preset);
}

// The question asked before another scene replaces edits made in the controls.
void WorkbenchApp::draw_switch_confirmation() {
  if (!switch_pending()) return;
  const char* title = "Discard your edits?";
  if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const std::string target = pending_switch_.preset ? "the preset \"" + *pending_switch_.preset + "\""
                                                    : "\"" + *pending_switch_.open_file + "\"";
  ImGui::Text("%ld edit%s to %s will be lost by opening %s.", edits_since_open_,
              edits_since_open_ == 1 ? "" : "s", doc_.source().c_str(), target.c_str());
  ImGui::TextDisabled("Save keeps them in a scene file first.");
  if (ImGui::Button("Discard and open")) {
    ImGui::CloseCurrentPopup();
    confirm_switch(true);
  }
  ImGui::SameLine();
  if (ImGui::Button("Keep editing") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    ImGui::CloseCurrentPopup();
    confirm_switch(false);
  }
  ImGui::EndPopup();
}

void WorkbenchApp::draw_controls() {
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4.0f);
  if (auto device = draw_device_choice(sweeper_.device(), cuda_device_info(), sweeper_.threads()))
    set_sweep_device(*device);
  bool scrub = scrub_;
  if (ImGui::Checkbox("scrub", &scrub)) set_scrub(scrub);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "While a knob is dragged, only the clicked point's trajectory follows it (at interactive rates);\n"
        "the sweep re-runs once the knob is let go. Off: every change restarts the sweep.");
  apply(controls_.draw(doc_, active_preset_));
  draw_switch_confirmation();
}

void WorkbenchApp::set_sweep_device(SweepDevice device) {
  if (device == sweeper_.device()) return;
  sweeper_.set_device(device);
  mapper_.set_device(device);
  if (doc_.problem()) sweeper_.submit(doc_.problem(), options_.debounce);
}

std::string WorkbenchApp::stem() const {
  return doc_.config().value("name", std::string("plot"));
}

void WorkbenchApp::export_plots(const PlotPanelEvents& events) {
  const plot::Figure figure = events.export_figure ? *events.export_figure : plots_.shown_figure();
  const std::string name = events.export_figure ? stem() + "_" + slug(figure.title) : stem() + "_plots";
  switch (events.export_kind) {
    case ExportKind::png: {
      // The figure itself at the size it has on screen (in framebuffer pixels), drawn anew offscreen.
      const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
      int width = static_cast<int>((events.export_max.x - events.export_min.x) * scale.x);
      int height = static_cast<int>((events.export_max.y - events.export_min.y) * scale.y);
      export_size(figure, &width, &height);
      capture_->request_figure({(options_.out_folder / (name + ".png")).string(), figure, width, height});
      message_ = "exporting PNG...";
      break;
    }
    case ExportKind::svg:
      message_ = export_svg(figure, options_.out_folder, name);
      break;
    case ExportKind::csv:
      message_ = export_csv(figure, options_.out_folder, name);
      break;
    case ExportKind::json:
      message_ = export_json(figure, options_.out_folder, name);
      break;
    case ExportKind::none:
      break;
  }
}

void WorkbenchApp::draw_plots(ImVec2 size) {
  plot_maximised_ = false;  // set by the tab drawn this frame
  if (!ImGui::BeginTabBar("plot tabs")) return;
  const float tab_height = ImGui::GetFrameHeightWithSpacing();
  const ImVec2 below_tabs(size.x, std::max(size.y - tab_height, 40.0f));
  if (ImGui::BeginTabItem("Sweep")) {
    draw_sweep_plots(below_tabs);
    plot_maximised_ = plots_.maximised().has_value();
    ImGui::EndTabItem();
  }
  if (ImGui::BeginTabItem("2-D map")) {
    draw_map(below_tabs);
    plot_maximised_ = maps_.has_maximised();
    ImGui::EndTabItem();
  }
  if (ImGui::BeginTabItem("Identify", nullptr, show_identify_ ? ImGuiTabItemFlags_SetSelected : 0)) {
    draw_identify(below_tabs);
    plot_maximised_ = identify_panel_.has_maximised();
    ImGui::EndTabItem();
  }
  show_identify_ = false;
  if (ImGui::BeginTabItem("Cost", nullptr, show_tradeoff_ ? ImGuiTabItemFlags_SetSelected : 0)) {
    draw_tradeoff(below_tabs);
    plot_maximised_ = tradeoff_panel_.has_maximised();
    ImGui::EndTabItem();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Accuracy against cost of the integrators at one value (DiffMJX Fig. S6)");
  show_tradeoff_ = false;
  if (ImGui::BeginTabItem("MPC", nullptr, show_mpc_ ? ImGuiTabItemFlags_SetSelected : 0)) {
    draw_mpc(below_tabs);
    plot_maximised_ = mpc_panel_.has_maximised();
    ImGui::EndTabItem();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Model-predictive control through the simulator: gradient against sampling (DiffMJX Sec. 5.3)");
  show_mpc_ = false;
  ImGui::EndTabBar();
}

void WorkbenchApp::run_map(const GridAxis& x, const GridAxis& y) {
  if (!doc_.problem()) return;
  mapper_.submit(doc_.problem(), x, y);
  message_ = "2-D map: " + std::to_string(x.points * y.points) + " cells";
}

void WorkbenchApp::open_map_point(const std::string& y_path, double x, double y) {
  // The point becomes the live scene's y value and the selected x: the 1-D sweep re-runs at that y and the
  // trajectory shows the point.
  if (!set_path(y_path, y)) {
    message_ = "cannot set " + y_path + ": " + doc_.error();
    return;
  }
  select_value(x);
}

void WorkbenchApp::draw_map(ImVec2 size) {
  maps_.set_problem(doc_.problem());
  const MapPanelEvents events = maps_.draw(size);
  if (events.run) run_map(events.run->first, events.run->second);
  if (events.cancel) mapper_.cancel();
  if (events.clicked) open_map_point(events.y_path, events.clicked->first, events.clicked->second);
}

void WorkbenchApp::draw_identify(ImVec2 size) {
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  // Rigid scenes can also replay measured tosses; the view starts there when the scene fits nothing itself.
  const bool rigid = doc_.problem() && doc_.problem()->data.type == ModelType::rigid;
  if (rigid) {
    if (identify_view_ < 0) identify_view_ = doc_.problem()->identify.paths.empty() ? 1 : 0;
    ImGui::RadioButton("the scene's numbers", &identify_view_, 0);
    ImGui::SameLine();
    ImGui::RadioButton("measured tosses", &identify_view_, 1);
    if (identify_view_ == 1) {
      draw_measured_tosses(size, top_left);
      return;
    }
  }
  identify_panel_.set_problem(doc_.problem());
  const IdentifyPanelEvents events = identify_panel_.draw(size);
  if (events.run) identify();
  if (events.cancel) identifier_.cancel();
  if (events.export_kind != ExportKind::none)
    export_identify(events.export_kind, events.export_min, events.export_max);
}

void WorkbenchApp::run_tradeoff_study(double x, const TradeoffOptions& options) {
  if (!doc_.problem()) return;
  tradeoffer_.submit(doc_.problem(), doc_.source(), x, options);
  message_ = "accuracy vs cost at " + std::to_string(x);
}

void WorkbenchApp::draw_tradeoff(ImVec2 size) {
  tradeoff_panel_.set_problem(doc_.problem(), selected_);
  const TradeoffPanelEvents events = tradeoff_panel_.draw(size);
  if (events.run) run_tradeoff_study(events.run->first, events.run->second);
  if (events.cancel) tradeoffer_.cancel();
  if (events.export_kind != ExportKind::none)
    export_figure(events.export_kind, tradeoff_panel_.figure(), events.export_min, events.export_max);
}

void WorkbenchApp::export_identify(ExportKind kind, ImVec2 min, ImVec2 max) {
  export_figure(kind, identify_panel_.figure(), min, max);
}

void WorkbenchApp::export_figure(ExportKind kind, const plot::Figure& figure, ImVec2 min, ImVec2 max) {
  PlotPanelEvents request;
  request.export_kind = kind;
  request.export_figure = figure;
  request.export_min = min;
  request.export_max = max;
  export_plots(request);
}

void WorkbenchApp::draw_sweep_plots(ImVec2 size) {
  const PlotPanelEvents events = plots_.draw(size);
  if (events.clicked_value) select_value(*events.clicked_value);
  if (events.pin) pin();
  if (events.unpin) unpin();
  if (events.descend) descend();
  if (events.clear_descent) clear_descent();
  if (events.export_kind != ExportKind::none) export_plots(events);
}

void WorkbenchApp::draw_player_toolbar() {
  if (!trajectory_ || player_.frame_count() == 0) {
    ImGui::TextDisabled("No trajectory yet: click a sweep plot.");
    return;
  }
  if (ImGui::Button(player_.playing() ? "Pause" : "Play")) player_.toggle();
  ImGui::SameLine();
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) player_.step(-1);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) player_.step(1);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
  ImGui::SliderFloat("speed", &player_.speed, 0.05f, 4.0f, "%.2fx", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  int frame = player_.frame();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14.0f);
  if (ImGui::SliderInt("##frame", &frame, 0, player_.frame_count() - 1, "frame %d"))
    player_.seek_frame(frame);
  ImGui::SameLine();
  if (!trajectory_->title.empty())
    ImGui::Text("t = %.3f s | %s", player_.time(), trajectory_->title.c_str());
  else
    ImGui::Text("t = %.3f s | value %.4g | loss %.4g | grad %.4g | %s", player_.time(), trajectory_->value,
                trajectory_->loss, trajectory_->grad, trajectory_->status.c_str());
}

void WorkbenchApp::fill_scene(render::Scene3D& scene) const {
  SceneViewOptions view;
  view.trajectory = trajectory_.get();
  view.frame = player_.frame();
  if (doc_.problem())
    build_scene_view(*doc_.problem(), view, scene);
  else
    build_scene_view(doc_.config(), view, scene);
  add_measured_body(scene);
}

Workbench WorkbenchApp::make_workbench() {
  auto self = shared_from_this();
  Workbench workbench;
  workbench.begin_frame = [self](float dt) { self->update(dt); };
  workbench.draw_controls = [self] { self->draw_controls(); };
  workbench.draw_plots = [self](ImVec2 size) { self->draw_plots(size); };
  workbench.plots_only = [self] { return self->plot_maximised_; };
  workbench.fill_scene = [self](render::Scene3D& scene) { self->fill_scene(scene); };
  workbench.status = [self] { return self->status(); };
  workbench.draw_viewport_toolbar = [self] { self->draw_player_toolbar(); };
  workbench.on_action = [self](Action action) { self->handle_action(action); };
  workbench.capture = capture_;
  workbench.camera_request = [self](bool home) { return self->camera_request(home); };
  workbench.camera_fits_bodies = [self] { return self->camera_fits_bodies(); };
  workbench.animating = [self] { return self->animating(); };
  workbench.playing = [self] { return self->playing(); };
  workbench.open_dropped = [self](const std::string& file) {
    ControlsRequest request;
    request.open_file = file;
    self->apply(request);
  };
  return workbench;
}

}  // namespace sg::gui
