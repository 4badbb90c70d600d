#include "gui/export/frame_capture.hpp"

#include <filesystem>
#include <system_error>

#include "gui/export/figure_png.hpp"

namespace sg::gui {

void FrameCapture::service() {
  if (!pending_) return;
  const FigureRequest request = std::move(*pending_);
  pending_.reset();
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(request.path).parent_path(), ec);
  std::string error;
  message_ =
      render_figure_in_current_context(request.figure, request.width, request.height, request.path, &error)
          ? "wrote " + request.path
          : "PNG export failed: " + error;
}

std::optional<std::string> FrameCapture::take_message() {
  auto message = std::move(message_);
  message_.reset();
  return message;
}

}  // namespace sg::gui
