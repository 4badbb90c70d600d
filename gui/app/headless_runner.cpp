#include "gui/app/headless_runner.hpp"

#include <glad/gl.h>
#include <imgui.h>

#include "render/gl_check.hpp"
#include "render/image_io.hpp"

namespace sg::gui {

std::unique_ptr<HeadlessShellRunner> HeadlessShellRunner::create(AppShell& shell, int width, int height,
                                                                 std::string* error) {
  auto context = render::HeadlessContext::create(width, height, error);
  if (!context) return nullptr;
  auto runner =
      std::unique_ptr<HeadlessShellRunner>(new HeadlessShellRunner(shell, std::move(context), width, height));
  runner->imgui_ = std::make_unique<ImGuiSession>(std::string(), shell.content_scale());
  if (!runner->imgui_->init_renderer(error)) return nullptr;
  if (!shell.attach_gl(error)) return nullptr;
  return runner;
}

HeadlessShellRunner::HeadlessShellRunner(AppShell& shell, std::unique_ptr<render::HeadlessContext> context,
                                         int width, int height)
    : shell_(shell), context_(std::move(context)), width_(width), height_(height) {}

HeadlessShellRunner::~HeadlessShellRunner() {
  context_->make_current();
  shell_.detach_gl();
  imgui_.reset();  // the OpenGL3 backend frees its objects while the context is alive
}

void HeadlessShellRunner::feed_keys() {
  ImGuiIO& io = ImGui::GetIO();
  if (held_key_ >= 0) io.KeysDown[held_key_] = false;
  held_key_ = -1;
  if (pending_key_ >= 0 && pending_key_ < static_cast<int>(IM_ARRAYSIZE(io.KeysDown))) {
    io.KeysDown[pending_key_] = true;
    held_key_ = pending_key_;
  }
  pending_key_ = -1;
}

bool HeadlessShellRunner::run_frame(std::string* error, float delta_seconds) {
  context_->make_current();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(width_), static_cast<float>(height_));
  io.DeltaTime = delta_seconds > 0.0f ? delta_seconds : 1.0f / 60.0f;
  feed_keys();
  imgui_->new_frame(shell_.settings().ui_scale);
  ImGui::NewFrame();
  shell_.frame();
  ImGui::Render();
  context_->bind_frame_target();
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  imgui_->render_draw_data();
  if (shell_.workbench().capture) shell_.workbench().capture->service();
  context_->end_frame();
  return render::check_gl("headless frame", error);
}

bool render_app_to_png(AppShell& shell, int width, int height, int frames, const std::string& png_path,
                       std::string* error) {
  auto runner = HeadlessShellRunner::create(shell, width, height, error);
  if (!runner) return false;
  // ImGui needs a couple of frames to size auto-fitting windows; never fewer than 2.
  for (int i = 0; i < std::max(frames, 2); ++i) {
    if (!runner->run_frame(error)) return false;
  }
  return render::write_png(png_path, width, height, runner->read_rgba(), error);
}

}  // namespace sg::gui
