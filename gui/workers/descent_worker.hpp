#pragma once
// Runs gradient descent from several starts (engine/optimize/descent.hpp) on a worker thread for the loss
// plot's "Descend" button: paths appear as they finish, a new request or cancel() stops the running one, the
// UI thread only copies snapshots.
#include <chrono>
#include <memory>
#include <mutex>

#include "engine/optimize/descent.hpp"
#include "gui/workers/background_job.hpp"
#include "gui/workers/sweep_worker.hpp"

namespace sg::gui {

struct DescentSnapshot {
  long version = 0;  // increases with every published change
  SweepPhase phase = SweepPhase::idle;
  std::shared_ptr<const Problem> problem;  // what the paths were computed for
  DescentResult result;                    // paths not finished yet are empty
  long completed = 0;
};

class DescentWorker {
 public:
  explicit DescentWorker(int threads = 0);  // 0: all cores, below the UI thread's priority
  void submit(std::shared_ptr<const Problem> problem);
  void cancel();
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }
  // Copies the shared state into *out when it changed since out->version; true when copied.
  bool snapshot(DescentSnapshot* out) const;

 private:
  void run(const std::shared_ptr<const Problem>& problem, const std::atomic<bool>& cancel);
  int threads_;
  mutable std::mutex mutex_;
  DescentSnapshot shared_;
  BackgroundJob job_;  // last member: its thread stops before the state above goes away
};

}  // namespace sg::gui
