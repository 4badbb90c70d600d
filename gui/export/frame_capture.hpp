#pragma once
// PNG export from the window: a panel asks during the frame, the host services the request after ImGui has
// drawn the frame, with the GL context current: the figure is drawn anew offscreen by the GUI's plot
// renderer (the plots themselves, without the panel's buttons, as `softgrad sweep --png` draws them).
#include <optional>
#include <string>

#include "plots/plot.hpp"

namespace sg::gui {

struct FigureRequest {
  std::string path;
  plot::Figure figure;
  int width = 0, height = 0;  // pixels
};

class FrameCapture {
 public:
  void request_figure(FigureRequest request) { pending_ = std::move(request); }
  // Host side, between ImGui frames with the window's GL context current: writes the pending figure, if any.
  void service();
  // The outcome of the last export ("wrote out/x.png" or the error), taken once.
  std::optional<std::string> take_message();

 private:
  std::optional<FigureRequest> pending_;
  std::optional<std::string> message_;
};

}  // namespace sg::gui
