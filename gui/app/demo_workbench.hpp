#pragma once
// Demo content until the physics is wired in: every primitive shape on a grid, with sample lines.
#include "gui/app/workbench.hpp"
#include "render/scene3d.hpp"

namespace sg::gui {

struct DemoOptions {
  int variant = 0;  // 0 or 1: different colours and placement (lets tests see content changes)
  bool show_lines = true;
};

render::Scene3D demo_scene(const DemoOptions& options);
Workbench make_demo_workbench(DemoOptions options = {});

}  // namespace sg::gui
