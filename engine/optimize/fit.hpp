#pragma once
// Identification: several scene parameters at once, fitted to trajectory data (the mean squared position
// error of engine/gradient/trajectory_data.hpp) with derivatives from forward mode
// (engine/gradient/parameter_gradient.hpp).
//
// - lm (default): Levenberg-Marquardt on the position residuals. Forward mode gives their whole Jacobian in
//   ceil(P / 4) runs, and Gauss-Newton steps converge in tens of iterations where gradient descent needs
//   thousands; the damping (Marquardt's diagonal scaling) falls after a step that lowers the error and rises
//   after one that does not.
// - adam: gradient descent on the mean squared error, the learning rate decaying geometrically from lr to
//   lr_final (the last steps settle instead of circling the minimum).
// Each parameter moves in units of its start value (x = x0 + |x0| z), so friction 0.5, a time constant 0.005
// and a mass 0.1 take comparable steps; a parameter that starts positive stays positive (a step may at most
// halve it). Bounds (FitSettings::bounds): a step that would leave a closed range stops on its end, one that
// would reach an open end goes half the way there; in lm a parameter held on an end by the gradient sits
// out the next step's Gauss-Newton system (the other parameters still move).
//
// The result carries the standard error of each fitted value, from the Gauss-Newton covariance at the end:
// s^2 (J^T J)^-1 with s^2 = |r|^2 / (m - P), the residual variance per measured coordinate (an estimate of
// the measurement noise when the model is right). It is the local, linearised uncertainty: meaningful where
// the noise is small against the nonlinearity, and infinite for a parameter the data cannot tell apart from
// others (J^T J singular along it).
#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/optimize/rollouts.hpp"
#include "engine/scene/key_range.hpp"

namespace sg {

enum class FitMethod : unsigned char { lm, adam };

struct FitSettings {
  FitMethod method = FitMethod::lm;
  int steps = 200;         // iterations (lm: accepted steps)
  double lr = 0.05;        // first step size, relative to the start values
  double lr_final = 1e-3;  // last
  double tolerance = 0.0;  // stop once the objective is at or below this
  double lambda = 1e-3;    // lm: the first damping
  // adam's moment decays and denominator guard (DiffMJX's identification: 0.5, 0.9, 1e-6)
  double beta1 = 0.9, beta2 = 0.999, adam_eps = 1e-8;
  const std::atomic<bool>* cancel = nullptr;  // when set and true, the fit stops after the current step
  // adam: the gradient by reverse mode (one checkpointed taped run) instead of forward mode (ceil(P / 4)
  // runs of four lanes); worth it beyond about 12 parameters (docs/benchmarks.md).
  bool reverse = false;
  int threads = 1;                      // per gradient or Jacobian (ParameterGradient::set_threads)
  std::vector<scene::KeyRange> bounds;  // one per parameter, or empty: unbounded
  // adam: one Jacobian more at the end (ceil(P / 4) forward runs) for the standard errors; lm has it anyway.
  bool uncertainty = true;
  std::vector<bool> fixed;  // one per parameter, or empty: true keeps it at its start (profiles)
  // lm: stop once an accepted step lowers the error by no more than this fraction of it.
  double min_decrease = 1e-15;
};

struct FitStep {
  int iteration = 0;
  double loss = 0.0;
  std::vector<double> values, grad;
};

struct FitResult {
  std::vector<FitStep> path;  // one entry per accepted point; the last is where the fit ended
  std::string status = "ok";  // or why it failed
  std::string stopped;        // why it stopped: "steps", "tolerance", "no further decrease", "cancelled",
                              // "every number held"
  long runs = 0;              // simulations it took
  // At the last point: each value's standard error (inf where the data do not determine it; empty when not
  // computed), the residual standard deviation s (m), and which values ended on a bound.
  std::vector<double> std_error;
  double residual_sigma = std::numeric_limits<double>::quiet_NaN();
  std::vector<bool> at_bound;
  // The fitted values' correlations from the same covariance, P x P row-major (1 on the diagonal; NaN for a
  // number whose standard error is inf): near +-1 where the data trade one number against another.
  std::vector<double> correlation;
  // Per fitted number, why the data do not identify it ("" when they do;
  // engine/optimize/identifiability.hpp). Filled when the fit ran (status "ok"); the fit's status stays "ok",
  // its reports say "not identified".
  std::vector<std::string> not_identified;
};

// on_step (may be empty) sees every step as it is taken, for printing progress.
FitResult fit_parameters(ParameterGradient& gradient, const std::vector<double>& start,
                         const FitSettings& settings, const std::function<void(const FitStep&)>& on_step);
class TossObjective;  // engine/optimize/toss_segments.hpp

// The same over several rollouts at once (identify.rollouts).
FitResult fit_parameters(Rollouts& rollouts, const std::vector<double>& start, const FitSettings& settings,
                         const std::function<void(const FitStep&)>& on_step);
// The same on measured tosses cut into segments.
FitResult fit_parameters(TossObjective& tosses, const std::vector<double>& start, const FitSettings& settings,
                         const std::function<void(const FitStep&)>& on_step);

}  // namespace sg
