#include "gui/app/app_shell.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "gui/app/help_overlay.hpp"
#include "gui/app/layout.hpp"
#include "gui/app/panels.hpp"

namespace sg::gui {

AppShell::AppShell(Workbench workbench, AppSettings settings)
    : workbench_(std::move(workbench)), settings_(std::move(settings)) {}

bool AppShell::attach_gl(std::string* error) {
  return viewport_.attach_gl(error);
}

void AppShell::detach_gl() {
  viewport_.detach_gl();
}

void AppShell::apply(Action action) {
  switch (action) {
    case Action::kToggleHelp:
      state_.show_help = !state_.show_help;
      break;
    case Action::kToggleFrameStats:
      state_.show_frame_stats = !state_.show_frame_stats;
      break;
    case Action::kResetLayout:
      state_.force_layout = true;
      break;
    case Action::kResetCamera:
      settings_.camera = render::Camera{};
      if (workbench_.camera_request)
        if (auto home = workbench_.camera_request(true)) settings_.camera = *home;
      break;
    case Action::kToggleGrid:
      state_.show_grid = !state_.show_grid;
      break;
    case Action::kUiScaleUp:
      settings_.ui_scale = std::min(settings_.ui_scale + 0.1f, 3.0f);
      break;
    case Action::kUiScaleDown:
      settings_.ui_scale = std::max(settings_.ui_scale - 0.1f, 0.5f);
      break;
    case Action::kQuit:
      state_.quit_requested = true;
      break;
    case Action::kCancelRun:
      // Esc closes the shortcut overview when it is open, and only that; otherwise it cancels the run.
      if (state_.show_help) {
        state_.show_help = false;
      } else if (workbench_.on_action) {
        workbench_.on_action(action);
      }
      break;
    default:
      if (workbench_.on_action) workbench_.on_action(action);
      break;
  }
}

void AppShell::fill_scene() {
  scene_.prims.clear();
  scene_.lines.clear();
  if (workbench_.fill_scene) workbench_.fill_scene(scene_);
  if (!state_.show_grid) {
    std::erase_if(scene_.prims, [](const render::Primitive& p) { return p.shape == render::Shape::kPlane; });
  }
}

void AppShell::frame() {
  for (Action action : triggered_actions(imgui_key_input())) apply(action);
  ImGuiIO& io = ImGui::GetIO();
  io.FontGlobalScale = 1.0f;  // the host's ImGuiSession rasterizes the font at the UI scale
  const PanelLayout layout =
      default_layout(io.DisplaySize, content_scale_ * settings_.ui_scale, status_bar_height());
  // A resized window re-lays the panels out, so nothing ends up off-screen or in a corner; so does a window
  // that starts at another size than the one the layout (imgui.ini) was saved in (a smaller screen, another
  // monitor: the window is fitted to the work area).
  const bool resized =
      last_display_.x > 0.0f && (io.DisplaySize.x != last_display_.x || io.DisplaySize.y != last_display_.y);
  const bool other_than_saved = last_display_.x <= 0.0f && !matches_saved_window(io.DisplaySize);
  last_display_ = io.DisplaySize;
  // A maximised plot gives the plot panel the whole window above the status bar; when it is restored the
  // panels go back to their default places.
  const bool plots_only = workbench_.plots_only && workbench_.plots_only();
  const bool leaving_plots_only = plots_only_ && !plots_only;
  plots_only_ = plots_only;
  const ImGuiCond cond = state_.force_layout || resized || other_than_saved || leaving_plots_only
                             ? ImGuiCond_Always
                             : ImGuiCond_FirstUseEver;
  state_.force_layout = false;
  if (workbench_.begin_frame) workbench_.begin_frame(io.DeltaTime);
  if (workbench_.camera_request)
    if (auto camera = workbench_.camera_request(false)) settings_.camera = *camera;
  fill_scene();
  if (plots_only) {
    const PanelRect whole{{0.0f, 0.0f}, {io.DisplaySize.x, layout.status.pos.y}};
    draw_plot_panel(whole, ImGuiCond_Always, workbench_);
  } else {
    draw_control_panel(layout.controls, cond, workbench_);
    viewport_.draw(layout.viewport, cond, scene_, settings_.camera, workbench_.draw_viewport_toolbar);
    draw_plot_panel(layout.plots, cond, workbench_);
  }
  draw_status_bar(layout.status, workbench_);
  draw_help_overlay(&state_.show_help, io.DisplaySize);
  if (state_.show_frame_stats)
    draw_frame_stats(frame_stats_, ImGui::GetTime(), redraw_mode(), io.DisplaySize);
  // A plot maximised or restored during this frame changes the next frame's layout.
  layout_pending_ = (workbench_.plots_only && workbench_.plots_only()) != plots_only_;
}

bool AppShell::matches_saved_window(ImVec2 display) const {
  return std::fabs(display.x - static_cast<float>(settings_.window_width)) <= 1.0f &&
         std::fabs(display.y - static_cast<float>(settings_.window_height)) <= 1.0f;
}

const char* AppShell::redraw_mode() const {
  if (!animating()) return "idle: on input";
  return workbench_.playing && workbench_.playing() ? "playback: up to 60 per second"
                                                    : "a job runs: 4 per second and on input";
}

}  // namespace sg::gui
