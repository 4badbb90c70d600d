#pragma once
// Gradient descent on the loss curve: Adam (engine/optimize/adam.hpp) from several starts spread over the
// sweep range, each step along the AD gradient of the scene's own simulation, projected back onto the range.
// The workbench draws the paths on the loss plot, so whether a contact model's gradients lead to the target
// ("CFD's do, plain contact's do not move at all") is something to watch.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "engine/problem/problem.hpp"

namespace sg {

struct DescentPath {
  double start = 0.0;
  std::vector<double> x, loss, grad;  // per iterate: steps + 1 entries, fewer when a run failed or cancelled
  std::string status = "ok";          // or why the path stopped early
};

struct DescentControl {
  int threads = 0;                                        // 0: all cores
  const std::atomic<bool>* cancel = nullptr;              // set to stop; paths end where they are
  std::function<void(long, const DescentPath&)> on_path;  // called from workers as paths finish
};

struct DescentResult {
  std::vector<DescentPath> paths;
  bool cancelled = false;
};

// optimize.starts values evenly inside the sweep range: from + (i + 1/2) (to - from) / starts.
std::vector<double> descent_starts(const SweepSpec& sweep, long starts);

// Adam with optimize.lr for optimize.steps steps from each start (in parallel over starts).
DescentResult run_descent(const Problem& problem, const DescentControl& control = {});

// One path from `start` with the given settings (the CLI's single start; run_descent's paths).
DescentPath descend_from(const Problem& problem, double start, const DescentSettings& settings,
                         const std::atomic<bool>* cancel = nullptr);

}  // namespace sg
