#pragma once
// What the app shell shows, supplied as hooks so the shell stays free of physics. The next step
// fills these from the simulation; make_demo_workbench() (demo_workbench.hpp) is the stand-in.
#include <imgui.h>

#include <functional>
#include <string>

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
};

}  // namespace sg::gui
