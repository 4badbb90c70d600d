#pragma once
// Interactive GL: a GLFW window with a GL 3.3 core context, drawn into its default framebuffer.
#include <memory>
#include <string>

#include "render/gl_context.hpp"

struct GLFWwindow;

namespace sg::render {

class GlfwWindowContext final : public GlContext {
 public:
  // Initializes GLFW if needed. Returns nullptr with GLFW's error text when no display is available.
  static std::unique_ptr<GlfwWindowContext> create(int width, int height, const char* title,
                                                   std::string* error);
  ~GlfwWindowContext() override;

  bool make_current() override;
  int framebuffer_width() const override;
  int framebuffer_height() const override;
  void bind_frame_target() override;
  void end_frame() override;
  std::string describe() const override;

  GLFWwindow* window() const { return window_; }
  float content_scale() const;  // monitor content scale (1 on standard DPI, 2 on HiDPI)
  bool should_close() const;
  void request_close();

 private:
  explicit GlfwWindowContext(GLFWwindow* window) : window_(window) {}
  GLFWwindow* window_;
};

}  // namespace sg::render
