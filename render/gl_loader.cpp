#include "render/gl_loader.hpp"

#include <glad/gl.h>

#include <mutex>

namespace sg::render {

int load_gl(GlProcLoader loader, std::string* error) {
  if (!loader) {
    if (error) *error = "OpenGL loader (glad): no function to look GL entry points up with";
    return 0;
  }
  // The function pointers are process-wide globals: two contexts created on two threads must not write them
  // at the same time. (Under libglvnd, GLX, EGL and GLFW all hand out the same dispatching entry points.)
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  const int version = gladLoadGL(loader);
  if (version == 0) {
    if (error) {
      *error =
          glad_glGetString == nullptr
              ? "OpenGL loader (glad): glGetString not found, the GL library offers no usable entry points"
              : "OpenGL loader (glad): the current context reports no GL_VERSION or extension list";
    }
    return 0;
  }
  return GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version);
}

}  // namespace sg::render
