#pragma once
// Numbers of the live scene fitted to measured tosses off the UI thread, as `softgrad fit --tosses` fits
// them (DiffMJX Fig. 9): the selected tosses cut into segments, Levenberg-Marquardt or Adam (DiffMJX's
// settings), each step published as it is taken; Cancel stops after the current step.
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/optimize/fit.hpp"
#include "engine/problem/problem.hpp"
#include "gui/workers/background_job.hpp"
#include "gui/workers/sweep_worker.hpp"  // SweepPhase

namespace sg::gui {

struct TossFitRequest {
  std::string file;              // the tosses
  std::string select = "0-19";   // which tosses (engine/measured/toss_data.hpp: select_tosses)
  std::vector<std::string> wrt;  // fitted numbers, e.g. model.bodies.0.size (a vector key ties its entries)
  int segment = 5;               // frames per segment
  bool adam = false;             // else Levenberg-Marquardt
  int steps = 30;
};

struct TossFitSnapshot {
  long version = 0;
  SweepPhase phase = SweepPhase::idle;
  std::string error;                            // a refused request or a failed fit
  std::vector<std::string> names;               // the fitted numbers
  std::vector<std::vector<std::string>> paths;  // the scene paths each number sets
  std::vector<FitStep> steps;                   // as taken
  std::string stopped;                          // when finished: why it stopped
  std::vector<double> std_error;                // when finished
  long segments = 0, tosses = 0;
};

class TossFitWorker {
 public:
  void submit(std::shared_ptr<const Problem> problem, TossFitRequest request);
  void cancel() { job_.cancel(); }
  bool snapshot(TossFitSnapshot* out) const;
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }

 private:
  void run(const Problem& problem, const TossFitRequest& request, const std::atomic<bool>& cancel);
  void publish(const std::function<void(TossFitSnapshot&)>& change);
  mutable std::mutex mutex_;
  TossFitSnapshot shared_;
  BackgroundJob job_;  // last member: joined before the state above goes away
};

}  // namespace sg::gui
