#pragma once
// PNG export of part of the window: a panel asks for a capture during the frame, the host reads the
// framebuffer back after ImGui has drawn it (the only moment the pixels exist).
#include <imgui.h>

#include <mutex>
#include <optional>
#include <string>

namespace sg::gui {

struct CaptureRequest {
  std::string path;
  ImVec2 min, max;  // in ImGui display coordinates
};

class FrameCapture {
 public:
  void request(CaptureRequest request) { pending_ = std::move(request); }
  // Host side, with the drawn framebuffer bound: writes the pending capture, if any. `scale` maps display
  // coordinates to framebuffer pixels (io.DisplayFramebufferScale).
  void service(int framebuffer_width, int framebuffer_height, ImVec2 scale);
  // The outcome of the last capture ("wrote out/x.png" or the error), taken once.
  std::optional<std::string> take_message();

 private:
  std::optional<CaptureRequest> pending_;
  std::optional<std::string> message_;
};

}  // namespace sg::gui
