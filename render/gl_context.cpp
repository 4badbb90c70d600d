#include "render/gl_context.hpp"

#include <epoxy/gl.h>

namespace sg::render {

std::string current_gl_renderer() {
  auto text = [](GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return std::string(s ? s : "?");
  };
  return text(GL_RENDERER) + " | " + text(GL_VERSION);
}

int current_gl_version() {
  return epoxy_gl_version();
}

}  // namespace sg::render
