#include "gui/app/layout.hpp"

#include <algorithm>

namespace sg::gui {

PanelLayout default_layout(ImVec2 display, float scale, float status_height) {
  const float controls_width = std::min(340.0f * scale, display.x * 0.4f);
  const float body_height = std::max(display.y - status_height, 0.0f);
  const float centre_width = std::max(display.x - controls_width, 0.0f);
  // The plots (two rows) get the larger share, and in a short window (a 720p projector) at least 480 px
  // times the scale while the viewport keeps 30%: below that a plot's data area shrinks to a few ticks.
  const float plots_wanted = 480.0f * scale;
  const float viewport_height =
      std::min(body_height * 0.42f, std::max(body_height * 0.30f, body_height - plots_wanted));
  PanelLayout layout;
  layout.controls = {{0.0f, 0.0f}, {controls_width, body_height}};
  layout.viewport = {{controls_width, 0.0f}, {centre_width, viewport_height}};
  layout.plots = {{controls_width, viewport_height}, {centre_width, body_height - viewport_height}};
  layout.status = {{0.0f, body_height}, {display.x, status_height}};
  return layout;
}

}  // namespace sg::gui
