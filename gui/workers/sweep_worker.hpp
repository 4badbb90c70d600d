#pragma once
// Runs sweeps off the UI thread: debounced, the previous run cancelled, points published as they finish.
// The UI takes a snapshot each frame (a short lock, copying only when something changed).
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/sweep/device_sweep.hpp"
#include "engine/sweep/sweep.hpp"
#include "gui/workers/background_job.hpp"

namespace sg::gui {

enum class SweepPhase { idle, waiting, running, finished, cancelled };

struct SweepSnapshot {
  long generation = 0;  // increases with every submitted sweep
  long version = 0;     // increases with every published point
  SweepPhase phase = SweepPhase::idle;
  std::shared_ptr<const Problem> problem;  // the problem being (or last) swept
  // One entry per sweep point; points not computed (yet, or cancelled) have NaN numbers and a status of
  // "pending" or "cancelled".
  SweepResult result;
  long completed = 0;
  double elapsed_seconds = 0.0;
  std::string device = "cpu";  // where the points ran: "cpu" or "cuda"
  std::string error;           // why the sweep could not run at all (the GPU was asked for and failed)
  long failed() const;         // numerical failures among the computed points
  // Time left while running, extrapolated from the points done so far; negative before the first point.
  double seconds_left() const;
  // Over the computed points' AD runs: accepted steps, rejected attempts, located contact events.
  struct StepTotals {
    long accepted = 0, rejected = 0, events = 0;
  };
  StepTotals step_totals() const;
};

class SweepWorker {
 public:
  explicit SweepWorker(int threads = 0);  // 0: all cores, below the UI thread's priority
  // Starts a sweep of `problem` after `debounce`; a running sweep is cancelled at once.
  void submit(std::shared_ptr<const Problem> problem,
              std::chrono::milliseconds debounce = std::chrono::milliseconds(150));
  void cancel();  // stops the running sweep; its computed points stay, the rest are marked "cancelled"
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }
  // Copies the shared state into *out when it changed since out->version/generation; true when copied.
  bool snapshot(SweepSnapshot* out) const;
  int threads() const { return threads_; }
  // Where later sweeps run (engine/sweep/device_sweep.hpp); automatic by default: the GPU when present.
  void set_device(SweepDevice device) { device_.store(device); }
  SweepDevice device() const { return device_.load(); }
  // CPU seconds of the worker thread (with threads == 1 the whole sweep runs on it).
  double worker_cpu_seconds() const { return job_.cpu_seconds(); }

 private:
  void run(std::shared_ptr<const Problem> problem, long generation, const std::atomic<bool>& cancel);
  int threads_;
  std::atomic<SweepDevice> device_{SweepDevice::automatic};
  mutable std::mutex mutex_;
  SweepSnapshot shared_;
  std::chrono::steady_clock::time_point started_;
  long next_generation_ = 0;
  BackgroundJob job_;  // last member: its thread stops before the state above goes away
};

const char* phase_name(SweepPhase phase);

}  // namespace sg::gui
