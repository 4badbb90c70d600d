#include "render/offscreen_target.hpp"

#include <glad/gl.h>

#include <algorithm>

namespace sg::render {

OffscreenTarget::~OffscreenTarget() {
  release();
}

void OffscreenTarget::release() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (color_) glDeleteTextures(1, &color_);
  if (depth_) glDeleteRenderbuffers(1, &depth_);
  fbo_ = color_ = depth_ = 0;
  width_ = height_ = 0;
}

bool OffscreenTarget::resize(int width, int height, std::string* error) {
  if (width <= 0 || height <= 0) {
    if (error) *error = "offscreen target needs a positive size";
    return false;
  }
  if (fbo_ && width == width_ && height == height_) return true;
  release();
  glGenTextures(1, &color_);
  glBindTexture(GL_TEXTURE_2D, color_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenRenderbuffers(1, &depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_, 0);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    if (error) *error = "framebuffer incomplete, status 0x" + std::to_string(status);
    release();
    return false;
  }
  width_ = width;
  height_ = height;
  return true;
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_, height_);
}

void OffscreenTarget::bind_default() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

std::vector<std::uint8_t> OffscreenTarget::read_rgba() const {
  GLint previous = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  auto pixels = read_bound_framebuffer_rgba(width_, height_);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous));
  return pixels;
}

std::vector<std::uint8_t> read_bound_framebuffer_rgba(int width, int height) {
  const auto row_bytes = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> pixels(row_bytes * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's origin is bottom-left; images are stored top row first.
  for (int y = 0; y < height / 2; ++y) {
    auto top = pixels.begin() + static_cast<std::ptrdiff_t>(row_bytes) * y;
    auto bottom = pixels.begin() + static_cast<std::ptrdiff_t>(row_bytes) * (height - 1 - y);
    std::swap_ranges(top, top + static_cast<std::ptrdiff_t>(row_bytes), bottom);
  }
  return pixels;
}

}  // namespace sg::render
