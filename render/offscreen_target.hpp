#pragma once
// A framebuffer object with an RGBA8 colour texture (shown by ImGui::Image or read back) and a depth buffer.
#include <cstdint>
#include <string>
#include <vector>

namespace sg::render {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;
  ~OffscreenTarget();

  // (Re)allocates storage when the size changes; false with a message when the FBO is incomplete.
  bool resize(int width, int height, std::string* error);
  void bind() const;  // binds the FBO and sets the viewport to its size
  static void bind_default();
  void release();

  int width() const { return width_; }
  int height() const { return height_; }
  unsigned color_texture() const { return color_; }

  // Reads the colour buffer as RGBA8, rows top to bottom (image order, not GL order).
  std::vector<std::uint8_t> read_rgba() const;

 private:
  unsigned fbo_ = 0, color_ = 0, depth_ = 0;
  int width_ = 0, height_ = 0;
};

// Reads the currently bound read framebuffer, rows top to bottom.
std::vector<std::uint8_t> read_bound_framebuffer_rgba(int width, int height);

}  // namespace sg::render
