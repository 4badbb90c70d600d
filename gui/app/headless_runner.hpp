#pragma once
// Runs the full app shell without a display: EGL context, offscreen framebuffer, ImGui's OpenGL3
// backend with no platform backend (display size, time step and keys are set here).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gui/app/app_shell.hpp"
#include "gui/app/imgui_session.hpp"
#include "render/headless_context.hpp"

namespace sg::gui {

class HeadlessShellRunner {
 public:
  // Attaches shell to a new headless context; nullptr with a message when GL is unavailable.
  static std::unique_ptr<HeadlessShellRunner> create(AppShell& shell, int width, int height,
                                                     std::string* error);
  ~HeadlessShellRunner();  // detaches the shell's GL resources before the context goes
  HeadlessShellRunner(const HeadlessShellRunner&) = delete;
  HeadlessShellRunner& operator=(const HeadlessShellRunner&) = delete;

  // One full frame (UI build, 3-D view, ImGui draw, glFinish). False on GL errors.
  bool run_frame(std::string* error, float delta_seconds = 1.0f / 60.0f);
  // Holds a key down for the next frame (GLFW key code), released on the frame after.
  void press_key(int glfw_key) { pending_key_ = glfw_key; }
  std::vector<std::uint8_t> read_rgba() const { return context_->read_rgba(); }
  int width() const { return width_; }
  int height() const { return height_; }
  std::string describe() const { return context_->describe(); }

 private:
  HeadlessShellRunner(AppShell& shell, std::unique_ptr<render::HeadlessContext> context, int width,
                      int height);
  void feed_keys();
  AppShell& shell_;
  std::unique_ptr<render::HeadlessContext> context_;
  std::unique_ptr<ImGuiSession> imgui_;
  int width_, height_;
  int pending_key_ = -1, held_key_ = -1;
};

// Runs `frames` frames of the whole UI at width x height and writes the last one to png_path.
bool render_app_to_png(AppShell& shell, int width, int height, int frames, const std::string& png_path,
                       std::string* error);

}  // namespace sg::gui
