#pragma once
// One worker thread that runs the latest submitted job: a new submission cancels the running job
// (through its atomic flag) and replaces any job still waiting. A delay debounces bursts of edits.
// The UI thread only submits and reads flags: it never waits on a job.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace sg::gui {

// Threads for a sweep-like job: `requested` when positive, else all cores. Jobs run below the UI thread's
// scheduling priority (the job thread lowers itself; sweeps, maps and descents their workers), so the UI
// gets a core whenever it draws and the sweep every cycle it leaves.
int worker_threads(int requested);

class BackgroundJob {
 public:
  using Job = std::function<void(const std::atomic<bool>& cancel)>;

  BackgroundJob();
  ~BackgroundJob();  // cancels and joins
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;

  // Runs job after `delay` unless another submission comes first; cancels the running job now.
  void submit(Job job, std::chrono::milliseconds delay = std::chrono::milliseconds(0));
  // Cancels the running job and drops a waiting one.
  void cancel();
  bool busy() const;  // a job waits or runs
  // For hosts that may block (headless screenshots, tests): true when idle before the timeout.
  bool wait_idle(std::chrono::milliseconds timeout) const;
  // CPU time the worker thread has used so far (to tell engine work from UI work in measurements).
  double cpu_seconds() const;

 private:
  void loop();
  mutable std::mutex mutex_;
  mutable std::condition_variable wake_, idle_;
  Job pending_;
  std::chrono::steady_clock::time_point due_;
  bool running_ = false, stop_ = false;
  std::atomic<bool>* current_cancel_ = nullptr;  // the running job's flag, guarded by mutex_
  std::thread thread_;
};

}  // namespace sg::gui
