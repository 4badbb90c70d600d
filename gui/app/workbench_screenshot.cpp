#include "gui/app/workbench_screenshot.hpp"

#include <cstdio>

#include "gui/app/headless_runner.hpp"
#include "gui/document/presets.hpp"
#include "render/image_io.hpp"

namespace sg::gui {

namespace {

// The frame to show: the requested time, else the preset's, else the last frame (the whole trail).
int frame_to_show(WorkbenchApp& app, const ScreenshotRequest& request) {
  double time = request.time;
  if (time < 0.0 && !request.preset.empty())
    if (const Preset* preset = find_preset(request.preset)) time = preset->show_time;
  const int last = app.player().frame_count() - 1;
  const auto tr = app.trajectory();
  if (time < 0.0 || !tr) return last;
  int frame = 0;
  while (frame < last && tr->t[static_cast<std::size_t>(frame) + 1] <= time + 1e-12) ++frame;
  return frame;
}

bool open_requested_scene(WorkbenchApp& app, const ScreenshotRequest& request, std::string* error) {
  std::string file = request.scene;
  std::vector<std::string> overrides;
  if (!request.preset.empty()) {
    const Preset* preset = find_preset(request.preset);
    if (!preset) {
      std::string names;
      for (const Preset& p : preset_table()) names += std::string(names.empty() ? "" : ", ") + p.name;
      *error = "unknown preset \"" + request.preset + "\" (one of: " + names + ")";
      return false;
    }
    if (file.empty()) file = (app.scenes_folder() / preset->scene).string();
    overrides = preset->overrides;
  }
  if (file.empty()) file = default_scene_file(request.options.scenes_folder);
  overrides.insert(overrides.end(), request.overrides.begin(), request.overrides.end());
  if (!app.open_scene(file, overrides)) {
    *error = app.document().error();
    return false;
  }
  if (const Preset* preset = find_preset(request.preset); preset && request.scene.empty())
    app.mark_preset(*preset);
  return true;
}

}  // namespace

bool parse_size(const std::string& text, int* width, int* height) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) return false;
  if (w < 64 || h < 64 || w > 8192 || h > 8192) return false;
  *width = w;
  *height = h;
  return true;
}

bool render_workbench_screenshot(const ScreenshotRequest& request, std::string* error) {
  auto app = std::make_shared<WorkbenchApp>(request.options);
  if (!open_requested_scene(*app, request, error)) return false;
  AppSettings settings;
  settings.ui_scale = request.ui_scale;
  AppShell shell(app->make_workbench(), settings);
  auto runner = HeadlessShellRunner::create(shell, request.width, request.height, error);
  if (!runner) return false;
  for (int i = 0; i < 2; ++i)
    if (!runner->run_frame(error)) return false;
  if (request.descend) app->descend();
  if (request.identify) {
    if (!app->wait_until_idle(std::chrono::seconds(request.timeout_seconds))) {
      *error = "the sweep did not finish within " + std::to_string(request.timeout_seconds) + " s";
      return false;
    }
    if (!app->document().problem() || app->document().problem()->identify.paths.empty()) {
      *error = "--identify: the scene lists no identify.parameters";
      return false;
    }
    app->identify();
    app->show_identify_tab();
  }
  if (request.tradeoff) {
    if (!app->wait_until_idle(std::chrono::seconds(request.timeout_seconds))) {
      *error = "the sweep did not finish within " + std::to_string(request.timeout_seconds) + " s";
      return false;
    }
    const Problem& p = *app->document().problem();
    app->run_tradeoff_study(app->selected_value().value_or(0.5 * (p.sweep.from + p.sweep.to)),
                            TradeoffOptions{});
    app->show_tradeoff_tab();
  }
  if (request.mpc) {
    if (!app->wait_until_idle(std::chrono::seconds(request.timeout_seconds))) {
      *error = "the sweep did not finish within " + std::to_string(request.timeout_seconds) + " s";
      return false;
    }
    if (const std::string why = mpc_unavailable(*app->document().problem()); !why.empty()) {
      *error = "--mpc: " + why;
      return false;
    }
    app->run_mpc(app->mpc_panel().chosen_runs());
    app->show_mpc_tab();
  }
  if (request.replay_toss >= 0) {
    if (!app->wait_until_idle(std::chrono::seconds(request.timeout_seconds))) {
      *error = "the sweep did not finish within " + std::to_string(request.timeout_seconds) + " s";
      return false;
    }
    app->replay_toss(request.tosses.empty() ? default_tosses_file(app->scenes_folder()) : request.tosses,
                     request.replay_toss);
    app->show_measured_tosses();
  }
  if (!app->wait_until_idle(std::chrono::seconds(request.timeout_seconds))) {
    *error = std::string(request.identify   ? "the fit"
                         : request.mpc      ? "MPC"
                         : request.tradeoff ? "the study"
                                            : "the sweep") +
             " did not finish within " + std::to_string(request.timeout_seconds) + " s";
    return false;
  }
  if (request.replay_toss >= 0) {
    if (!app->toss_replay().error.empty()) {
      *error = "--replay-toss: " + app->toss_replay().error;
      return false;
    }
    if (app->player().playing()) app->player().toggle();  // a still: the frame chosen below
  }
  if (request.mpc && !app->mpc().motions.empty()) {
    app->play_motion(app->mpc().motions.front());
    if (app->player().playing()) app->player().toggle();  // a still: the frame chosen below
  }
  app->player().seek_frame(frame_to_show(*app, request));
  // A few frames so auto-sized windows and the plots settle on the final data.
  for (int i = 0; i < 3; ++i)
    if (!runner->run_frame(error)) return false;
  return render::write_png(request.out, request.width, request.height, runner->read_rgba(), error);
}

}  // namespace sg::gui
