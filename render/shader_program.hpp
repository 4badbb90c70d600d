#pragma once
// A linked GLSL program with readable compile/link errors and cached uniform setters.
#include <optional>
#include <string>

#include "render/math3d.hpp"

namespace sg::render {

class ShaderProgram {
 public:
  // Compiles and links; on failure returns nullopt and writes "<name>.vert: <driver log>" into *error.
  static std::optional<ShaderProgram> build(const std::string& name, const char* vertex_src,
                                            const char* fragment_src, std::string* error);
  // Builds the embedded pair shaders/<name>.vert + .frag.
  static std::optional<ShaderProgram> build_embedded(const std::string& name, std::string* error);

  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  ~ShaderProgram();

  void use() const;
  unsigned id() const { return program_; }
  void set(const char* uniform, const Mat4& value) const;
  void set(const char* uniform, const Mat3& value) const;
  void set(const char* uniform, const Vec3f& value) const;
  void set(const char* uniform, const Vec4f& value) const;
  void set(const char* uniform, float value) const;

 private:
  explicit ShaderProgram(unsigned program) : program_(program) {}
  int location(const char* uniform) const;
  unsigned program_ = 0;
};

}  // namespace sg::render
