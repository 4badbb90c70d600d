#pragma once
// The 3-D viewport window: renders the scene into an offscreen texture, shows it with ImGui::Image
// and turns mouse drags over it into camera moves.
#include <functional>
#include <memory>
#include <string>

#include "gui/app/layout.hpp"
#include "render/offscreen_target.hpp"
#include "render/renderer.hpp"

namespace sg::gui {

class ViewportPanel {
 public:
  bool attach_gl(std::string* error);  // needs the current GL context
  void detach_gl();                    // before that context goes away
  bool attached() const { return renderer_ != nullptr; }

  // Renders immediately (before ImGui's own draw pass), leaving GL framebuffer 0 bound.
  // toolbar (optional) draws one row above the image.
  void draw(const PanelRect& rect, ImGuiCond cond, const render::Scene3D& scene, render::Camera& camera,
            const std::function<void()>& toolbar = {});

 private:
  void handle_mouse(render::Camera& camera, int height) const;
  std::unique_ptr<render::Renderer> renderer_;
  std::unique_ptr<render::OffscreenTarget> target_;
};

}  // namespace sg::gui
