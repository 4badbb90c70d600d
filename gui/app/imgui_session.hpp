#pragma once
// Owns the Dear ImGui context and its OpenGL3 renderer backend (shared by window and headless hosts).
#include <string>

struct ImGuiContext;

namespace sg::gui {

class ImGuiSession {
 public:
  // ini_path empty: no imgui.ini is read or written. content_scale sizes the font and the style.
  ImGuiSession(std::string ini_path, float content_scale);
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;

  bool init_renderer(std::string* error);  // needs the current GL 3.3 context
  void new_frame();                        // renderer backend part of the frame start
  void render_draw_data();                 // draws ImGui::GetDrawData() into the bound framebuffer
  void save_layout_if_changed();           // writes the window layout when ImGui marked it changed

 private:
  std::string ini_path_;  // ImGui keeps a pointer to this string
  ImGuiContext* context_ = nullptr;
  bool renderer_ready_ = false;
};

}  // namespace sg::gui
