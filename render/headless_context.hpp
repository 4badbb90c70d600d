#pragma once
// Headless GL: an EGL context (no window) rendering into an offscreen framebuffer of a given size.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "render/egl_session.hpp"
#include "render/gl_context.hpp"
#include "render/offscreen_target.hpp"

namespace sg::render {

class HeadlessContext final : public GlContext {
 public:
  // Returns nullptr with a message (including what EGL returned) when no context can be made.
  static std::unique_ptr<HeadlessContext> create(int width, int height, std::string* error);
  ~HeadlessContext() override;

  bool make_current() override;
  int framebuffer_width() const override { return target_.width(); }
  int framebuffer_height() const override { return target_.height(); }
  void bind_frame_target() override;
  void end_frame() override;
  std::string describe() const override;

  bool resize(int width, int height, std::string* error);
  std::vector<std::uint8_t> read_rgba() const { return target_.read_rgba(); }

 private:
  explicit HeadlessContext(std::unique_ptr<EglSession> session);
  std::unique_ptr<EglSession> session_;
  OffscreenTarget target_;
};

}  // namespace sg::render
