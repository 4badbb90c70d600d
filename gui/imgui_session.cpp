#include "gui/imgui_session.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <utility>

namespace sg::gui {

ImGuiSession::ImGuiSession(std::string ini_path, float content_scale) : ini_path_(std::move(ini_path)) {
  IMGUI_CHECKVERSION();
  context_ = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
  ImGui::StyleColorsDark();
  // Rasterize the font at the monitor's scale (crisp text) rather than stretching a 13 px atlas.
  const float scale = content_scale > 0.0f ? content_scale : 1.0f;
  ImFontConfig font;
  font.SizePixels = 13.0f * scale;
  io.Fonts->AddFontDefault(&font);
  ImGui::GetStyle().ScaleAllSizes(scale);
}

ImGuiSession::~ImGuiSession() {
  ImGui::SetCurrentContext(context_);
  if (renderer_ready_) ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext(context_);
}

bool ImGuiSession::init_renderer(std::string* error) {
  renderer_ready_ = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!renderer_ready_ && error) *error = "Dear ImGui OpenGL3 backend failed to initialize";
  return renderer_ready_;
}

void ImGuiSession::new_frame() {
  ImGui_ImplOpenGL3_NewFrame();
}

void ImGuiSession::render_draw_data() {
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace sg::gui
