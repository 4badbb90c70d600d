#pragma once
// The "2-D map" tab: two scene numbers on a grid (x: the scene's sweep parameter, y: any differentiable
// number), shown as heatmaps of the loss, both AD gradients and the AD-vs-FD error, filling in as points
// finish. A click on a map opens that point (the workbench sets y and simulates x).
#include <imgui.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gui/workers/map_worker.hpp"
#include "plots/imgui_plot.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct MapPanelEvents {
  std::optional<std::pair<GridAxis, GridAxis>> run;  // the user asked for this grid
  bool cancel = false;
  std::optional<std::pair<double, double>> clicked;  // (x, y) of a click on a map
  std::string y_path;                                // with clicked: the y axis's scene path
};

class MapPanel {
 public:
  // The live problem: the x axis follows its sweep parameter and range, y offers its other numbers.
  void set_problem(const std::shared_ptr<const Problem>& problem);
  void set_snapshot(const MapSnapshot& snapshot);
  MapPanelEvents draw(ImVec2 size);
  bool has_maximised() const { return maximised_.has_value(); }  // a plot fills the tab

  const GridAxis& y_axis() const { return y_; }
  // Whether the shown grid was computed for the live settings: they may differ in the map's y number only,
  // which a click on the map sets (the grid covers every y).
  bool computed_for_live();
  const plot::Figure& figure() const { return figure_; }

 private:
  void choose_y(const std::string& path);
  void draw_axis_controls(MapPanelEvents& events);
  std::shared_ptr<const Problem> live_;
  std::vector<std::string> parameters_;  // differentiable paths other than x
  GridAxis x_, y_;
  MapSnapshot snapshot_;
  plot::Figure figure_;
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(4);
  std::optional<std::size_t> maximised_;  // the plot filling the tab, if any
  // computed_for_live's answer for this (grid, live) pair: a comparison of two configs, not every frame.
  std::pair<const Problem*, const Problem*> compared_{nullptr, nullptr};
  bool computed_for_live_ = true;
};

}  // namespace sg::gui
