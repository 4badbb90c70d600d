#pragma once
// The whole workbench rendered headless (EGL) into a PNG after the sweep and the trajectory finished.
#include <string>
#include <vector>

#include "gui/app/workbench_app.hpp"

namespace sg::gui {

struct ScreenshotRequest {
  std::string scene;                   // scene file; empty: the preset's, else the default scene
  std::vector<std::string> overrides;  // "path=value", after the preset's
  std::string preset;                  // Preset::name, optional
  int width = 1600, height = 1000;
  std::string out = "shot.png";
  WorkbenchOptions options;
  int timeout_seconds = 300;  // for the sweep
  double time = -1.0;         // output time shown; negative: the preset's show_time, else the last frame
  bool descend = false;       // also run gradient descent (optimize.*) and show its paths on the loss plot
  bool identify = false;      // also run the scene's identification and show the Identify tab
  bool tradeoff = false;      // also run the accuracy-against-cost study and show the Cost tab
  float ui_scale = 1.0f;      // the user's UI scale (Ctrl+- / Ctrl+=), 0.5 to 3
  bool mpc = false;  // also run the MPC tab's planners (gradient and sampling), show the tab and the first
                     // run's executed motion
  int replay_toss = -1;  // >= 0: replay this measured toss in the Identify tab and the 3-D view
  std::string tosses;  // its file; empty: the Identify tab's default (../shared/data/contactnets/tosses.csv)
};

bool render_workbench_screenshot(const ScreenshotRequest& request, std::string* error);

// "1600x1000" -> width, height; false when malformed or out of [64, 8192].
bool parse_size(const std::string& text, int* width, int* height);

}  // namespace sg::gui
