#pragma once
// Playback position in a trajectory: play at real time times a speed factor, pause, step, scrub.
// Pure state and arithmetic; trajectory_player_ui draws its controls.
#include <vector>

namespace sg::gui {

class TrajectoryPlayer {
 public:
  // New output times (a new trajectory): keeps the time position, clamped.
  void set_times(const std::vector<double>& times);
  void advance(double wall_seconds);  // while playing; stops at the end
  // At the last frame, playing starts over from the first (as a media player does).
  void play() {
    if (times_.empty()) return;
    if (time_ >= times_.back()) time_ = times_.front();
    playing_ = true;
  }
  void pause() { playing_ = false; }
  void toggle() { playing_ ? pause() : play(); }
  void step(int frames);       // pauses and moves by whole output frames
  void seek_frame(int frame);  // scrub
  int frame() const;           // index of the output time shown (last t <= time)
  int frame_count() const { return static_cast<int>(times_.size()); }
  double time() const { return time_; }
  bool playing() const { return playing_; }
  float speed = 1.0f;  // simulated seconds per wall second

 private:
  std::vector<double> times_;
  double time_ = 0.0;
  bool playing_ = false;
};

}  // namespace sg::gui
