#include "render/line_renderer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <utility>

namespace sg::render {

LineRenderer::LineRenderer(ShaderProgram program) : program_(std::move(program)) {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  const GLsizei stride = 7 * sizeof(float);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
}

LineRenderer::~LineRenderer() {
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (vbo_) glDeleteBuffers(1, &vbo_);
}

void LineRenderer::draw(std::span<const Line> lines, const Mat4& view_proj, float width_pixels) {
  if (lines.empty()) return;
  staging_.clear();
  for (const Line& line : lines) {
    const auto color = line_color(line);
    staging_.insert(staging_.end(), {line.from[0], line.from[1], line.from[2]});
    staging_.insert(staging_.end(), color.begin(), color.end());
    staging_.insert(staging_.end(), {line.to[0], line.to[1], line.to[2]});
    staging_.insert(staging_.end(), color.begin(), color.end());
  }
  program_.use();
  program_.set("u_view_proj", view_proj);
  // Wide lines are optional in core profile: stay within what the driver reports.
  GLfloat range[2] = {1.0f, 1.0f};
  glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
  glLineWidth(std::clamp(width_pixels, range[0], range[1]));
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(staging_.size() * sizeof(float)), staging_.data(),
               GL_STREAM_DRAW);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(lines.size() * 2));
  glBindVertexArray(0);
  glLineWidth(1.0f);
}

}  // namespace sg::render
