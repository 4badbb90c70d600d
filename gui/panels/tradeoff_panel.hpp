#pragma once
// The "Cost" tab: accuracy against cost of the integrators at one value of the sweep parameter (DiffMJX
// Fig. S6). The researcher picks the value (the clicked sweep point, or any) and the method families, runs
// the study on a worker, and reads the loss's and the gradient's error against the reference over the run
// time of each setting, as plots or as a table.
#include <imgui.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/export/plot_export.hpp"
#include "gui/workers/tradeoff_worker.hpp"
#include "plots/imgui_plot.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct TradeoffPanelEvents {
  std::optional<std::pair<double, TradeoffOptions>> run;  // the value and the study's options
  bool cancel = false;
  ExportKind export_kind = ExportKind::none;  // the figure, as PNG, SVG, CSV or JSON
  ImVec2 export_min, export_max;
};

class TradeoffPanel {
 public:
  // The live problem; `selected` is the sweep point the researcher clicked last, if any.
  void set_problem(const std::shared_ptr<const Problem>& problem, std::optional<double> selected);
  void set_snapshot(const TradeoffSnapshot& snapshot);
  TradeoffPanelEvents draw(ImVec2 size);
  bool has_maximised() const { return maximised_.has_value(); }  // a plot fills the tab
  const plot::Figure& figure() const { return figure_; }

 private:
  void draw_controls(TradeoffPanelEvents& events);
  void draw_status() const;
  void draw_table() const;
  std::shared_ptr<const Problem> live_;
  std::optional<double> selected_;
  double value_ = 0.0;
  bool value_set_ = false;             // the researcher typed a value: keep it while the scene stays
  std::vector<std::string> families_;  // every family the study knows
  std::vector<char> chosen_;           // per family: run it
  bool table_view_ = false;
  TradeoffSnapshot snapshot_;
  plot::Figure figure_;
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(2);
  std::optional<std::size_t> maximised_;  // the plot filling the tab, if any
};

}  // namespace sg::gui
