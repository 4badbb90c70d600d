#pragma once
// Default panel placement: controls on the left, 3-D viewport centre top, plots centre bottom,
// status bar along the bottom edge. Pure arithmetic so it can be tested without a window.
#include <imgui.h>

namespace sg::gui {

struct PanelRect {
  ImVec2 pos;
  ImVec2 size;
};

struct PanelLayout {
  PanelRect controls, viewport, plots, status;
};

// scale: effective UI scale (content scale * user scale); status_height: the status bar height in pixels.
PanelLayout default_layout(ImVec2 display, float scale, float status_height);

}  // namespace sg::gui
