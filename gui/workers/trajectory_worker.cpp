#include "gui/workers/trajectory_worker.hpp"

#include <utility>

namespace sg::gui {

void TrajectoryWorker::request(std::shared_ptr<const Problem> problem, double value) {
  job_.submit([this, problem = std::move(problem), value](const std::atomic<bool>& cancel) {
    auto trajectory = std::make_shared<const Trajectory>(simulate_trajectory(*problem, value));
    if (cancel.load()) return;  // a newer request superseded this one while it ran
    std::lock_guard lock(mutex_);
    latest_ = std::move(trajectory);
    ++version_;
  });
}

std::shared_ptr<const Trajectory> TrajectoryWorker::latest(long* version) const {
  std::lock_guard lock(mutex_);
  if (version) *version = version_;
  return latest_;
}

}  // namespace sg::gui
