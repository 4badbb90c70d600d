#pragma once
// Evaluates one sweep point: the loss and its forward-mode gradient (one Dual<1> run), the central finite
// difference (two double runs), and optionally the randomized-smoothing estimates.
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/dual.hpp"
#include "engine/gradient/point_core.hpp"
#include "engine/problem/problem.hpp"
#include "engine/simulate/run.hpp"

namespace sg {

using Dual1 = Dual<1>;

struct PointResult {
  double value = 0.0;  // the swept parameter
  double loss = 0.0;
  double grad = 0.0;     // forward-mode AD
  double grad_fd = 0.0;  // central finite difference
  // The tight reference of gradient.reference fd_tight or ad_tight (engine/gradient/reference.hpp); NaN
  // with the default reference, which is grad_fd.
  double grad_ref = std::numeric_limits<double>::quiet_NaN();
  std::string status = "ok";
  long steps = 0;     // accepted steps of the AD run
  long rejected = 0;  // rejected attempts of the AD run
  long events = 0;    // contact switches located in the AD run (integrator.events)
  // Randomized smoothing (when gradient.smoothing.samples > 0), NaN otherwise.
  double loss_smoothed = 0.0;
  double grad_zeroth = 0.0;  // zeroth order: E[(L(x+w) - L(x)) w] / sigma^2
  double grad_first = 0.0;   // first order: E[dL/dx (x+w)]
};

class PointEvaluator {
 public:
  // Copies what it needs from the problem, so it may outlive it.
  explicit PointEvaluator(const Problem& problem);

  PointResult evaluate(double x);
  LossSample loss_and_grad(double x);  // one Dual<1> run, or by gradient.mode's reverse or backsolve
  LossSample loss_only(double x);      // one double run

  // The runs of evaluate_point (engine/gradient/point_core.hpp) with the given integrator settings.
  LossSample ad(double x, const IntegratorSettings& cfg);  // dual, or taped with gradient.mode = reverse
  LossSample plain(double x, const IntegratorSettings& cfg);
  const PointSettings& settings() const { return settings_; }

 private:
  LossSample dual_run(double x, const IntegratorSettings& cfg);
  ProblemData<double> double_problem(double x) const;  // the swept number at x
  PointSettings settings_;  // the scene's and the tight integrator, the FD step and the reference
  ProblemData<double> base_;
  ProblemData<Dual1> base_dual_;
  IntegratorSettings integrator_;
  GradientSettings gradient_;
  std::ptrdiff_t offset_double_ = 0, offset_dual_ = 0;
  std::unique_ptr<SimWorkspace<double>> ws_double_;
  std::unique_ptr<SimWorkspace<Dual1>> ws_dual_;
  // Reverse mode and backsolve (gradient.mode = reverse, backsolve), built on first use.
  LossSample loss_and_grad_reverse(double x, const IntegratorSettings& cfg);
  LossSample loss_and_grad_backsolve(double x, const IntegratorSettings& cfg);
  std::unique_ptr<ProblemData<Rev>> taped_problem(double x, int* leaf);
  static LossSample taped_sample(const SolveStats& stats, double loss, double grad);
  std::unique_ptr<ProblemData<Rev>> base_rev_;
  std::ptrdiff_t offset_rev_ = 0;
  std::unique_ptr<SimWorkspace<Rev>> ws_rev_;
  long tape_hint_ = 0;
  std::string sweep_parameter_;
  std::vector<double> noise_;  // the smoothing samples, the same at every point (common random numbers)
};

// Human-readable reason for a failed run, e.g. "max_steps at t=0.53".
std::string describe_failure(const SolveStats& st);

// The integrator settings, FD step and reference of a problem's points (the tight integrator included).
PointSettings point_settings(const Problem& problem);

// A point's numbers as the sweep reports them: the failure, if any, as its status text.
PointResult point_result(const PointNumbers& n, const GradientSettings& gradient,
                         const IntegratorSettings& integrator);

}  // namespace sg
