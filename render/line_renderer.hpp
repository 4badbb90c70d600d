#pragma once
// Streams Scene3D lines into a dynamic vertex buffer and draws them as GL_LINES.
#include <span>
#include <vector>

#include "render/math3d.hpp"
#include "render/scene3d.hpp"
#include "render/shader_program.hpp"

namespace sg::render {

class LineRenderer {
 public:
  explicit LineRenderer(ShaderProgram program);
  LineRenderer(const LineRenderer&) = delete;
  LineRenderer& operator=(const LineRenderer&) = delete;
  ~LineRenderer();

  void draw(std::span<const Line> lines, const Mat4& view_proj, float width_pixels);

 private:
  ShaderProgram program_;
  unsigned vao_ = 0, vbo_ = 0;
  std::vector<float> staging_;  // reused between frames: x, y, z, r, g, b, a per vertex
};

}  // namespace sg::render
