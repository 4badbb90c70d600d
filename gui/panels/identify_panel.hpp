#pragma once
// The "Identify" tab: the scene's identification (identify.*: the numbers to fit, their start values, the
// measurement noise) run on a worker, with the fit's error and each number's distance to the truth plotted
// per iteration and a table of truth, start and current values; with identify.profile, each number's
// profile-likelihood interval in the table and its profile t-plot in place of the fit's figure; with
// identify.bootstrap, each number's bootstrap interval and the histogram of its draws.
#include <imgui.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/export/plot_export.hpp"
#include "gui/workers/identify_worker.hpp"
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
  bool has_maximised() const { return maximised_.has_value(); }  // a plot fills the tab
  // The figure drawn below the table: the fit's path, the profiles or the bootstrap's histograms (the
  // chosen one, once there is one).
  const plot::Figure& figure() const;

 private:
  enum View : int { fit_view = 0, profile_view = 1, bootstrap_view = 2 };
  void draw_status();
  void status_text(char* text, std::size_t size) const;
  void draw_table();
  void draw_interval(std::size_t j) const;
  void draw_bootstrap_interval(std::size_t j) const;
  void draw_view_choice();
  std::string correlation_text(std::size_t j) const;
  bool has_profile() const;
  bool has_bootstrap() const { return !snapshot_.steps.empty() && !snapshot_.bootstrap.draws.empty(); }
  View shown() const;  // view_, or the next one there is a figure for
  std::shared_ptr<const Problem> live_;
  IdentifySnapshot snapshot_;
  plot::Figure figure_, profile_figure_, bootstrap_figure_;
  int view_ = bootstrap_view;  // the row below the table: the latest analysis until one is chosen
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(2);
  std::optional<std::size_t> maximised_;  // the plot filling the tab, if any
  std::vector<plot::PlotViewState> profile_views_, bootstrap_views_;
};

}  // namespace sg::gui
