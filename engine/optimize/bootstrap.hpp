#pragma once
// Parametric bootstrap intervals of a fit's numbers: new measurements are drawn from the fitted model (its
// positions plus Gaussian noise of the fit's residual standard deviation s), the fit is made again on each,
// from the fitted values, and each number's interval runs between the quantiles (1 -+ level) / 2 of its
// refitted values. It asks "how far would the fit move if the noise were drawn again", without assuming
// the model linear near the fit (the standard error) or the error's rise chi-square (the profile); where
// the error surface has several valleys, the draws show it as a spread, a skew or a second mode.
//
// The draws are independent and each is seeded by (seed, draw index): the numbers are the same whatever
// the number of threads and whichever thread makes which draw.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/gradient/trajectory_data.hpp"
#include "engine/optimize/fit.hpp"

namespace sg {

struct BootstrapSettings {
  int draws = 100;        // refits, >= 2
  double level = 0.6827;  // of the intervals, in (0, 1)
  unsigned long seed = 1;
  FitSettings refit;  // bounds, steps, threads, cancel; always Levenberg-Marquardt
  // Where each refit starts: empty, the fitted values (the draws explore the fit's own valley); else these
  // values, the first fit's start (each draw repeats the whole estimate, valleys it may stop in included).
  std::vector<double> start;
};

struct BootstrapResult {
  std::string status = "ok";  // or why no intervals could be made
  double level = 0.0;
  int requested = 0;
  // The refitted values of every draw whose refit succeeded, in draw order (P numbers each).
  std::vector<std::vector<double>> draws;
  std::vector<int> draw_index;  // each one's draw number (its seed with settings.seed)
  int failed = 0;               // draws whose refit failed (their simulation, or the fit)
  std::string first_failure;    // the first failed draw's status
  bool cancelled = false;       // refit.cancel stopped it: the draws made so far are kept
  // Per number, over the successful draws: the quantiles (1 - level) / 2 and (1 + level) / 2, the median
  // and the standard deviation (comparable with the fit's standard error).
  std::vector<double> lower, upper, median, spread;
  long runs = 0;  // simulations the refits took
};

// The measured coordinates of one draw: each sample of `measured` replaced by the fitted model's position
// (measured + residual, the residuals in data order: 3 per sample) plus Gaussian noise sigma. The data sets
// are in the order of the residuals (the scene's run, then each rollout's).
std::vector<TrajectoryData> bootstrap_measurements(const std::vector<const TrajectoryData*>& measured,
                                                   const std::vector<double>& residuals, double sigma,
                                                   unsigned long seed, int draw);

// An objective like the fitted one (the same scene and paths) on other measurements, which must outlive it.
using DrawObjective = std::function<std::unique_ptr<Rollouts>(const std::vector<TrajectoryData>&)>;

// The bootstrap of `fit` (finished, with its residual_sigma) made on `objective` over `measured`: draws on
// up to settings.refit.threads threads, each refit on its own objective from objective_for. on_draw (may be
// empty) sees each finished draw's index and refitted values (empty when it failed), from whichever thread
// made it.
BootstrapResult bootstrap_parameters(
    Rollouts& objective, const std::vector<const TrajectoryData*>& measured, const FitResult& fit,
    const BootstrapSettings& settings, const DrawObjective& objective_for,
    const std::function<void(int, const std::vector<double>&)>& on_draw = {});

// The q-quantile of sorted values (linear between order statistics, as R's type 7 and numpy's default).
double sorted_quantile(const std::vector<double>& sorted, double q);

}  // namespace sg
