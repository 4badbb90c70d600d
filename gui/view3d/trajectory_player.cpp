#include "gui/view3d/trajectory_player.hpp"

#include <algorithm>

namespace sg::gui {

void TrajectoryPlayer::set_times(const std::vector<double>& times) {
  times_ = times;
  if (times_.empty()) {
    time_ = 0.0;
    playing_ = false;
    return;
  }
  time_ = std::clamp(time_, times_.front(), times_.back());
}

void TrajectoryPlayer::advance(double wall_seconds) {
  if (!playing_ || times_.empty()) return;
  time_ += wall_seconds * static_cast<double>(speed);
  if (time_ >= times_.back()) {
    time_ = times_.back();
    playing_ = false;
  }
}

int TrajectoryPlayer::frame() const {
  if (times_.empty()) return 0;
  const auto it = std::upper_bound(times_.begin(), times_.end(), time_);
  return std::max(0, static_cast<int>(it - times_.begin()) - 1);
}

void TrajectoryPlayer::seek_frame(int index) {
  if (times_.empty()) return;
  time_ = times_[static_cast<std::size_t>(std::clamp(index, 0, frame_count() - 1))];
}

void TrajectoryPlayer::step(int frames) {
  playing_ = false;
  seek_frame(frame() + frames);
}

}  // namespace sg::gui
