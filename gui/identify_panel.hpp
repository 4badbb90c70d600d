#pragma once
// The "Identify" tab: the scene's identification (identify.*: the numbers to fit, their start values, the
// measurement noise) run on a worker, with the fit's error and each number's distance to the truth plotted
// per iteration and a table of truth, start and current values; with identify.profile, each number's
// profile-likelihood interval in the table and its profile t-plot in place of the fit's figure.
#include <imgui.h>

#include <memory>
#include <string>
#include <vector>

#include "gui/identify_worker.hpp"
#include "gui/plot_export.hpp"
#include "plots/imgui_plot.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct IdentifyPanelEvents {
  bool run = false;  // the user asked for a fit of the live scene
  bool cancel = false;
  ExportKind export_kind = ExportKind::none;  // of figure(): the fit's plots or the profiles
  ImVec2 export_min, export_max;              // the tab's on-screen region, for a PNG export
};

class IdentifyPanel {
 public:
  void set_problem(const std::shared_ptr<const Problem>& problem) { live_ = problem; }
  void set_snapshot(const IdentifySnapshot& snapshot);
  IdentifyPanelEvents draw(ImVec2 size);
  // The figure drawn below the table: the fit's path, or the profiles once there are some (and chosen).
  const plot::Figure& figure() const { return has_profile() && show_profiles_ ? profile_figure_ : figure_; }

 private:
  void draw_status();
  void draw_table();
  void draw_interval(std::size_t j) const;
  std::string correlation_text(std::size_t j) const;
  bool has_profile() const;
  std::shared_ptr<const Problem> live_;
  IdentifySnapshot snapshot_;
  plot::Figure figure_, profile_figure_;
  int show_profiles_ = 1;  // the row below the table, once there are profiles: 0 the fit's figure, 1 theirs
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(2);
  std::vector<plot::PlotViewState> profile_views_;
};

}  // namespace sg::gui
