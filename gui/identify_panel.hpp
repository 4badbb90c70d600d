#pragma once
// The "Identify" tab: the scene's identification (identify.*: the numbers to fit, their start values, the
// measurement noise) run on a worker, with the fit's error and each number's distance to the truth plotted
// per iteration and a table of truth, start and current values.
#include <imgui.h>

#include <memory>
#include <vector>

#include "gui/identify_worker.hpp"
#include "plots/imgui_plot.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct IdentifyPanelEvents {
  bool run = false;  // the user asked for a fit of the live scene
  bool cancel = false;
};

class IdentifyPanel {
 public:
  void set_problem(const std::shared_ptr<const Problem>& problem) { live_ = problem; }
  void set_snapshot(const IdentifySnapshot& snapshot);
  IdentifyPanelEvents draw(ImVec2 size);
  const plot::Figure& figure() const { return figure_; }

 private:
  void draw_status();
  void draw_table();
  std::shared_ptr<const Problem> live_;
  IdentifySnapshot snapshot_;
  plot::Figure figure_;
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(2);
};

}  // namespace sg::gui
