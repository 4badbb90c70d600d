#include "gui/workers/descent_worker.hpp"

namespace sg::gui {

DescentWorker::DescentWorker(int threads) : threads_(worker_threads(threads)) {}

void DescentWorker::submit(std::shared_ptr<const Problem> problem) {
  {
    std::lock_guard lock(mutex_);
    shared_.phase = SweepPhase::waiting;
    ++shared_.version;
  }
  job_.submit(
      [this, problem = std::move(problem)](const std::atomic<bool>& cancel) { run(problem, cancel); });
}

void DescentWorker::cancel() {
  job_.cancel();
  std::lock_guard lock(mutex_);
  if (shared_.phase == SweepPhase::waiting) {
    shared_.phase = shared_.problem ? SweepPhase::cancelled : SweepPhase::idle;
    ++shared_.version;
  }
}

void DescentWorker::run(const std::shared_ptr<const Problem>& problem, const std::atomic<bool>& cancel) {
  {
    std::lock_guard lock(mutex_);
    shared_.problem = problem;
    shared_.phase = SweepPhase::running;
    shared_.completed = 0;
    shared_.result = DescentResult{};
    shared_.result.paths.resize(static_cast<std::size_t>(problem->descent.starts));
    ++shared_.version;
  }
  DescentControl control;
  control.threads = threads_;
  control.cancel = &cancel;
  control.on_path = [this](long i, const DescentPath& path) {
    std::lock_guard lock(mutex_);
    shared_.result.paths[static_cast<std::size_t>(i)] = path;
    ++shared_.completed;
    ++shared_.version;
  };
  DescentResult result = run_descent(*problem, control);
  std::lock_guard lock(mutex_);
  shared_.result = std::move(result);
  shared_.phase = shared_.result.cancelled ? SweepPhase::cancelled : SweepPhase::finished;
  ++shared_.version;
}

bool DescentWorker::snapshot(DescentSnapshot* out) const {
  std::lock_guard lock(mutex_);
  if (out->version == shared_.version) return false;
  *out = shared_;
  return true;
}

}  // namespace sg::gui
