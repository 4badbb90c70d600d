#pragma once
// The plot area: the sweep (loss, AD vs FD gradient, gradient error) on the first row and the selected
// point's trajectory on the second. Recent sweeps are kept; pinned ones are drawn behind the live sweep, each
// labelled by what differs from the live settings. A click selects a value.
#include <imgui.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/simulate/trajectory.hpp"
#include "gui/document/sweep_history.hpp"
#include "gui/export/plot_export.hpp"  // ExportKind
#include "gui/workers/descent_worker.hpp"
#include "gui/workers/sweep_worker.hpp"
#include "plots/imgui_plot.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct PlotPanelEvents {
  std::optional<double> clicked_value;  // a sweep plot was clicked at this parameter value
  bool pin = false, unpin = false;
  bool descend = false;        // "Descend": gradient descent from optimize.starts starts
  bool clear_descent = false;  // hide the descent paths
  ExportKind export_kind = ExportKind::none;
  std::optional<plot::Figure> export_figure;  // what to export (a single plot from its context menu)
  ImVec2 export_min, export_max;              // the on-screen region for a PNG export
};

class PlotPanel {
 public:
  // Rebuilds the sweep figure from a snapshot (partial sweeps leave gaps; failures become markers).
  void set_sweep(const SweepSnapshot& snapshot);
  // The trajectory must stay alive until the next call (the caller holds it); rigid scenes with several
  // bodies get a body selector above the trajectory row.
  void set_trajectory(const Trajectory* trajectory);
  void set_body(int body);  // which particle / body the trajectory row shows (clamped)
  // The body the next scene's trajectories show first (clamped when one arrives): the one its loss scores.
  void prefer_body(int body) { body_ = body; }
  int body() const { return body_; }
  int body_count() const;
  // The playback time, drawn as a vertical cursor in the trajectory plots (cheap: set every frame).
  void set_time(std::optional<double> t) { time_ = t; }
  std::optional<double> time() const { return time_; }
  void set_selected(std::optional<double> value) {
    selected_ = value;
    sweep_drawn_.clear();
  }
  // Keeps a finished sweep in the history (the workbench calls it once per finished sweep).
  void record(const SweepSnapshot& snapshot);
  // Labels of pinned and recent sweeps say what differs from these (the live) settings.
  void set_live_config(const nlohmann::json& config);
  void pin();  // the live sweep (finished or not) becomes a pinned reference
  void set_pinned(std::size_t record, bool pinned);
  void unpin();  // all
  bool pinned() const { return history_.pin_count() > 0; }
  const SweepHistory& history() const { return history_; }

  // Gradient descent paths, drawn on the loss plot while they belong to the live sweep's settings (the
  // optimize.* keys aside); an empty snapshot hides them.
  void set_descent(const DescentSnapshot& snapshot);
  bool descent_shown() const { return descent_matches_ && !descent_.result.paths.empty(); }

  // The active preset's teaching note (what to look at), shown above the plots until hidden; "" for none.
  void set_note(std::string note) { note_ = std::move(note); }
  const std::string& note() const { return note_; }
  bool notes_shown() const { return show_notes_; }
  void show_notes(bool shown) { show_notes_ = shown; }

  PlotPanelEvents draw(ImVec2 size);
  // One plot filling the panel (double-click its title, or its menu): 0-2 the sweep plots, 3+ the
  // trajectory's.
  std::optional<std::size_t> maximised() const { return maximised_; }
  void toggle_maximised(std::size_t view);

  // What is shown: sweep plots with the pinned series and the selection marker, then trajectory plots.
  plot::Figure shown_figure() const;
  const plot::Figure& sweep_figure() const { return sweep_; }
  const plot::Figure& trajectory_figure() const { return trajectory_; }

 private:
  // display: from the thinned copies drawn on screen, else from the full data.
  plot::Plot decorated_sweep_plot(std::size_t index, bool display) const;
  const Trajectory* source_ = nullptr;
  int body_ = 0;
  plot::Figure sweep_, trajectory_;
  std::vector<plot::Plot> sweep_shown_, trajectory_shown_;  // thinned copies for drawing
  std::string note_;
  bool show_notes_ = true;
  std::shared_ptr<const Problem> live_problem_;
  DescentSnapshot descent_;
  bool descent_matches_ = false;  // the descent was computed for the live sweep's settings
  void match_descent();
  std::vector<plot::Series> descent_series() const;
  SweepHistory history_;
  long history_version_ = -1;  // of the pins drawn in sweep_drawn_
  std::optional<double> selected_;
  std::optional<double> time_;
  std::vector<plot::PlotViewState> views_ = std::vector<plot::PlotViewState>(8);
  // What draw() hands to the widget, kept until the data, the pin, the selection or the plot's pixel width
  // change: decorated and thinned to about one point per pixel column (min and max per two columns).
  struct DrawnPlot {
    plot::Plot plot;
    int width = -1;
  };
  const plot::Plot& drawn_sweep_plot(std::size_t index, float width);
  void draw_note(float panel_height);
  void draw_toolbar(PlotPanelEvents& events);
  void draw_sweep_plot(std::size_t index, ImVec2 size, PlotPanelEvents& events);
  void draw_trajectory_plot(std::size_t index, ImVec2 size, PlotPanelEvents& events);
  std::optional<std::size_t> maximised_;
  void draw_descent_buttons(PlotPanelEvents& events);
  void draw_pins_popup();
  const plot::Plot& drawn_trajectory_plot(std::size_t index, float width);
  std::vector<DrawnPlot> sweep_drawn_, trajectory_drawn_;
};

}  // namespace sg::gui
