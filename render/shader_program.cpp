#include "render/shader_program.hpp"

#include <glad/gl.h>

#include <utility>

#include "render/embedded_shaders.hpp"

namespace sg::render {

namespace {

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) glGetShaderInfoLog(shader, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) glGetProgramInfoLog(program, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// Returns 0 on failure with the driver's log in *error.
GLuint compile_stage(GLenum stage, const char* source, const std::string& label, std::string* error) {
  const GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return shader;
  if (error) *error = label + ": compile failed: " + shader_log(shader);
  glDeleteShader(shader);
  return 0;
}

}  // namespace

std::optional<ShaderProgram> ShaderProgram::build(const std::string& name, const char* vertex_src,
                                                  const char* fragment_src, std::string* error) {
  const GLuint vs = compile_stage(GL_VERTEX_SHADER, vertex_src, name + ".vert", error);
  if (vs == 0) return std::nullopt;
  const GLuint fs = compile_stage(GL_FRAGMENT_SHADER, fragment_src, name + ".frag", error);
  if (fs == 0) {
    glDeleteShader(vs);
    return std::nullopt;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    if (error) *error = name + ": link failed: " + program_log(program);
    glDeleteProgram(program);
    return std::nullopt;
  }
  return ShaderProgram(program);
}

std::optional<ShaderProgram> ShaderProgram::build_embedded(const std::string& name, std::string* error) {
  const EmbeddedShader* shader = find_embedded_shader(name);
  if (!shader) {
    if (error) *error = "no embedded shader named '" + name + "'";
    return std::nullopt;
  }
  return build(name, shader->vertex, shader->fragment, error);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : program_(std::exchange(other.program_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (program_) glDeleteProgram(program_);
    program_ = std::exchange(other.program_, 0);
  }
  return *this;
}

ShaderProgram::~ShaderProgram() {
  if (program_) glDeleteProgram(program_);
}

void ShaderProgram::use() const {
  glUseProgram(program_);
}

int ShaderProgram::location(const char* uniform) const {
  return glGetUniformLocation(program_, uniform);
}

void ShaderProgram::set(const char* uniform, const Mat4& value) const {
  glUniformMatrix4fv(location(uniform), 1, GL_FALSE, value.m.data());
}
void ShaderProgram::set(const char* uniform, const Mat3& value) const {
  glUniformMatrix3fv(location(uniform), 1, GL_FALSE, value.m.data());
}
void ShaderProgram::set(const char* uniform, const Vec3f& value) const {
  glUniform3fv(location(uniform), 1, value.data());
}
void ShaderProgram::set(const char* uniform, const Vec4f& value) const {
  glUniform4fv(location(uniform), 1, value.data());
}
void ShaderProgram::set(const char* uniform, float value) const {
  glUniform1f(location(uniform), value);
}

}  // namespace sg::render
