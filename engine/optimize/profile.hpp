#pragma once
// Profile-likelihood intervals of a fit's numbers: each number in turn is held at values stepped away from
// its fitted one while the others are fitted again (Levenberg-Marquardt from the neighbouring point's fit),
// and the interval ends where the error has risen by the chi-square quantile of the level:
//
//   delta(v) = (|r(v)|^2 - |r_fit|^2) / s^2 <= chi2_1(level),   s^2 = |r_fit|^2 / (m - P)
//
// (Wilks; 1 for 68.3 %, 3.84 for 95 %). Where the model is linear in its numbers near the fit this is the
// fit's value plus and minus its standard error times the normal quantile; where it is not (a contact time
// constant, a damping ratio) the interval follows the error itself and may be lopsided, or open: the error
// may stay below the threshold up to a number's bound, or beyond the values scanned.
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/optimize/fit.hpp"

namespace sg {

struct ProfileSettings {
  double level = 0.6827;  // of the intervals, in (0, 1); 0.6827: one standard error where linear
  int max_points = 10;    // refits per side of each number at most
  FitSettings refit;      // the refits (bounds, threads, cancel); method, steps and fixed are the profile's
};

struct ProfilePoint {
  double value = 0.0;
  double delta = 0.0;  // the error's rise over the fit's, in units of s^2
  double loss = 0.0;   // the mean squared error with the other numbers fitted again
};

// How a side of an interval ends: where delta crossed the threshold; at the number's bound with delta still
// below it (the interval reaches the bound); beyond the last value scanned; at a refit that failed or was
// cancelled.
enum class ProfileEnd : unsigned char { crossed, bound, scan, failed, cancelled };
const char* profile_end_text(ProfileEnd end);
// An interval's end as shown: the value where delta crossed ("0.0144"), else the value reached and why
// ("0.05 (bound)", "< 0.012" or "> 2.4" where the scan did not reach the level, "refit failed").
std::string profile_end_label(double value, ProfileEnd end, bool lower);

struct ParameterProfile {
  std::vector<ProfilePoint> points;  // ascending values, the fit's own (delta 0) among them
  // The interval's ends: where delta crosses the threshold (interpolated in sqrt(delta), which is linear in
  // the value where the model is), else the last value reached on that side.
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  ProfileEnd lower_end = ProfileEnd::scan, upper_end = ProfileEnd::scan;
  std::string failure;  // the refit's status where a side ended failed
};

struct ProfileResult {
  std::string status = "ok";  // or why no profile could be made
  double level = 0.0, threshold = 0.0;
  std::vector<ParameterProfile> parameters;  // in the fit's order
  long runs = 0;                             // simulations the refits took
  bool cancelled = false;                    // refit.cancel stopped it: the sides not done end cancelled
  // Set when a refit found a lower error than the fit's own: the fit had not converged, and the intervals
  // (measured from the fit's error) are too wide there. The lowest such point: all numbers' values, its
  // error and where ("path = value").
  std::string note;
  std::vector<double> lowest_values;
  double lowest_loss = 0.0;
  std::string lowest_at;
  int restarts = 0;  // profile_with_restarts: the fits made again from a profile's lowest point
};

// The chi-square quantile with one degree of freedom at `level` (the square of the normal quantile of
// (1 + level) / 2).
double profile_threshold(double level);

// Another objective like the first (the same scene, paths and measurements), for one more thread.
using ObjectiveFactory = std::function<std::unique_ptr<Rollouts>()>;

// Profiles of every number fitted by `fit` (its last point, residual_sigma and std_error) on the same
// objective. With more_objectives, the two sides of each number are scanned on up to settings.refit.threads
// threads, each with its own objective (the results do not depend on the number of threads); without, on
// the caller's. on_point (may be empty) sees each refitted point, the number's index and the point, from
// whichever thread made it.
ProfileResult profile_parameters(Rollouts& objective, const FitResult& fit, const ProfileSettings& settings,
                                 const std::function<void(std::size_t, const ProfilePoint&)>& on_point,
                                 const ObjectiveFactory& more_objectives = {});

// What `fit --profile` and the Identify tab run: the profiles of `fit`; while a refit finds a lower error
// than the fit's (the fit stopped in a valley that is not the lowest, common where a number is weakly
// identified, or it had not converged), fit again from that point with fit_settings but by
// Levenberg-Marquardt (at least 50 steps: the intervals need the minimum itself) and profile the new fit, at
// most max_restarts times. fit becomes the last fit; on_restart sees each new one. The result's runs count
// the new fits' simulations too.
ProfileResult profile_with_restarts(Rollouts& objective, FitResult& fit, const FitSettings& fit_settings,
                                    const ProfileSettings& settings, int max_restarts,
                                    const std::function<void(std::size_t, const ProfilePoint&)>& on_point,
                                    const std::function<void(const FitResult&)>& on_restart,
                                    const ObjectiveFactory& more_objectives = {});

}  // namespace sg
