#include "render/gl_context.hpp"

#include <glad/gl.h>

#include <cstdio>

namespace sg::render {

std::string current_gl_renderer() {
  // Before load_gl (or after a failed one) there is no glGetString to call.
  if (glGetString == nullptr) return "GL functions not loaded";
  auto text = [](GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return std::string(s ? s : "?");
  };
  return text(GL_RENDERER) + " | " + text(GL_VERSION);
}

int current_gl_version() {
  if (glGetString == nullptr) return 0;
  // "4.5 (Core Profile) Mesa 22.3.6": major.minor come first for desktop GL.
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  int major = 0, minor = 0;
  if (!version || std::sscanf(version, "%d.%d", &major, &minor) != 2) return 0;
  return major * 10 + minor;
}

}  // namespace sg::render
