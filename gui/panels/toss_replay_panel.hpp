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

#include "gui/workers/toss_fit_worker.hpp"
#include "gui/workers/toss_replay_worker.hpp"
#include "plots/imgui_plot.hpp"

namespace sg::gui {

// The ContactNets tosses beside the source tree (../shared/data/contactnets/tosses.csv from the folder above
// `scenes_folder`), the field's default.
std::string default_tosses_file(const std::filesystem::path& scenes_folder);

struct TossReplayEvents {
  std::optional<std::pair<std::string, int>> replay;  // file, toss
  std::optional<TossFitRequest> fit;                  // fit the scene's numbers to the tosses
  bool cancel_fit = false;
  bool apply_fit = false;  // set the fitted values in the scene
};

class TossReplayPanel {
 public:
  explicit TossReplayPanel(std::string default_file = {});
  void set_result(const TossReplay& result);
  void set_fit(const TossFitSnapshot& fit);
  // Sets the fields as the user would (tests, presets).
  void set_request(const std::string& file, int toss);
  TossReplayEvents draw(ImVec2 size, ImVec2 top_left, bool busy);
  // The figure shown: the replay, or the fit's path.
  const plot::Figure& figure() const { return show_fit_ ? fit_figure_ : result_.figure; }

 private:
  void draw_replay_row(TossReplayEvents& events, bool busy);
  void draw_fit_row(TossReplayEvents& events);
  void draw_fit_status() const;
  char file_[1024] = {};
  int toss_ = 0;
  char wrt_[256] = "model.bodies.0.size";
  char select_[128] = "0-19";
  int steps_ = 30;
  int method_ = 0;  // 0 Levenberg-Marquardt, 1 Adam
  TossReplay result_;
  TossFitSnapshot fit_;
  plot::Figure fit_figure_;
  bool show_fit_ = false;  // the figure below: the latest of replay and fit until chosen
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(4);
  std::vector<plot::PlotViewState> fit_views_ = std::vector<plot::PlotViewState>(4);
  std::optional<std::size_t> maximised_;
};

}  // namespace sg::gui
