#pragma once
// Runs 2-D sweeps (engine/sweep/sweep2d.hpp) on a worker thread for the map tab: cells fill in as their
// points finish, a new request or cancel() stops the running grid, the UI thread only copies snapshots.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "engine/sweep/device_sweep.hpp"
#include "engine/sweep/sweep2d.hpp"
#include "gui/workers/background_job.hpp"
#include "gui/workers/sweep_worker.hpp"

namespace sg::gui {

struct MapSnapshot {
  long version = 0;  // increases with every published change
  SweepPhase phase = SweepPhase::idle;
  std::shared_ptr<const Problem> problem;  // what the grid was computed for
  Grid2dResult result;  // points not computed (yet, or cancelled) have NaN numbers and status "pending"
  long completed = 0;
  double elapsed_seconds = 0.0;
  std::string error;   // a grid the engine refused (same path twice, N out of range), with its reason
  std::string device;  // where the grid ran: "cpu" or "cuda"
};

class MapWorker {
 public:
  explicit MapWorker(int threads = 0);  // 0: all cores, below the UI thread's priority
  void submit(std::shared_ptr<const Problem> problem, const GridAxis& x, const GridAxis& y);
  void cancel();
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }
  // Where the next grids run (the workbench's one device choice, as for sweeps).
  void set_device(SweepDevice device) { device_.store(device); }
  // Copies the shared state into *out when it changed since out->version; true when copied.
  bool snapshot(MapSnapshot* out) const;

 private:
  void run(const std::shared_ptr<const Problem>& problem, const GridAxis& x, const GridAxis& y,
           const std::atomic<bool>& cancel);
  int threads_;
  std::atomic<SweepDevice> device_{SweepDevice::automatic};
  mutable std::mutex mutex_;
  MapSnapshot shared_;
  std::chrono::steady_clock::time_point started_;
  BackgroundJob job_;  // last member: its thread stops before the state above goes away
};

}  // namespace sg::gui
