#include "gui/panels/viewport_panel.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cstdint>

#include "gui/app/panel_names.hpp"

namespace sg::gui {

bool ViewportPanel::attach_gl(std::string* error) {
  renderer_ = render::Renderer::create(error);
  target_ = std::make_unique<render::OffscreenTarget>();
  return renderer_ != nullptr;
}

void ViewportPanel::detach_gl() {
  renderer_.reset();
  target_.reset();
  rendered_ = false;
}

void ViewportPanel::render_if_changed(const render::Scene3D& scene, const render::Camera& camera, int width,
                                      int height) {
  const bool same_size = target_->width() == width && target_->height() == height;
  if (rendered_ && same_size && camera == shown_camera_ && scene == shown_scene_) return;
  if (!target_->resize(width, height, nullptr)) {
    rendered_ = false;
    return;
  }
  target_->bind();
  renderer_->draw(scene, camera, width, height);
  render::OffscreenTarget::bind_default();
  shown_scene_ = scene;
  shown_camera_ = camera;
  rendered_ = true;
  ++renders_;
}

void ViewportPanel::draw(const PanelRect& rect, ImGuiCond cond, const render::Scene3D& scene,
                         render::Camera& camera, const std::function<void()>& toolbar) {
  ImGui::SetNextWindowPos(rect.pos, cond);
  ImGui::SetNextWindowSize(rect.size, cond);
  // No padding and no background: the 3-D image covers the whole client area (saves a fill on llvmpipe).
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
  const bool visible = ImGui::Begin(k_viewport_window, nullptr,
                                    ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoScrollbar |
                                        ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar();
  if (visible && toolbar) {
    // The toolbar keeps the usual padding and background; the image below still has none.
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float row = ImGui::GetFrameHeight() + 2.0f * style.WindowPadding.y;
    ImGui::GetWindowDrawList()->AddRectFilled(
        start, ImVec2(start.x + ImGui::GetContentRegionAvail().x, start.y + row),
        ImGui::GetColorU32(ImGuiCol_WindowBg));
    ImGui::SetCursorScreenPos(ImVec2(start.x + style.WindowPadding.x, start.y + style.WindowPadding.y));
    toolbar();
    ImGui::SetCursorScreenPos(ImVec2(start.x, start.y + row));
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int width = std::max(1, static_cast<int>(avail.x));
  const int height = std::max(1, static_cast<int>(avail.y));
  if (visible && renderer_) render_if_changed(scene, camera, width, height);
  if (visible && renderer_ && rendered_) {
    // An invisible button owns the mouse over the image so drags move the camera, not the window.
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(static_cast<float>(width), static_cast<float>(height));
    ImGui::InvisibleButton("##viewport_input", size,
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                               ImGuiButtonFlags_MouseButtonMiddle);
    const auto texture = static_cast<std::intptr_t>(target_->color_texture());
    // GL textures start at the bottom row: flip v.
    ImGui::GetWindowDrawList()->AddImage(reinterpret_cast<ImTextureID>(texture), origin,
                                         ImVec2(origin.x + size.x, origin.y + size.y), ImVec2(0, 1),
                                         ImVec2(1, 0));
    handle_mouse(camera, height);
  } else if (visible) {
    ImGui::TextDisabled("3-D view unavailable (no GL renderer).");
  }
  ImGui::End();
}

void ViewportPanel::handle_mouse(render::Camera& camera, int height) const {
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemHovered() && io.MouseWheel != 0.0f) camera_zoom(camera, io.MouseWheel);
  if (!ImGui::IsItemActive()) return;
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) camera_orbit(camera, io.MouseDelta.x, io.MouseDelta.y);
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) || ImGui::IsMouseDragging(ImGuiMouseButton_Middle)) {
    camera_pan(camera, io.MouseDelta.x, io.MouseDelta.y, height);
  }
}

}  // namespace sg::gui
