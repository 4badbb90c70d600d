#include "gui/workers/identify_worker.hpp"

namespace sg::gui {

void IdentifyWorker::submit(std::shared_ptr<const Problem> problem) {
  {
    std::lock_guard lock(mutex_);
    shared_.phase = SweepPhase::waiting;
    ++shared_.version;
  }
  job_.submit(
      [this, problem = std::move(problem)](const std::atomic<bool>& cancel) { run(problem, cancel); });
}

void IdentifyWorker::cancel() {
  job_.cancel();
  std::lock_guard lock(mutex_);
  if (shared_.phase == SweepPhase::waiting) {
    shared_.phase = shared_.problem ? SweepPhase::cancelled : SweepPhase::idle;
    ++shared_.version;
  }
}

void IdentifyWorker::publish(SweepPhase phase, const std::string& status) {
  std::lock_guard lock(mutex_);
  shared_.phase = phase;
  shared_.status = status;
  ++shared_.version;
}

void IdentifyWorker::run(const std::shared_ptr<const Problem>& problem, const std::atomic<bool>& cancel) {
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  {
    std::lock_guard lock(mutex_);
    shared_ = IdentifySnapshot{shared_.version + 1, SweepPhase::running, problem};
  }
  // The truth's own run makes the measurements: a scene whose run fails has none to fit.
  const IdentifySetup setup = identify_setup(*problem);
  {
    std::lock_guard lock(mutex_);
    shared_.paths = setup.paths;
    shared_.truth = setup.truth;
    shared_.start = setup.start;
    ++shared_.version;
  }
  if (setup.status != "ok") return publish(SweepPhase::finished, setup.status);
  FitSettings settings = identify_settings(*problem);
  settings.cancel = &cancel;
  settings.threads = worker_threads(0);  // as the sweeps: all cores, below the UI's priority
  FitResult result;
  try {
    result = run_identification(*problem, setup, settings, [&](const FitStep& step) {
      std::lock_guard lock(mutex_);
      shared_.steps.push_back(step);
      shared_.elapsed_seconds = elapsed();
      ++shared_.version;
    });
  } catch (const std::exception& e) {  // a path the engine refuses (the scene's checks should catch it first)
    return publish(SweepPhase::finished, e.what());
  }
  const bool fitted = result.status == "ok" && result.stopped != "cancelled";
  const bool profile = problem->identify.profile && fitted;
  const bool bootstrap = problem->identify.bootstrap > 0 && fitted;
  {
    std::lock_guard lock(mutex_);
    shared_.runs = result.runs;
    publish_fit_result(result);
    shared_.elapsed_seconds = elapsed();
    shared_.profiling = profile;
    shared_.profile = ProfileResult{};
    shared_.profile.parameters.resize(setup.paths.size());
    shared_.bootstrap = BootstrapResult{};
    shared_.bootstrap.requested = problem->identify.bootstrap;
    ++shared_.version;
  }
  bool cancelled = result.stopped == "cancelled";
  if (profile) cancelled = !run_profile(*problem, setup, result, settings, elapsed);
  if (bootstrap && !cancelled) cancelled = !run_bootstrap(*problem, setup, result, settings, elapsed);
  std::lock_guard lock(mutex_);
  shared_.profiling = false;
  shared_.bootstrapping = false;
  shared_.elapsed_seconds = elapsed();
  shared_.phase = cancelled ? SweepPhase::cancelled : SweepPhase::finished;
  ++shared_.version;
}

bool IdentifyWorker::run_profile(const Problem& problem, const IdentifySetup& setup, FitResult& fit,
                                 const FitSettings& settings, const std::function<double()>& elapsed) {
  const ProfileResult profile = run_identification_profile(
      problem, setup, fit, settings, problem.identify.level,
      [&](std::size_t j, const ProfilePoint& q) {
        std::lock_guard lock(mutex_);
        shared_.profile.parameters[j].points.push_back(q);
        shared_.elapsed_seconds = elapsed();
        ++shared_.version;
      },
      [&](const FitResult& again) {  // fitted again from a lower point: its steps follow the first fit's
        std::lock_guard lock(mutex_);
        const int offset = shared_.steps.empty() ? 0 : shared_.steps.back().iteration + 1;
        for (FitStep step : again.path) {
          step.iteration += offset;
          shared_.steps.push_back(step);
        }
        publish_fit_result(again);
        shared_.profile = ProfileResult{};
        shared_.profile.parameters.resize(setup.paths.size());
        ++shared_.version;
      });
  std::lock_guard lock(mutex_);
  shared_.profile = profile;
  shared_.profiling = false;
  shared_.elapsed_seconds = elapsed();
  ++shared_.version;
  return !profile.cancelled;
}

bool IdentifyWorker::run_bootstrap(const Problem& problem, const IdentifySetup& setup, const FitResult& fit,
                                   const FitSettings& settings, const std::function<double()>& elapsed) {
  {
    std::lock_guard lock(mutex_);
    shared_.bootstrapping = true;
    ++shared_.version;
  }
  const BootstrapResult boot = run_identification_bootstrap(
      problem, setup, fit, settings, problem.identify.bootstrap, problem.identify.level,
      problem.identify.bootstrap_from_fit ? std::vector<double>{} : setup.start,
      [&](int, const std::vector<double>& values) {
        std::lock_guard lock(mutex_);
        if (values.empty())
          ++shared_.bootstrap.failed;
        else
          shared_.bootstrap.draws.push_back(values);
        shared_.elapsed_seconds = elapsed();
        ++shared_.version;
      });
  std::lock_guard lock(mutex_);
  shared_.bootstrap = boot;
  shared_.bootstrapping = false;
  shared_.elapsed_seconds = elapsed();
  ++shared_.version;
  return !boot.cancelled;
}

void IdentifyWorker::publish_fit_result(const FitResult& result) {
  shared_.status = result.status;
  shared_.stopped = result.stopped;
  shared_.std_error = result.std_error;
  shared_.at_bound = result.at_bound;
  shared_.not_identified = result.not_identified;
  shared_.correlation = result.correlation;
  shared_.residual_sigma = result.residual_sigma;
}

bool IdentifyWorker::snapshot(IdentifySnapshot* out) const {
  std::lock_guard lock(mutex_);
  if (out->version == shared_.version) return false;
  *out = shared_;
  return true;
}

}  // namespace sg::gui
