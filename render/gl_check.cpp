#include "render/gl_check.hpp"

#include <glad/gl.h>

namespace sg::render {

namespace {
std::string gl_error_name(GLenum code) {
  switch (code) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error 0x" + std::to_string(code);
  }
}
}  // namespace

std::vector<std::string> take_gl_errors() {
  std::vector<std::string> errors;
  // Bounded: a lost context may report errors forever.
  for (int i = 0; i < 32; ++i) {
    const GLenum code = glGetError();
    if (code == GL_NO_ERROR) break;
    errors.push_back(gl_error_name(code));
  }
  return errors;
}

bool check_gl(const char* where, std::string* error) {
  const std::vector<std::string> errors = take_gl_errors();
  if (errors.empty()) return true;
  if (error) {
    *error = std::string(where) + ":";
    for (const std::string& e : errors) *error += " " + e;
  }
  return false;
}

}  // namespace sg::render
