#pragma once
// Identification as a scene describes it (identify.*, docs/identification.md): measurements synthesised
// from the scene itself (its own values are the truth, plus identify.noise), then a fit of
// identify.parameters from their start values (engine/optimize/fit.hpp). `softgrad fit` without --data and
// the GUI's Identify tab both run it.
#include <string>
#include <vector>

#include "engine/optimize/bootstrap.hpp"
#include "engine/optimize/fit.hpp"
#include "engine/optimize/profile.hpp"

namespace sg {

struct IdentifySetup {
  std::vector<std::string> paths;
  std::vector<double> truth, start;  // the scene's values of the paths, and where the fit starts
  TrajectoryData data;               // the scene's own run
  // identify.rollouts: the scene with each rollout's number set, and its measurements (noise seeded
  // identify.seed + 1 + k).
  std::vector<Problem> rollouts;
  std::vector<TrajectoryData> rollout_data;
  std::string status = "ok";  // or why the measurements could not be made
  long samples() const;       // in all rollouts
  // The measurements in the objective's order: the scene's run, then each rollout's.
  std::vector<const TrajectoryData*> measured() const;
};

// The objective of a fit of `paths` to the setup's measurements: the scene's run and every rollout.
// Throws std::invalid_argument as ParameterGradient does, and for a path a rollout sets.
Rollouts rollouts_of(const Problem& problem, const IdentifySetup& setup,
                     const std::vector<std::string>& paths);

// The scene's body positions at every output time, each coordinate with Gaussian noise of standard
// deviation `noise` metres. False (with *error) when the simulation fails.
bool synthetic_measurements(const Problem& problem, double noise, unsigned long seed, TrajectoryData* out,
                            std::string* error);

// The paths, truth and start values of the scene's identify section (empty when it lists none) and the
// synthetic measurements (also for a scene that lists none: `fit --wrt` fits them too).
IdentifySetup identify_setup(const Problem& problem);

// The range a fit keeps each of `paths` in: the key's own range (friction >= 0, solimp within (0, 1), ...),
// narrowed by identify.parameters.*.min / max for a path the identify section lists.
std::vector<scene::KeyRange> fit_bounds(const Problem& problem, const std::vector<std::string>& paths);

// identify.method, identify.steps and the bounds of identify.parameters as fit settings.
FitSettings identify_settings(const Problem& problem);

// The fit of setup.paths to setup.data from setup.start; on_step sees every step as it is taken.
FitResult run_identification(const Problem& problem, const IdentifySetup& setup, const FitSettings& settings,
                             const std::function<void(const FitStep&)>& on_step);

// The profile-likelihood intervals at `level` (identify.level, or the command line's) of a finished
// identification `fit` made with `settings`, on the same measurements (setup.paths), each side on its own
// objective; fitting again from a lower point a profile finds (profile_with_restarts, at most
// kProfileRestarts times; fit becomes the last fit, on_restart sees each); on_point sees each refitted point.
constexpr int kProfileRestarts = 3;
ProfileResult run_identification_profile(
    const Problem& problem, const IdentifySetup& setup, FitResult& fit, const FitSettings& settings,
    double level, const std::function<void(std::size_t, const ProfilePoint&)>& on_point,
    const std::function<void(const FitResult&)>& on_restart);

// The parametric bootstrap (engine/optimize/bootstrap.hpp) of a finished identification `fit` made with
// `settings`: `draws` refits on measurements drawn from the fitted model with identify.seed, each from
// `start` (empty: from the fitted values), intervals at `level`; on_draw sees each finished draw (from the
// thread that made it).
BootstrapResult run_identification_bootstrap(
    const Problem& problem, const IdentifySetup& setup, const FitResult& fit, const FitSettings& settings,
    int draws, double level, const std::vector<double>& start,
    const std::function<void(int, const std::vector<double>&)>& on_draw);

}  // namespace sg
