#pragma once
// The "MPC" tab: model-predictive control through the simulator, live (DiffMJX Sec. 5.3). The researcher
// picks the planners (gradient, predictive sampling) and whether to run without Contacts From Distance too,
// runs them on a worker (Esc or Cancel stops), and watches the task's cost, the plan costs and the gradient
// norm fill in per planning step; each finished run's executed motion plays in the 3-D view. The settings are
// the scene's mpc.* keys (the Controls panel). Teaching notes say what the three ingredients do.
#include <imgui.h>

#include <memory>
#include <optional>
#include <vector>

#include "gui/export/plot_export.hpp"
#include "gui/workers/mpc_worker.hpp"
#include "plots/imgui_plot.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct MpcPanelEvents {
  std::optional<std::vector<MpcRunSpec>> run;
  bool cancel = false;
  std::optional<std::size_t> play;  // play this run's executed motion in the 3-D view
  ExportKind export_kind = ExportKind::none;
  ImVec2 export_min, export_max;
};

class MpcPanel {
 public:
  void set_problem(const std::shared_ptr<const Problem>& problem) { live_ = problem; }
  void set_snapshot(const MpcSnapshot& snapshot);
  MpcPanelEvents draw(ImVec2 size);
  bool has_maximised() const { return maximised_.has_value(); }  // a plot fills the tab
  const plot::Figure& figure() const { return figure_; }
  // The runs the checkboxes ask for, on the live scene.
  std::vector<MpcRunSpec> chosen_runs() const;

 private:
  void draw_controls(MpcPanelEvents& events);
  void draw_status() const;
  void draw_runs(MpcPanelEvents& events) const;
  std::shared_ptr<const Problem> live_;
  bool gradient_ = true, sampling_ = true, without_cfd_ = false;
  MpcSnapshot snapshot_;
  plot::Figure figure_;
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(4);
  std::optional<std::size_t> maximised_;  // the plot filling the tab, if any
};

// Why the live scene cannot be planned (empty when it can): not a joint tree, or no actuators.
std::string mpc_unavailable(const Problem& problem);

}  // namespace sg::gui
