#pragma once
// The research workbench: wires the scene document, the sweep and trajectory workers, the panels and the
// 3-D view into the shell's Workbench hooks. Holds no physics: every number comes from engine calls.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/app/workbench.hpp"
#include "gui/document/presets.hpp"
#include "gui/document/scene_document.hpp"
#include "gui/export/frame_capture.hpp"
#include "gui/panels/controls_panel.hpp"
#include "gui/panels/identify_panel.hpp"
#include "gui/panels/map_panel.hpp"
#include "gui/panels/mpc_panel.hpp"
#include "gui/panels/plot_panel.hpp"
#include "gui/panels/toss_replay_panel.hpp"
#include "gui/panels/tradeoff_panel.hpp"
#include "gui/view3d/scene_bounds.hpp"
#include "gui/view3d/trajectory_player.hpp"
#include "gui/workers/descent_worker.hpp"
#include "gui/workers/identify_worker.hpp"
#include "gui/workers/map_worker.hpp"
#include "gui/workers/mpc_worker.hpp"
#include "gui/workers/sweep_worker.hpp"
#include "gui/workers/tradeoff_worker.hpp"
#include "gui/workers/trajectory_worker.hpp"

namespace sg::gui {

struct WorkbenchOptions {
  std::filesystem::path scenes_folder;  // empty: default_scenes_folder()
  std::filesystem::path out_folder = "out";
  int sweep_threads = 0;  // 0: all cores, below the UI thread's priority
  std::chrono::milliseconds debounce{150};
};

class WorkbenchApp : public std::enable_shared_from_this<WorkbenchApp> {
 public:
  explicit WorkbenchApp(WorkbenchOptions options = {});

  // Scene changes; each returns false (and keeps the current scene running) when the input is invalid.
  bool open_scene(const std::string& file, const std::vector<std::string>& overrides = {});
  bool open_scene_text(const std::string& text, const std::string& source);
  bool apply_preset(const std::string& name);
  // The open scene came from this preset: its button is highlighted and its note shown above the plots.
  void mark_preset(const Preset& preset);
  bool set_path(const std::string& path, const nlohmann::json& value);  // what a control does
  void cancel();                                                        // Esc
  // Whether the camera (as persisted) was fitted to bodies: set before opening the first scene, from the
  // settings; read when they are saved.
  void set_camera_fits_bodies(bool fits) { fitted_bodies_ = fits; }
  bool camera_fits_bodies() const { return fitted_bodies_; }
  // Opening another scene or preset from the controls after edits there waits for the user's answer
  // (discard them or keep editing); without edits it opens at once.
  // What the controls asked for this frame (open, preset, edits, save).
  void apply(const ControlsRequest& request);
  bool switch_pending() const { return pending_switch_.open_file || pending_switch_.preset; }
  void confirm_switch(bool discard_edits);
  long edits_since_open() const { return edits_since_open_; }
  void set_sweep_device(SweepDevice device);  // where sweeps run; re-runs the sweep there
  // Scrub mode (on by default): while a knob is held, only the clicked point's trajectory follows it; the
  // sweep (and a descent) re-run once it is let go. set_dragging is what the controls panel reports each
  // frame.
  void set_scrub(bool on);
  bool scrub() const { return scrub_; }
  void set_dragging(bool dragging);
  bool sweep_deferred() const { return sweep_deferred_; }
  void select_value(double value);  // simulate the trajectory at this sweep value
  // The 2-D map tab: compute a grid over the sweep parameter (x) and y; open one of its points.
  void run_map(const GridAxis& x, const GridAxis& y);
  void open_map_point(const std::string& y_path, double x, double y);
  // The Cost tab: accuracy against cost of the integrators at value x (on a worker; cancel() stops it).
  void run_tradeoff_study(double x, const TradeoffOptions& options);
  void show_tradeoff_tab() { show_tradeoff_ = true; }
  // The MPC tab (gui/app/workbench_mpc.cpp): the runs on a worker (cancel() stops them); a finished run's
  // executed motion replaces the trajectory in the 3-D view until the next sweep point is clicked.
  void run_mpc(std::vector<MpcRunSpec> runs);
  // The Identify tab's measured tosses (gui/app/workbench_tosses.cpp): replays toss `toss` of `file` from its
  // first measured frame with the live scene; the result plays in the 3-D view beside the measurement.
  void replay_toss(const std::string& file, int toss);
  const TossReplay& toss_replay() const { return toss_replay_; }
  // Fits numbers of the live scene to measured tosses on a worker (cancel() stops it); apply_toss_fit sets
  // the last fit's values in the scene.
  void fit_tosses(const TossFitRequest& request);
  bool apply_toss_fit();
  const TossFitSnapshot& toss_fit() const { return toss_fit_; }
  // Brings the Identify tab to the front on the next frame, showing the measured tosses.
  void show_measured_tosses() {
    show_identify_ = true;
    identify_view_ = 1;
  }
  void show_mpc_tab() { show_mpc_ = true; }
  void play_motion(std::shared_ptr<const Trajectory> motion);
  void pin();
  void unpin();
  // Gradient descent from optimize.starts starts on a worker; its paths are drawn on the loss plot and
  // follow the optimize.* knobs until cleared.
  void descend();
  void clear_descent();
  // The Identify tab: fits the scene's identify.parameters on a worker (cancel() stops it).
  void identify();
  // Brings the Identify tab to the front on the next frame (a screenshot of the fit).
  void show_identify_tab() { show_identify_ = true; }
  void handle_action(Action action);
  // Writes the plots (all, or events.export_figure) as events.export_kind into the out folder.
  void export_plots(const PlotPanelEvents& events);
  // The Identify tab's figure (the fit's plots, or the profiles) the same way, named after its title.
  void export_identify(ExportKind kind, ImVec2 min, ImVec2 max);

  // Hooks for AppShell; they keep this object alive.
  Workbench make_workbench();

  // Per frame (called by the begin_frame hook): picks up worker results, advances playback.
  void update(float delta_seconds);
  // Blocks until the sweep and the trajectory are done (headless screenshots and tests only).
  bool wait_until_idle(std::chrono::milliseconds timeout);
  // A sweep or trajectory job waits or runs, or the trajectory plays.
  bool animating() const {
    return sweeper_.busy() || simulator_.busy() || mapper_.busy() || descender_.busy() ||
           identifier_.busy() || tradeoffer_.busy() || mpcer_.busy() || toss_replayer_.busy() ||
           toss_fitter_.busy() || player_.playing();
  }
  bool playing() const { return player_.playing(); }

  const SceneDocument& document() const { return doc_; }
  const SweepSnapshot& sweep() const { return snapshot_; }
  const PlotPanel& plots() const { return plots_; }
  const MapSnapshot& map() const { return map_snapshot_; }
  MapPanel& map_panel() { return maps_; }
  const DescentSnapshot& descent() const { return descent_snapshot_; }
  const IdentifySnapshot& identification() const { return identify_snapshot_; }
  const IdentifyPanel& identify_panel() const { return identify_panel_; }
  const TradeoffSnapshot& tradeoff() const { return tradeoff_snapshot_; }
  const TradeoffPanel& tradeoff_panel() const { return tradeoff_panel_; }
  const MpcSnapshot& mpc() const { return mpc_snapshot_; }
  const MpcPanel& mpc_panel() const { return mpc_panel_; }
  TrajectoryPlayer& player() { return player_; }
  std::shared_ptr<const Trajectory> trajectory() const { return trajectory_; }
  std::optional<double> selected_value() const { return selected_; }
  const std::string& message() const { return message_; }
  const std::string& active_preset() const { return active_preset_; }  // empty when the scene is no preset
  const std::filesystem::path& scenes_folder() const { return options_.scenes_folder; }
  StatusInfo status() const;
  // The camera the view switches to on its next frame (set when a scene is opened), if any.
  const std::optional<render::Camera>& pending_camera() const { return pending_camera_; }
  SweepWorker& sweep_worker() { return sweeper_; }

 private:
  bool show_identify_ = false;  // select the Identify tab on the next frame
  bool show_tradeoff_ = false;  // select the Cost tab on the next frame
  bool show_mpc_ = false;       // select the MPC tab on the next frame
  void on_problem_changed();
  void submit_sweep();        // the sweep (unless only optimize.* changed) and a wanted descent
  void submit_if_released();  // a deferred sweep runs once scrubbing no longer holds it
  void draw_controls();
  void draw_plots(ImVec2 size);  // tabs: the 1-D sweep, the 2-D map, the identification, the cost
  void draw_sweep_plots(ImVec2 size);
  void draw_map(ImVec2 size);
  void draw_identify(ImVec2 size);
  void draw_tradeoff(ImVec2 size);
  void draw_mpc(ImVec2 size);
  void update_mpc();          // per frame: the MPC worker's snapshot into the tab
  void update_toss_replay();  // per frame: a finished replay into the tab and the 3-D view, and the fit
  void update_toss_fit();
  void draw_measured_tosses(ImVec2 size, ImVec2 top_left);
  // The measured pose of the replayed toss at the shown frame, as a translucent copy of body 0.
  void add_measured_body(render::Scene3D& scene) const;
  void export_figure(ExportKind kind, const plot::Figure& figure, ImVec2 min, ImVec2 max);
  void draw_player_toolbar();
  void fill_scene(render::Scene3D& scene) const;
  std::optional<render::Camera> camera_request(bool home);
  SceneBounds scene_bounds() const;  // what a fitted camera frames (empty for particles)
  void refit_camera();               // after a scene was opened
  void after_open();                 // what opening any scene resets
  static int scored_body(const Problem& p);
  std::string stem() const;

  WorkbenchOptions options_;
  SceneDocument doc_;
  ControlsPanel controls_;
  PlotPanel plots_;
  TrajectoryPlayer player_;
  SweepSnapshot snapshot_;
  std::shared_ptr<const Problem> recorded_problem_;  // the last sweep kept in the plots' history
  std::shared_ptr<const Trajectory> trajectory_;
  long trajectory_version_ = 0;
  std::optional<double> selected_;
  std::optional<render::Camera> pending_camera_;
  struct PendingSwitch {
    std::optional<std::string> open_file, preset;
    std::vector<std::string> overrides;  // open_file's --set assignments
  };
  PendingSwitch pending_switch_;
  long edits_since_open_ = 0;  // edits applied from the controls since the scene was opened
  void draw_switch_confirmation();
  bool fitted_bodies_ = false;  // the last fitted camera framed a rigid scene or a joint tree
  std::string message_;
  std::shared_ptr<FrameCapture> capture_ = std::make_shared<FrameCapture>();
  std::string active_preset_;
  bool scrub_ = true;
  bool dragging_ = false;
  bool sweep_deferred_ = false;  // scrubbing: the sweep waits for the knob to be let go
  SweepWorker sweeper_;
  TrajectoryWorker simulator_;
  MapPanel maps_;
  bool plot_maximised_ = false;  // the tab drawn last frame has a plot maximised: the plots fill the window
  MapSnapshot map_snapshot_;
  MapWorker mapper_;
  DescentSnapshot descent_snapshot_;
  bool descent_wanted_ = false;  // the user asked for paths: re-run them when the settings change
  std::shared_ptr<const Problem> swept_problem_;  // the last problem submitted to the sweep worker
  DescentWorker descender_;
  IdentifyPanel identify_panel_;
  IdentifySnapshot identify_snapshot_;
  IdentifyWorker identifier_;
  TradeoffPanel tradeoff_panel_;
  TradeoffSnapshot tradeoff_snapshot_;
  TradeoffWorker tradeoffer_;
  MpcPanel mpc_panel_;
  MpcSnapshot mpc_snapshot_;
  MpcWorker mpcer_;
  int identify_view_ = -1;  // the Identify tab's view: 0 the scene's own fit, 1 measured tosses; -1 by scene
  TossReplayPanel toss_panel_;
  TossReplay toss_replay_;
  TossReplayWorker toss_replayer_;
  TossFitSnapshot toss_fit_;
  TossFitWorker toss_fitter_;
};

// The default scene (the 1-D toy) in the given (or default) scenes folder.
std::string default_scene_file(const std::filesystem::path& scenes_folder = {});

}  // namespace sg::gui
