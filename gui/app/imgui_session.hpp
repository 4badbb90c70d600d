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
  // The renderer backend part of the frame start. text_scale (the user's UI scale) sizes the text: the font
  // atlas is rasterized at 13 px x content scale x text_scale (rebuilt when that changes), so that thin
  // strokes such as the minus sign stay whole; a stretched 13 px atlas drops them below 1 px.
  void new_frame(float text_scale = 1.0f);
  void render_draw_data();        // draws ImGui::GetDrawData() into the bound framebuffer
  void save_layout_if_changed();  // writes the window layout when ImGui marked it changed

 private:
  void build_font(float size_pixels);
  std::string ini_path_;  // ImGui keeps a pointer to this string
  ImGuiContext* context_ = nullptr;
  bool renderer_ready_ = false;
  float content_scale_ = 1.0f;
  float font_pixels_ = 0.0f;  // the atlas's font size
};

}  // namespace sg::gui
