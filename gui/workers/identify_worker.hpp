#pragma once
// Runs the scene's identification (engine/optimize/identify.hpp) on a worker thread for the Identify tab:
// every fit step is published as it is taken, a new request or cancel() stops the running fit after its
// current step, the UI thread only copies snapshots.
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/optimize/identify.hpp"
#include "gui/workers/background_job.hpp"
#include "gui/workers/sweep_worker.hpp"

namespace sg::gui {

struct IdentifySnapshot {
  long version = 0;  // increases with every published change
  SweepPhase phase = SweepPhase::idle;
  std::shared_ptr<const Problem> problem;  // what the fit ran for
  std::vector<std::string> paths;
  std::vector<double> truth, start;
  std::vector<FitStep> steps;  // as taken so far
  std::string status = "ok";   // or why the fit (or its measurements) failed
  std::string stopped;         // why a finished fit stopped
  long runs = 0;               // simulations the first fit took (the profile's count its own fits again)
  double elapsed_seconds = 0.0;
  std::vector<double> std_error;  // of the fitted values, once finished (FitResult::std_error)
  std::vector<bool> at_bound;
  std::vector<std::string> not_identified;  // per number: why the data do not identify it, or ""
  std::vector<double> correlation;          // FitResult::correlation
  double residual_sigma = 0.0;              // FitResult::residual_sigma
  // identify.profile: the profile-likelihood intervals after the fit. While profiling, each number's points
  // as refitted so far; once done, the whole result.
  bool profiling = false;
  ProfileResult profile;
  // identify.bootstrap: the parametric bootstrap after the fit (and its profile). While drawing, the refitted
  // values so far (in the order they came) and the failed count; once done, the whole result.
  bool bootstrapping = false;
  BootstrapResult bootstrap;
};

class IdentifyWorker {
 public:
  void submit(std::shared_ptr<const Problem> problem);
  void cancel();
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }
  // Copies the shared state into *out when it changed since out->version; true when copied.
  bool snapshot(IdentifySnapshot* out) const;

 private:
  void run(const std::shared_ptr<const Problem>& problem, const std::atomic<bool>& cancel);
  void publish(SweepPhase phase, const std::string& status);
  // identify.profile: the intervals after a finished fit, each refitted point published as it comes; fit
  // becomes the last fit (a profile may fit again from a lower point). False when cancelled.
  bool run_profile(const Problem& problem, const IdentifySetup& setup, FitResult& fit,
                   const FitSettings& settings, const std::function<double()>& elapsed);
  // identify.bootstrap: the draws after the fit (and its profile), each published as it comes. False when
  // cancelled.
  bool run_bootstrap(const Problem& problem, const IdentifySetup& setup, const FitResult& fit,
                     const FitSettings& settings, const std::function<double()>& elapsed);
  void publish_fit_result(const FitResult& result);  // its status, errors and correlations; under mutex_
  mutable std::mutex mutex_;
  IdentifySnapshot shared_;
  BackgroundJob job_;  // last member: its thread stops before the state above goes away
};

}  // namespace sg::gui
