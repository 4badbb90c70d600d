#pragma once
// The frame-time readout (F3): how often the window redraws and what a frame costs, so that the redraw policy
// (docs/gui.md, "Redraws") can be seen at work: idle waits for input, a running job redraws a few times a
// second, playback at up to 60 frames a second.
#include <imgui.h>

namespace sg::gui {

class FrameStats {
 public:
  // A frame ended at time `now` (seconds, any steady clock) after taking `seconds` to build and draw.
  void record(double now, double seconds);
  // Frames that ended in the second before `now`.
  int redraws_in_last_second(double now) const;
  double last_frame_ms() const { return 1e3 * last_seconds_; }
  double slowest_frame_ms() const { return 1e3 * slowest_seconds_; }  // over the frames kept

 private:
  static constexpr int kKept = 128;
  double ends_[kKept] = {};
  double costs_[kKept] = {};
  int count_ = 0, next_ = 0;
  double last_seconds_ = 0.0, slowest_seconds_ = 0.0;
};

// A small window in the top right corner: redraws per second, last and slowest frame, and `mode` (what paces
// the redraws now).
void draw_frame_stats(const FrameStats& stats, double now, const char* mode, ImVec2 display);

}  // namespace sg::gui
