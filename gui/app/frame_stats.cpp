#include "gui/app/frame_stats.hpp"

#include <algorithm>

namespace sg::gui {

void FrameStats::record(double now, double seconds) {
  ends_[next_] = now;
  costs_[next_] = seconds;
  next_ = (next_ + 1) % kKept;
  count_ = std::min(count_ + 1, kKept);
  last_seconds_ = seconds;
  slowest_seconds_ = 0.0;
  for (int i = 0; i < count_; ++i) slowest_seconds_ = std::max(slowest_seconds_, costs_[i]);
}

int FrameStats::redraws_in_last_second(double now) const {
  int n = 0;
  for (int i = 0; i < count_; ++i) n += ends_[i] > now - 1.0 && ends_[i] <= now;
  return n;
}

void draw_frame_stats(const FrameStats& stats, double now, const char* mode, ImVec2 display) {
  const float pad = 8.0f;
  ImGui::SetNextWindowPos(ImVec2(display.x - pad, pad + 24.0f), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.75f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("Frame stats", nullptr, flags)) {
    ImGui::Text("%d redraws in the last second (%s)", stats.redraws_in_last_second(now), mode);
    ImGui::Text("frame %.1f ms, slowest of the last 128: %.1f ms", stats.last_frame_ms(),
                stats.slowest_frame_ms());
    ImGui::TextDisabled("F3 hides this");
  }
  ImGui::End();
}

}  // namespace sg::gui
