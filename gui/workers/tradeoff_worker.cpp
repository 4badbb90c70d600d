#include "gui/workers/tradeoff_worker.hpp"

#include <utility>

#include "gui/workers/timed_snapshot.hpp"

namespace sg::gui {

void TradeoffWorker::submit(std::shared_ptr<const Problem> problem, std::string source, double x,
                            TradeoffOptions options) {
  {
    std::lock_guard lock(mutex_);
    shared_.phase = SweepPhase::waiting;
    shared_.result = TradeoffResult{};  // the new study's progress, not the last one's, from now on
    shared_.done = shared_.total = 0;
    ++shared_.version;
  }
  job_.submit([this, problem = std::move(problem), source = std::move(source), x,
               options = std::move(options)](const std::atomic<bool>& cancel) {
    run(problem, source, x, options, cancel);
  });
}

void TradeoffWorker::cancel() {
  job_.cancel();
  std::lock_guard lock(mutex_);
  if (shared_.phase == SweepPhase::waiting) {
    shared_.phase = shared_.problem ? SweepPhase::cancelled : SweepPhase::idle;
    ++shared_.version;
  }
}

void TradeoffWorker::run(const std::shared_ptr<const Problem>& problem, const std::string& source, double x,
                         const TradeoffOptions& options, const std::atomic<bool>& cancel) {
  {
    std::lock_guard lock(mutex_);
    shared_.problem = problem;
    shared_.phase = SweepPhase::running;
    shared_.result = TradeoffResult{};
    shared_.done = shared_.total = 0;
    shared_.elapsed_seconds = 0.0;
    started_ = std::chrono::steady_clock::now();
    ++shared_.version;
  }
  const TradeoffProgress progress = [this, &cancel](std::size_t done, std::size_t total) {
    std::lock_guard lock(mutex_);
    shared_.done = done;
    shared_.total = total;
    ++shared_.version;
    return !cancel.load();
  };
  TradeoffResult result = run_tradeoff(*problem, source, x, options, progress);
  std::lock_guard lock(mutex_);
  shared_.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  shared_.phase = result.cancelled ? SweepPhase::cancelled : SweepPhase::finished;
  shared_.result = std::move(result);
  ++shared_.version;
}

bool TradeoffWorker::snapshot(TradeoffSnapshot* out) const {
  std::lock_guard lock(mutex_);
  return copy_timed_snapshot(shared_, started_, out);
}

}  // namespace sg::gui
