#include "gui/workers/sweep_worker.hpp"

#include <algorithm>
#include <cmath>
#include <thread>
#include <utility>

namespace sg::gui {

namespace {

PointResult pending_point(double value, const char* status) {
  const double nan = std::nan("");
  PointResult p;
  p.value = value;
  p.loss = p.grad = p.grad_fd = p.loss_smoothed = p.grad_zeroth = p.grad_first = nan;
  p.status = status;
  return p;
}

}  // namespace

long SweepSnapshot::failed() const {
  return std::count_if(result.points.begin(), result.points.end(), [](const PointResult& p) {
    return p.status != "ok" && p.status != "pending" && p.status != "cancelled";
  });
}

double SweepSnapshot::seconds_left() const {
  const long total = static_cast<long>(result.points.size());
  if (completed <= 0 || total <= completed) return completed >= total && total > 0 ? 0.0 : -1.0;
  return elapsed_seconds * static_cast<double>(total - completed) / static_cast<double>(completed);
}

SweepSnapshot::StepTotals SweepSnapshot::step_totals() const {
  StepTotals t;
  for (const PointResult& p : result.points) {
    t.accepted += p.steps;
    t.rejected += p.rejected;
    t.events += p.events;
  }
  return t;
}

const char* phase_name(SweepPhase phase) {
  switch (phase) {
    case SweepPhase::idle:
      return "idle";
    case SweepPhase::waiting:
      return "waiting";
    case SweepPhase::running:
      return "running";
    case SweepPhase::finished:
      return "finished";
    case SweepPhase::cancelled:
      return "cancelled";
  }
  return "?";
}

SweepWorker::SweepWorker(int threads) : threads_(worker_threads(threads)) {}

void SweepWorker::submit(std::shared_ptr<const Problem> problem, std::chrono::milliseconds debounce) {
  long generation = 0;
  {
    std::lock_guard lock(mutex_);
    generation = ++next_generation_;
    shared_.phase = SweepPhase::waiting;
    ++shared_.version;
  }
  job_.submit([this, problem = std::move(problem),
               generation](const std::atomic<bool>& cancel) { run(problem, generation, cancel); },
              debounce);
}

void SweepWorker::cancel() {
  job_.cancel();
  std::lock_guard lock(mutex_);
  if (shared_.phase == SweepPhase::waiting) {
    shared_.phase = shared_.problem ? SweepPhase::cancelled : SweepPhase::idle;
    ++shared_.version;
  }
}

void SweepWorker::run(std::shared_ptr<const Problem> problem, long generation,
                      const std::atomic<bool>& cancel) {
  const long n = problem->sweep.points;
  {
    std::lock_guard lock(mutex_);
    shared_.generation = generation;
    shared_.problem = problem;
    shared_.phase = SweepPhase::running;
    shared_.completed = 0;
    shared_.elapsed_seconds = 0.0;
    shared_.error.clear();
    shared_.result = SweepResult{};
    shared_.result.reference = problem->gradient.reference;
    shared_.result.points.reserve(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i)
      shared_.result.points.push_back(pending_point(problem->sweep.value_at(i), "pending"));
    ++shared_.version;
    started_ = std::chrono::steady_clock::now();
  }
  SweepControl control;
  control.threads = threads_;
  control.cancel = &cancel;
  control.on_point = [this](long i, const PointResult& point) {
    std::lock_guard lock(mutex_);
    shared_.result.points[static_cast<std::size_t>(i)] = point;
    ++shared_.completed;
    shared_.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    ++shared_.version;
  };
  SweepResult result;
  std::string used, error;
  if (!run_sweep_on(device_.load(), *problem, control, &result, &used, &error)) {
    std::lock_guard lock(mutex_);
    for (PointResult& p : shared_.result.points) p = pending_point(p.value, "pending");
    shared_.error = error;
    shared_.device = used;
    shared_.phase = SweepPhase::finished;
    ++shared_.version;
    return;
  }
  for (PointResult& p : result.points) {
    if (p.status == "cancelled") p = pending_point(p.value, "cancelled");
  }
  std::lock_guard lock(mutex_);
  shared_.result = std::move(result);
  shared_.device = used;
  shared_.phase = shared_.result.stats.cancelled ? SweepPhase::cancelled : SweepPhase::finished;
  shared_.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  ++shared_.version;
}

bool SweepWorker::snapshot(SweepSnapshot* out) const {
  std::lock_guard lock(mutex_);
  const double elapsed =
      shared_.phase == SweepPhase::running
          ? std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count()
          : shared_.elapsed_seconds;
  if (out->version == shared_.version && out->generation == shared_.generation) {
    out->elapsed_seconds = elapsed;  // the clock moves even when no point finished
    return false;
  }
  *out = shared_;
  out->elapsed_seconds = elapsed;
  return true;
}

}  // namespace sg::gui
