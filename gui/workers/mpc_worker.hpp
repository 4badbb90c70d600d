#pragma once
// Runs model-predictive control (engine/control/mpc.hpp) on a worker thread for the "MPC" tab: one or more
// runs (a planner, CFD as the scene has it or set on or off) one after another, each planning step published
// as it finishes (the cost curves fill in live), cancel() stops at the next planning step, and each finished
// run's executed motion is turned into a trajectory the 3-D view can play. The UI thread only copies
// snapshots.
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/control/mpc.hpp"
#include "engine/simulate/trajectory.hpp"
#include "gui/workers/background_job.hpp"
#include "gui/workers/sweep_worker.hpp"

namespace sg::gui {

struct MpcRunSpec {
  std::string label;  // e.g. "gradient, CFD off"
  Planner planner = Planner::gradient;
  std::optional<bool> cfd;  // contact.cfd.enabled for this run; none: the scene's
};

struct MpcSnapshot {
  long version = 0;  // increases with every published change
  SweepPhase phase = SweepPhase::idle;
  std::shared_ptr<const Problem> problem;  // what the runs were computed for
  std::vector<MpcRunSpec> runs;
  std::vector<MpcResult> results;  // per run: complete, partial (the running one) or empty (not yet)
  std::vector<std::shared_ptr<const Trajectory>> motions;  // per finished run: its executed motion
  std::string error;  // a run the scene cannot plan: the message, naming the key
  double elapsed_seconds = 0.0;
};

class MpcWorker {
 public:
  void submit(std::shared_ptr<const Problem> problem, std::vector<MpcRunSpec> runs, int threads);
  void cancel();
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }
  // Copies the shared state into *out when it changed since out->version; true when copied.
  bool snapshot(MpcSnapshot* out) const;

 private:
  void run(const std::shared_ptr<const Problem>& problem, const std::vector<MpcRunSpec>& runs, int threads,
           const std::atomic<bool>& cancel);
  void publish(const std::function<void(MpcSnapshot&)>& change);
  mutable std::mutex mutex_;
  MpcSnapshot shared_;
  std::chrono::steady_clock::time_point started_;
  BackgroundJob job_;  // last member: its thread stops before the state above goes away
};

}  // namespace sg::gui
