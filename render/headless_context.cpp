#include "render/headless_context.hpp"

#include <glad/gl.h>

#include "render/gl_loader.hpp"

namespace sg::render {

std::unique_ptr<HeadlessContext> HeadlessContext::create(int width, int height, std::string* error) {
  auto session = EglSession::create(error);
  if (!session) return nullptr;
  // The session's context is current: load the GL functions through EGL before any GL call.
  std::string load_error;
  const int version = load_gl(&EglSession::proc_address, &load_error);
  if (version == 0) {
    if (error) *error = session->platform() + ": " + load_error;
    return nullptr;
  }
  if (version < 33) {
    if (error) *error = "headless context is OpenGL " + current_gl_renderer() + ", need 3.3 core";
    return nullptr;
  }
  auto context = std::unique_ptr<HeadlessContext>(new HeadlessContext(std::move(session)));
  if (!context->resize(width, height, error)) return nullptr;
  return context;
}

HeadlessContext::HeadlessContext(std::unique_ptr<EglSession> session) : session_(std::move(session)) {}

HeadlessContext::~HeadlessContext() {
  // GL objects must go while their context is current.
  session_->make_current();
  target_.release();
}

bool HeadlessContext::make_current() {
  return session_->make_current();
}

void HeadlessContext::bind_frame_target() {
  target_.bind();
}

void HeadlessContext::end_frame() {
  glFinish();
}

std::string HeadlessContext::describe() const {
  return session_->platform() + " | " + current_gl_renderer();
}

bool HeadlessContext::resize(int width, int height, std::string* error) {
  return target_.resize(width, height, error);
}

}  // namespace sg::render
