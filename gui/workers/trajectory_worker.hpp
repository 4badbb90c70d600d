#pragma once
// Simulates the selected sweep point's trajectory off the UI thread (latest request wins).
#include <chrono>
#include <memory>
#include <mutex>

#include "engine/simulate/trajectory.hpp"
#include "gui/workers/background_job.hpp"

namespace sg::gui {

class TrajectoryWorker {
 public:
  void request(std::shared_ptr<const Problem> problem, double value);
  // The newest finished trajectory, or nullptr; `version` changes when it is replaced.
  std::shared_ptr<const Trajectory> latest(long* version = nullptr) const;
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Trajectory> latest_;
  long version_ = 0;
  BackgroundJob job_;  // last member: joined before the state above goes away
};

}  // namespace sg::gui
