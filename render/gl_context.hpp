#pragma once
// An OpenGL 3.3 core context plus the framebuffer a frame is drawn into. Two implementations:
// GlfwWindowContext (interactive window) and HeadlessContext (EGL, offscreen framebuffer).
#include <string>

namespace sg::render {

class GlContext {
 public:
  virtual ~GlContext() = default;
  virtual bool make_current() = 0;
  virtual int framebuffer_width() const = 0;
  virtual int framebuffer_height() const = 0;
  // Binds the framebuffer that ends up on screen (or in the screenshot).
  virtual void bind_frame_target() = 0;
  // Window: swap buffers. Headless: wait until rendering finished.
  virtual void end_frame() = 0;
  // Human-readable backend and GL renderer, e.g. "EGL surfaceless | llvmpipe | 4.5 (Core Profile)".
  virtual std::string describe() const = 0;
};

// GL_RENDERER and GL_VERSION of the current context (for describe()).
std::string current_gl_renderer();
// Major * 10 + minor of the current context, e.g. 45 (parsed from GL_VERSION); 0 when GL is not loaded.
int current_gl_version();

}  // namespace sg::render
