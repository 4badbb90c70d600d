#include "engine/optimize/descent.hpp"

#include <algorithm>
#include <cmath>

#include "engine/core/caller_priority_arena.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/optimize/adam.hpp"

namespace sg {

std::vector<double> descent_starts(const SweepSpec& sweep, long starts) {
  std::vector<double> out;
  for (long i = 0; i < starts; ++i)
    out.push_back(sweep.from +
                  (static_cast<double>(i) + 0.5) * (sweep.to - sweep.from) / static_cast<double>(starts));
  return out;
}

DescentPath descend_from(const Problem& problem, double start, const DescentSettings& settings,
                         const std::atomic<bool>* cancel) {
  const double lo = std::min(problem.sweep.from, problem.sweep.to);
  const double hi = std::max(problem.sweep.from, problem.sweep.to);
  PointEvaluator eval(problem);
  Adam adam;
  adam.lr = settings.lr;
  DescentPath path;
  path.start = start;
  double x = start;
  for (long i = 0; i <= settings.steps; ++i) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      path.status = "cancelled";
      break;
    }
    const LossSample s = eval.loss_and_grad(x);
    if (s.stats.status != Status::ok) {
      path.status = "step " + std::to_string(i) + ": " + describe_failure(s.stats);
      break;
    }
    path.x.push_back(x);
    path.loss.push_back(s.loss);
    path.grad.push_back(s.grad);
    adam.lr = descent_lr(settings, i);
    if (i < settings.steps) x = std::clamp(adam.step(x, s.grad), lo, hi);  // projected onto the range
  }
  return path;
}

DescentResult run_descent(const Problem& problem, const DescentControl& control) {
  const std::vector<double> starts = descent_starts(problem.sweep, problem.descent.starts);
  DescentResult result;
  result.paths.resize(starts.size());
  CallerPriorityArena arena(CallerPriorityArena::loop_threads(control.threads));
  arena.parallel_ranges(starts.size(), std::size_t{1}, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      result.paths[i] = descend_from(problem, starts[i], problem.descent, control.cancel);
      if (control.on_path) control.on_path(static_cast<long>(i), result.paths[i]);
    }
  });
  result.cancelled = control.cancel && control.cancel->load(std::memory_order_relaxed);
  return result;
}

}  // namespace sg
