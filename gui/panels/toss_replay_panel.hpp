#pragma once
// "Measured tosses" in the Identify tab: a toss file (the ContactNets format, engine/measured/toss_data.hpp)
// and a toss number; Replay runs the live scene from the toss's first measured frame (TossReplayWorker) and
// shows the measurement against the simulation: the figure here, the simulated body in the 3-D view with
// the measured one as a translucent copy beside it.
#include <imgui.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gui/workers/toss_replay_worker.hpp"
#include "plots/imgui_plot.hpp"

namespace sg::gui {

// The ContactNets tosses beside the source tree (../shared/data/contactnets/tosses.csv from the folder above
// `scenes_folder`), the field's default.
std::string default_tosses_file(const std::filesystem::path& scenes_folder);

struct TossReplayEvents {
  std::optional<std::pair<std::string, int>> replay;  // file, toss
};

class TossReplayPanel {
 public:
  explicit TossReplayPanel(std::string default_file = {});
  void set_result(const TossReplay& result);
  // Sets the fields as the user would (tests, presets).
  void set_request(const std::string& file, int toss);
  TossReplayEvents draw(ImVec2 size, ImVec2 top_left, bool busy);
  const plot::Figure& figure() const { return result_.figure; }

 private:
  char file_[1024] = {};
  int toss_ = 0;
  TossReplay result_;
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(4);
  std::optional<std::size_t> maximised_;
};

}  // namespace sg::gui
