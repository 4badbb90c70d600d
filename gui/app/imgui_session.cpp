#include "gui/app/imgui_session.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "gui/document/atomic_file.hpp"

namespace sg::gui {

ImGuiSession::ImGuiSession(std::string ini_path, float content_scale) : ini_path_(std::move(ini_path)) {
  IMGUI_CHECKVERSION();
  context_ = ImGui::CreateContext();
  // CreateContext keeps an existing context current (a figure exported from the running workbench makes a
  // second session): everything below sets up the new one.
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  // ImGui's own ini writer replaces links and leaves torn files on a full disk; the layout goes through the
  // same atomic writer as every other file instead.
  io.IniFilename = nullptr;
  std::string ini, error;
  if (!ini_path_.empty() && read_file(ini_path_, &ini, &error))
    ImGui::LoadIniSettingsFromMemory(ini.data(), ini.size());
  ImGui::StyleColorsDark();
  // Rasterize the font at the monitor's scale (crisp text) rather than stretching a 13 px atlas.
  content_scale_ = content_scale > 0.0f ? content_scale : 1.0f;
  build_font(std::round(13.0f * content_scale_));
  ImGui::GetStyle().ScaleAllSizes(content_scale_);
}

void ImGuiSession::build_font(float size_pixels) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig font;
  font.SizePixels = size_pixels;
  io.Fonts->AddFontDefault(&font);
  font_pixels_ = size_pixels;
}

ImGuiSession::~ImGuiSession() {
  ImGui::SetCurrentContext(context_);
  ImGui::GetIO().WantSaveIniSettings = true;
  save_layout_if_changed();
  if (renderer_ready_) ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(context_);
}

bool ImGuiSession::init_renderer(std::string* error) {
  renderer_ready_ = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!renderer_ready_ && error) *error = "Dear ImGui OpenGL3 backend failed to initialize";
  return renderer_ready_;
}

void ImGuiSession::new_frame(float text_scale) {
  const float pixels = std::max(6.0f, std::round(13.0f * content_scale_ * text_scale));
  if (pixels != font_pixels_) {  // between frames: the atlas and its texture are rebuilt at the new size
    build_font(pixels);
    if (renderer_ready_) {
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
    }
  }
  ImGui_ImplOpenGL3_NewFrame();
}

void ImGuiSession::render_draw_data() {
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  save_layout_if_changed();
}

void ImGuiSession::save_layout_if_changed() {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantSaveIniSettings || ini_path_.empty()) return;
  io.WantSaveIniSettings = false;
  std::size_t size = 0;
  const char* ini = ImGui::SaveIniSettingsToMemory(&size);
  std::string error;
  write_file_atomic(ini_path_, std::string(ini, size), &error);  // a failed save keeps the old layout file
}

}  // namespace sg::gui
