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
  long renders() const { return renders_; }  // 3-D passes so far

  // Renders immediately (before ImGui's own draw pass), leaving GL framebuffer 0 bound, when the scene, the
  // camera or the size changed since the last render; otherwise the last image is shown again (on a
  // software renderer the 3-D pass is the costliest part of a frame, and a running sweep redraws the window
  // a few times a second for its plots). toolbar (optional) draws one row above the image.
  void draw(const PanelRect& rect, ImGuiCond cond, const render::Scene3D& scene, render::Camera& camera,
            const std::function<void()>& toolbar = {});

 private:
  void handle_mouse(render::Camera& camera, int height) const;
  // Draws into the texture unless it already shows this scene, camera and size.
  void render_if_changed(const render::Scene3D& scene, const render::Camera& camera, int width, int height);
  std::unique_ptr<render::Renderer> renderer_;
  std::unique_ptr<render::OffscreenTarget> target_;
  // What the texture shows; rendered_ is false until the first render (and after the GL objects go).
  bool rendered_ = false;
  render::Scene3D shown_scene_;
  render::Camera shown_camera_;
  long renders_ = 0;
};

}  // namespace sg::gui
