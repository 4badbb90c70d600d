#pragma once
// The workbench window contents: control panel, 3-D viewport, plot area, status bar, F1 help.
// Knows nothing about windows or contexts: a host (GLFW loop or headless runner) drives frame().
#include <imgui.h>

#include <string>

#include "gui/app/app_settings.hpp"
#include "gui/app/frame_stats.hpp"
#include "gui/app/shortcuts.hpp"
#include "gui/app/workbench.hpp"
#include "gui/panels/viewport_panel.hpp"

namespace sg::gui {

struct ShellState {
  bool show_help = false;
  bool show_frame_stats = false;  // F3
  bool show_grid = true;
  bool force_layout = false;  // next frame places panels at their defaults, overriding imgui.ini
  bool quit_requested = false;
};

class AppShell {
 public:
  AppShell(Workbench workbench, AppSettings settings);

  bool attach_gl(std::string* error);  // with the host's GL context current
  void detach_gl();                    // before the host destroys that context
  void set_content_scale(float scale) { content_scale_ = scale > 0.0f ? scale : 1.0f; }
  float content_scale() const { return content_scale_; }

  // Builds one frame of UI; call between ImGui::NewFrame() and ImGui::Render().
  void frame();
  void apply(Action action);

  const ShellState& state() const { return state_; }
  // Whether the workbench animates (see Workbench::animating); false when it has no such hook.
  bool animating() const { return workbench_.animating && workbench_.animating(); }
  // The shortest time between two animating frames: 1/60 s for playback, kJobRedrawSeconds while a job
  // runs (its progress and new points, a few times a second: on a software-rendered display a frame costs as
  // much CPU as the job's workers would use meanwhile; input still wakes the window at once). Vsync paces a
  // real display anyway; a virtual one (Xvfb, llvmpipe) would redraw as fast as it can.
  static constexpr double kPlaybackFrameSeconds = 1.0 / 60.0;
  static constexpr double kJobRedrawSeconds = 0.25;
  double animating_frame_seconds() const {
    return workbench_.playing && workbench_.playing() ? kPlaybackFrameSeconds : kJobRedrawSeconds;
  }
  // What paces the redraws now, for the frame-time readout.
  const char* redraw_mode() const;
  FrameStats& frame_stats() { return frame_stats_; }
  const AppSettings& settings() const { return settings_; }
  AppSettings& settings() { return settings_; }
  Workbench& workbench() { return workbench_; }
  const render::Scene3D& last_scene() const { return scene_; }
  const ViewportPanel& viewport() const { return viewport_; }
  bool plots_only() const { return plots_only_; }
  // Whether the next frame lays the panels out differently (a plot was maximised or restored): the host
  // draws it even when idle.
  bool layout_pending() const { return layout_pending_; }

 private:
  void fill_scene();
  // Whether the display has the size of the window the settings (and imgui.ini's layout) were saved from.
  bool matches_saved_window(ImVec2 display) const;
  Workbench workbench_;
  AppSettings settings_;
  ShellState state_;
  ViewportPanel viewport_;
  render::Scene3D scene_;  // reused each frame to avoid reallocations
  float content_scale_ = 1.0f;
  ImVec2 last_display_{0.0f, 0.0f};
  FrameStats frame_stats_;   // the display size of the last frame, to re-layout on resize
  bool plots_only_ = false;  // last frame: a maximised plot, the plot panel filling the window
  bool layout_pending_ = false;
};

}  // namespace sg::gui
