#include "gui/export/frame_capture.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "render/image_io.hpp"

namespace sg::gui {

void FrameCapture::service(int fb_width, int fb_height, ImVec2 scale) {
  if (!pending_) return;
  const CaptureRequest request = std::move(*pending_);
  pending_.reset();
  const int x0 = std::clamp(static_cast<int>(request.min.x * scale.x), 0, fb_width);
  const int y0 = std::clamp(static_cast<int>(request.min.y * scale.y), 0, fb_height);
  const int x1 = std::clamp(static_cast<int>(request.max.x * scale.x), 0, fb_width);
  const int y1 = std::clamp(static_cast<int>(request.max.y * scale.y), 0, fb_height);
  const int w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0) {
    message_ = "PNG export: empty region";
    return;
  }
  std::vector<std::uint8_t> bottom_up(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x0, fb_height - y1, w, h, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  std::vector<std::uint8_t> top_down(bottom_up.size());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h; ++y) {
    std::copy_n(bottom_up.data() + static_cast<std::size_t>(h - 1 - y) * row, row,
                top_down.data() + static_cast<std::size_t>(y) * row);
  }
  for (std::size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;  // opaque file
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(request.path).parent_path(), ec);
  std::string error;
  message_ = render::write_png(request.path, w, h, top_down, &error) ? "wrote " + request.path
                                                                     : "PNG export failed: " + error;
}

std::optional<std::string> FrameCapture::take_message() {
  auto message = std::move(message_);
  message_.reset();
  return message;
}

}  // namespace sg::gui
