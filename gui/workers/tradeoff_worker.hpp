#pragma once
// Runs an accuracy-against-cost study (engine/study/tradeoff.hpp) on a worker thread for the "Cost" tab:
// its progress is published as settings finish, cancel() stops it between settings, and the UI thread only
// copies snapshots. One thread on purpose: the study times its runs, and runs side by side would slow
// each other down.
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "engine/study/tradeoff.hpp"
#include "gui/workers/background_job.hpp"
#include "gui/workers/sweep_worker.hpp"

namespace sg::gui {

struct TradeoffSnapshot {
  long version = 0;  // increases with every published change
  SweepPhase phase = SweepPhase::idle;
  std::shared_ptr<const Problem> problem;  // what the study was computed for
  TradeoffResult result;                   // complete when phase is finished
  std::size_t done = 0, total = 0;         // runs of the study so far
  double elapsed_seconds = 0.0;
};

class TradeoffWorker {
 public:
  void submit(std::shared_ptr<const Problem> problem, std::string source, double x, TradeoffOptions options);
  void cancel();
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }
  // Copies the shared state into *out when it changed since out->version; true when copied.
  bool snapshot(TradeoffSnapshot* out) const;

 private:
  void run(const std::shared_ptr<const Problem>& problem, const std::string& source, double x,
           const TradeoffOptions& options, const std::atomic<bool>& cancel);
  mutable std::mutex mutex_;
  TradeoffSnapshot shared_;
  std::chrono::steady_clock::time_point started_;
  BackgroundJob job_;  // last member: its thread stops before the state above goes away
};

}  // namespace sg::gui
