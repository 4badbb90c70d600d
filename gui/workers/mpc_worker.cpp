#include "gui/workers/mpc_worker.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "gui/workers/timed_snapshot.hpp"

namespace sg::gui {

void MpcWorker::submit(std::shared_ptr<const Problem> problem, std::vector<MpcRunSpec> runs, int threads) {
  publish([&](MpcSnapshot& s) {
    s.phase = SweepPhase::waiting;
    s.error.clear();
  });
  job_.submit([this, problem = std::move(problem), runs = std::move(runs),
               threads](const std::atomic<bool>& cancel) { run(problem, runs, threads, cancel); });
}

void MpcWorker::cancel() {
  job_.cancel();
  std::lock_guard lock(mutex_);
  if (shared_.phase == SweepPhase::waiting) {
    shared_.phase = shared_.problem ? SweepPhase::cancelled : SweepPhase::idle;
    ++shared_.version;
  }
}

void MpcWorker::publish(const std::function<void(MpcSnapshot&)>& change) {
  std::lock_guard lock(mutex_);
  change(shared_);
  ++shared_.version;
}

void MpcWorker::run(const std::shared_ptr<const Problem>& problem, const std::vector<MpcRunSpec>& runs,
                    int threads, const std::atomic<bool>& cancel) {
  publish([&](MpcSnapshot& s) {
    s.problem = problem;
    s.phase = SweepPhase::running;
    s.runs = runs;
    s.results.assign(runs.size(), MpcResult{});
    s.motions.assign(runs.size(), nullptr);
    s.error.clear();
    s.elapsed_seconds = 0.0;
    started_ = std::chrono::steady_clock::now();
  });
  bool cancelled = false;
  for (std::size_t k = 0; k < runs.size() && !cancelled; ++k) {
    MpcCallbacks cb;
    cb.cancel = &cancel;
    cb.threads = threads;
    cb.on_step = [this, k](const MpcResult& so_far) {
      publish([&](MpcSnapshot& s) { s.results[k] = so_far; });
    };
    try {
      const Problem variant = runs[k].cfd ? with_cfd(*problem, *runs[k].cfd) : *problem;
      MpcSettings settings = mpc_settings(variant);
      settings.planner = runs[k].planner;
      MpcResult result = run_mpc(variant, settings, cb);
      cancelled = result.cancelled;
      Trajectory motion_data = tree_states_trajectory(variant, result.t, result.state, result.ctrl);
      char cost[32];
      std::snprintf(cost, sizeof cost, "%.3g", result.cost.empty() ? NAN : result.cost.back());
      motion_data.title = "MPC, " + runs[k].label + ": the executed motion, final cost " + cost;
      auto motion = std::make_shared<const Trajectory>(std::move(motion_data));
      publish([&](MpcSnapshot& s) {
        s.results[k] = std::move(result);
        s.motions[k] = motion;
      });
    } catch (const std::exception& e) {  // a scene mpc cannot plan (invalid_argument), or no memory
      publish([&](MpcSnapshot& s) { s.error = runs[k].label + ": " + e.what(); });
      break;
    }
  }
  publish([&](MpcSnapshot& s) {
    s.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    s.phase = cancelled || cancel.load() ? SweepPhase::cancelled : SweepPhase::finished;
  });
}

bool MpcWorker::snapshot(MpcSnapshot* out) const {
  std::lock_guard lock(mutex_);
  return copy_timed_snapshot(shared_, started_, out);
}

}  // namespace sg::gui
