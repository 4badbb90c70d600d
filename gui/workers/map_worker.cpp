#include "gui/workers/map_worker.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "gui/workers/timed_snapshot.hpp"

namespace sg::gui {
namespace {

GridPoint pending() {
  const double nan = std::nan("");
  return GridPoint{nan, nan, nan, nan, nan, "pending"};
}

}  // namespace

MapWorker::MapWorker(int threads) : threads_(worker_threads(threads)) {}

void MapWorker::submit(std::shared_ptr<const Problem> problem, const GridAxis& x, const GridAxis& y) {
  {
    std::lock_guard lock(mutex_);
    shared_.phase = SweepPhase::waiting;
    shared_.error.clear();
    ++shared_.version;
  }
  job_.submit([this, problem = std::move(problem), x, y](const std::atomic<bool>& cancel) {
    run(problem, x, y, cancel);
  });
}

void MapWorker::cancel() {
  job_.cancel();
  std::lock_guard lock(mutex_);
  if (shared_.phase == SweepPhase::waiting) {
    shared_.phase = shared_.problem ? SweepPhase::cancelled : SweepPhase::idle;
    ++shared_.version;
  }
}

void MapWorker::run(const std::shared_ptr<const Problem>& problem, const GridAxis& x, const GridAxis& y,
                    const std::atomic<bool>& cancel) {
  {
    std::lock_guard lock(mutex_);
    shared_.problem = problem;
    shared_.phase = SweepPhase::running;
    shared_.completed = 0;
    shared_.elapsed_seconds = 0.0;
    shared_.result = Grid2dResult{};
    shared_.result.x = x;
    shared_.result.y = y;
    shared_.result.points.assign(static_cast<std::size_t>(std::max(0L, x.points * y.points)), pending());
    ++shared_.version;
    started_ = std::chrono::steady_clock::now();
  }
  Grid2dControl control;
  control.threads = threads_;
  control.cancel = &cancel;
  control.on_point = [this, nx = x.points](long ix, long iy, const GridPoint& p) {
    std::lock_guard lock(mutex_);
    shared_.result.points[static_cast<std::size_t>(iy * nx + ix)] = p;
    ++shared_.completed;
    ++shared_.version;
  };
  Grid2dResult result;
  std::string error, used;
  try {
    if (!run_sweep2d_on(device_.load(), *problem, x, y, control, &result, &used, &error) && error.empty())
      error = "the grid could not run";
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  std::lock_guard lock(mutex_);
  shared_.device = used;
  shared_.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (!error.empty()) {
    shared_.error = error;
    shared_.phase = SweepPhase::idle;
    shared_.result = Grid2dResult{};
  } else {
    shared_.result = std::move(result);
    shared_.phase = shared_.result.cancelled ? SweepPhase::cancelled : SweepPhase::finished;
  }
  ++shared_.version;
}

bool MapWorker::snapshot(MapSnapshot* out) const {
  std::lock_guard lock(mutex_);
  return copy_timed_snapshot(shared_, started_, out);
}

}  // namespace sg::gui
