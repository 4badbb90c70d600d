// The workbench's MPC tab: runs softgrad mpc's planners on a worker and plays their executed motion.
#include "gui/app/workbench_app.hpp"
#include "gui/workers/background_job.hpp"

namespace sg::gui {

void WorkbenchApp::run_mpc(std::vector<MpcRunSpec> runs) {
  if (!doc_.problem() || runs.empty()) return;
  const std::string why = mpc_unavailable(*doc_.problem());
  if (!why.empty()) {
    message_ = "MPC: " + why;
    return;
  }
  mpcer_.submit(doc_.problem(), std::move(runs), worker_threads(0));
  message_ = "MPC: planning";
}

void WorkbenchApp::play_motion(std::shared_ptr<const Trajectory> motion) {
  if (!motion || motion->t.empty()) return;
  trajectory_ = std::move(motion);
  plots_.set_trajectory(trajectory_.get());
  player_.set_times(trajectory_->t);
  player_.seek_frame(0);
  if (!player_.playing()) player_.toggle();
}

void WorkbenchApp::update_mpc() {
  if (!mpcer_.snapshot(&mpc_snapshot_)) return;
  mpc_panel_.set_snapshot(mpc_snapshot_);
  const MpcSnapshot& s = mpc_snapshot_;
  if (!s.error.empty()) message_ = "MPC: " + s.error;
  if (s.phase == SweepPhase::cancelled) message_ = "MPC: cancelled";
  if (s.phase != SweepPhase::finished || !s.error.empty()) return;
  std::string text = "MPC: done";
  for (std::size_t k = 0; k < s.results.size(); ++k)
    text += (k ? ", " : ": ") + s.runs[k].label + (s.results[k].success ? " solved" : " not solved");
  message_ = text;
}

void WorkbenchApp::draw_mpc(ImVec2 size) {
  mpc_panel_.set_problem(doc_.problem());
  const MpcPanelEvents events = mpc_panel_.draw(size);
  if (events.run) run_mpc(*events.run);
  if (events.cancel) mpcer_.cancel();
  if (events.play && *events.play < mpc_snapshot_.motions.size())
    play_motion(mpc_snapshot_.motions[*events.play]);
  if (events.export_kind != ExportKind::none)
    export_figure(events.export_kind, mpc_panel_.figure(), events.export_min, events.export_max);
}

}  // namespace sg::gui
