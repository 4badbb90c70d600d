#pragma once
// What the app shell shows, supplied as hooks so the shell stays free of physics. The research
// workbench (workbench_app.hpp) fills them from the engine; make_demo_workbench() is a stand-in for tests.
#include <imgui.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gui/app/shortcuts.hpp"
#include "gui/export/frame_capture.hpp"
#include "render/camera.hpp"
#include "render/scene3d.hpp"

namespace sg::gui {

struct StatusInfo {
  std::string text;
  float progress = -1.0f;  // in [0, 1]; negative hides the progress bar
};

struct Workbench {
  std::function<void()> draw_controls;                     // body of the left control panel
  std::function<void(ImVec2 size)> draw_plots;             // body of the plot area, given its free size
  std::function<void(render::Scene3D& scene)> fill_scene;  // 3-D content of this frame (scene starts empty)
  std::function<StatusInfo()> status;                      // status bar text and progress
  // Optional hooks.
  std::function<void(float delta_seconds)> begin_frame;  // before any panel of the frame is drawn
  std::function<void()> draw_viewport_toolbar;           // a row above the 3-D image (e.g. playback)
  std::function<void(Action action)> on_action;          // shortcuts the shell does not handle itself
  std::shared_ptr<FrameCapture> capture;                 // PNG exports, serviced by the host
  // Polled every frame with home = false: a camera to switch to once (e.g. fitted to a scene just opened).
  // With home = true (the Home key): the camera to reset to; nullopt keeps the default camera.
  std::function<std::optional<render::Camera>(bool home)> camera_request;
  // Whether the next frames change without input (a job runs, playback): the host then redraws
  // continuously; otherwise it sleeps until an event (or a short timeout) so an idle window costs no CPU.
  std::function<bool()> animating;
  // Whether what animates moves on screen (playback): drawn at up to 60 frames a second, a job's progress
  // alone 4 times a second.
  std::function<bool()> playing;
  // Whether the camera is fitted to bodies (a rigid scene or a joint tree), saved with it: a particle scene
  // opened next time then starts from its own view instead of a camera framed on centimetre-sized bodies.
  std::function<bool()> camera_fits_bodies;
  // Whether a plot is maximised: the plot panel then fills the window above the status bar (the controls and
  // the 3-D view step aside), for a projector.
  std::function<bool()> plots_only;
  // A file dropped on the window (a scene, or a MuJoCo model): opened as the Open button would open it,
  // after asking when the controls hold edits.
  std::function<void(const std::string& file)> open_dropped;
};

}  // namespace sg::gui
