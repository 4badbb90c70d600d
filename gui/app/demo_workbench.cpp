#include "gui/app/demo_workbench.hpp"

#include <cmath>
#include <memory>
#include <vector>

namespace sg::gui {

namespace {

render::Primitive make_prim(render::Shape shape, float x, float y, float z, std::array<float, 3> size,
                            std::array<float, 4> color) {
  render::Primitive prim;
  prim.shape = shape;
  prim.pos[0] = x;
  prim.pos[1] = y;
  prim.pos[2] = z;
  for (int i = 0; i < 3; ++i) prim.size[i] = size[i];
  for (int i = 0; i < 4; ++i) prim.color[i] = color[i];
  return prim;
}

void add_sample_lines(render::Scene3D& scene, float y) {
  for (float x : {-3.0f, -1.5f, 0.0f, 1.5f, 3.0f}) {
    render::Line normal;
    normal.kind = render::LineKind::kContactNormal;
    normal.from[0] = normal.to[0] = x;
    normal.from[1] = normal.to[1] = y + 0.7f;
    normal.to[2] = 0.6f;
    scene.lines.push_back(normal);
    render::Line force = normal;
    force.kind = render::LineKind::kVirtualForce;
    force.to[0] = x + 0.4f;
    force.to[2] = 0.3f;
    scene.lines.push_back(force);
  }
  std::vector<std::array<float, 3>> trail;
  for (int i = 0; i <= 64; ++i) {
    const float t = static_cast<float>(i) / 64.0f;
    trail.push_back(
        {-3.0f + 6.0f * t, y - 1.2f, 0.2f + 1.2f * std::abs(std::sin(3.0f * t * 3.14159f)) * (1 - t)});
  }
  render::append_polyline(scene, trail, render::LineKind::kTrail);
}

}  // namespace

render::Scene3D demo_scene(const DemoOptions& options) {
  using render::Shape;
  const bool alt = options.variant % 2 == 1;
  const float y = alt ? 1.0f : 0.0f;
  const std::array<float, 4> warm{0.9f, 0.45f, 0.2f, 1.0f}, cool{0.25f, 0.5f, 0.95f, 1.0f};
  const auto a = alt ? cool : warm;
  const auto b = alt ? warm : cool;
  render::Scene3D scene;
  scene.prims.push_back(make_prim(Shape::kPlane, 0, 0, 0, {6.0f, 6.0f, 0.5f}, {0.2f, 0.21f, 0.24f, 1.0f}));
  scene.prims.push_back(make_prim(Shape::kSphere, -3.0f, y, 0.5f, {0.5f, 0, 0}, a));
  scene.prims.push_back(make_prim(Shape::kCapsule, -1.5f, y, 0.7f, {0.3f, 0.4f, 0}, b));
  scene.prims.push_back(make_prim(Shape::kBox, 0.0f, y, 0.4f, {0.4f, 0.4f, 0.4f}, a));
  scene.prims.push_back(make_prim(Shape::kCylinder, 1.5f, y, 0.5f, {0.35f, 0.5f, 0}, b));
  scene.prims.push_back(make_prim(Shape::kEllipsoid, 3.0f, y, 0.35f, {0.6f, 0.35f, 0.35f}, a));
  if (options.show_lines) add_sample_lines(scene, y);
  return scene;
}

Workbench make_demo_workbench(DemoOptions options) {
  auto state = std::make_shared<DemoOptions>(options);
  Workbench workbench;
  workbench.draw_controls = [state] {
    ImGui::TextWrapped("Demo content: the physics is not wired in yet.");
    ImGui::Separator();
    ImGui::Checkbox("Show contact and force lines", &state->show_lines);
    ImGui::RadioButton("Warm palette", &state->variant, 0);
    ImGui::RadioButton("Cool palette", &state->variant, 1);
  };
  workbench.fill_scene = [state](render::Scene3D& scene) { scene = demo_scene(*state); };
  workbench.draw_plots = [](ImVec2 size) {
    ImGui::TextDisabled("Plots appear here (%.0f x %.0f px free).", size.x, size.y);
  };
  workbench.status = [state] {
    return StatusInfo{"Demo scene, palette " + std::to_string(state->variant), 1.0f};
  };
  return workbench;
}

}  // namespace sg::gui
