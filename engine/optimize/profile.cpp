#include "engine/optimize/profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "engine/gradient/helper_threads.hpp"
#include "engine/scene/describe.hpp"

namespace sg {
namespace {

// Where one side's scan stands: the last point's value, its sqrt(delta) and the other numbers' fit there
// (the next refit starts from them).
struct SideState {
  double value = 0.0, root = 0.0;
  std::vector<double> x;
};

// The first step away from the fit: about half the threshold's way where the standard error says how far
// that is, else a twentieth of the value's size.
double first_step(double fitted, double std_error, double threshold) {
  if (std::isfinite(std_error) && std_error > 0.0) return 0.7 * std_error * std::sqrt(threshold);
  return 0.05 * (fitted != 0.0 ? std::fabs(fitted) : 1.0);
}

// What one side of one number's scan found.
struct SideResult {
  std::vector<ProfilePoint> points;
  double end_value = 0.0;
  ProfileEnd end = ProfileEnd::scan;
  std::string failure;
  long runs = 0;
  bool cancelled = false;
  std::vector<double> lowest_values;  // the lowest error below the fit's among its refits, if any
  double lowest_loss = 0.0, lowest_at = 0.0;
};

// One side (dir = -1 or +1) of number j's profile, on `objective` (one thread's).
class SideScan {
 public:
  SideScan(Rollouts& objective, const FitResult& fit, const ProfileSettings& settings, double threshold,
           const std::function<void(std::size_t, const ProfilePoint&)>& on_point, std::size_t j)
      : objective_(objective),
        fit_(fit),
        settings_(settings),
        threshold_(threshold),
        on_point_(on_point),
        j_(j),
        fitted_(fit.path.back().values),
        loss_fit_(fit.path.back().loss),
        samples_(static_cast<double>(objective.samples())) {
    refit_ = settings.refit;
    refit_.method = FitMethod::lm;
    refit_.steps = 50;
    refit_.min_decrease = 1e-10;
    refit_.fixed.assign(fitted_.size(), false);
    refit_.fixed[j] = true;
  }

  SideResult run(double dir) {
    scene::KeyRange range = settings_.refit.bounds.empty() ? scene::KeyRange{} : settings_.refit.bounds[j_];
    // A positive number stays positive, as in the fit (a time constant through 0 would become a stiffness).
    if (fitted_[j_] > 0.0 && range.min < 0.0) range = range.narrowed({0.0, range.max, true, range.max_open});
    const double root_threshold = std::sqrt(threshold_);
    SideState at{fitted_[j_], 0.0, fitted_};
    double step = first_step(fitted_[j_], j_ < fit_.std_error.size() ? fit_.std_error[j_] : NAN, threshold_);
    for (int k = 0; k < settings_.max_points; ++k) {
      if (settings_.refit.cancel && settings_.refit.cancel->load()) out_.cancelled = true;
      if (out_.cancelled) return finish(at.value, ProfileEnd::cancelled);
      const double v = range.step_toward(at.value, at.value + dir * step);  // inside its range
      if (v == at.value) return finish(v, ProfileEnd::bound);
      SideState next;
      if (!refit_at(v, at.x, next))
        return finish(at.value, out_.cancelled ? ProfileEnd::cancelled : ProfileEnd::failed);
      if (next.root >= root_threshold) return finish(crossing(at, next), ProfileEnd::crossed);
      // Aim a little past the threshold along the straight line through the last two points' sqrt(delta).
      const double slope = (next.root - at.root) / std::fabs(v - at.value);
      const double aim = slope > 0.0 ? (1.1 * root_threshold - next.root) / slope : 2.0 * step;
      step = std::clamp(aim, 0.5 * std::fabs(v - at.value), 4.0 * std::fabs(v - at.value));
      at = next;
    }
    return finish(at.value, ProfileEnd::scan);
  }

 private:
  Rollouts& objective_;
  const FitResult& fit_;
  const ProfileSettings& settings_;
  double threshold_;
  const std::function<void(std::size_t, const ProfilePoint&)>& on_point_;
  std::size_t j_;
  std::vector<double> fitted_;
  double loss_fit_, samples_;
  FitSettings refit_;
  SideResult out_;

  SideResult finish(double value, ProfileEnd end) {
    out_.end_value = value;
    out_.end = end;
    return std::move(out_);
  }

  // One refit with number j held at v, from the other numbers' values in x; false when it failed or was
  // cancelled (out_.cancelled).
  bool refit_at(double v, const std::vector<double>& x, SideState& next) {
    std::vector<double> start = x;
    start[j_] = v;
    const FitResult r = fit_parameters(objective_, start, refit_, {});
    out_.runs += r.runs;
    if (r.stopped == "cancelled") {  // stopped before it converged: not a point of the profile
      out_.cancelled = true;
      return false;
    }
    if (r.status != "ok" || r.path.empty()) {
      out_.failure = r.status;
      return false;
    }
    const double s2 = fit_.residual_sigma * fit_.residual_sigma;
    const ProfilePoint point{v, (r.path.back().loss - loss_fit_) * samples_ / s2, r.path.back().loss};
    out_.points.push_back(point);
    const double lowest = out_.lowest_values.empty() ? loss_fit_ : out_.lowest_loss;
    if (point.loss < lowest * (1.0 - 1e-9)) {
      out_.lowest_values = r.path.back().values;
      out_.lowest_loss = point.loss;
      out_.lowest_at = v;
    }
    if (on_point_) on_point_(j_, point);
    next = SideState{v, std::sqrt(std::max(point.delta, 0.0)), r.path.back().values};
    return true;
  }

  // The value between below (sqrt(delta) under the threshold's) and above (over it) where sqrt(delta)
  // reaches the threshold's, on the straight line between them; refined by up to two refits there while
  // the point above is far past the threshold (a first step that overshot into the curved part).
  double crossing(SideState below, SideState above) {
    const double target = std::sqrt(threshold_);
    auto line = [&] {
      return below.value + (target - below.root) / (above.root - below.root) * (above.value - below.value);
    };
    for (int k = 0; k < 2 && above.root > 1.3 * target; ++k) {
      SideState mid;
      if (!refit_at(line(), below.x, mid)) break;
      (mid.root >= target ? above : below) = mid;
    }
    return line();
  }
};

// Number j's profile from its two sides (lower first) and the fit's own point.
ParameterProfile merge_sides(double fitted, double loss_fit, SideResult& lower, SideResult& upper) {
  ParameterProfile p;
  p.points.push_back({fitted, 0.0, loss_fit});
  for (SideResult* side : {&lower, &upper}) {
    p.points.insert(p.points.end(), side->points.begin(), side->points.end());
    if (!side->failure.empty()) p.failure = side->failure;
  }
  std::sort(p.points.begin(), p.points.end(),
            [](const ProfilePoint& a, const ProfilePoint& b) { return a.value < b.value; });
  p.lower = lower.end_value;
  p.lower_end = lower.end;
  p.upper = upper.end_value;
  p.upper_end = upper.end;
  return p;
}

}  // namespace

const char* profile_end_text(ProfileEnd end) {
  switch (end) {
    case ProfileEnd::crossed:
      return "crossed";
    case ProfileEnd::bound:
      return "bound";
    case ProfileEnd::scan:
      return "not reached";
    case ProfileEnd::failed:
      return "refit failed";
    case ProfileEnd::cancelled:
      return "cancelled";
  }
  return "?";
}

std::string profile_end_label(double value, ProfileEnd end, bool lower) {
  char buf[64];
  switch (end) {
    case ProfileEnd::crossed:
      std::snprintf(buf, sizeof buf, "%.6g", value);
      break;
    case ProfileEnd::bound:
      std::snprintf(buf, sizeof buf, "%.6g (bound)", value);
      break;
    case ProfileEnd::scan:
      std::snprintf(buf, sizeof buf, "%s%.6g", lower ? "< " : "> ", value);
      break;
    default:
      return profile_end_text(end);
  }
  return buf;
}

double profile_threshold(double level) {
  // The normal quantile z of (1 + level) / 2: erf(z / sqrt 2) = level, by bisection (erf is monotone).
  double lo = 0.0, hi = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (std::erf(mid / std::sqrt(2.0)) < level ? lo : hi) = mid;
  }
  const double z = 0.5 * (lo + hi);
  return z * z;
}

ProfileResult profile_parameters(Rollouts& objective, const FitResult& fit, const ProfileSettings& settings,
                                 const std::function<void(std::size_t, const ProfilePoint&)>& on_point,
                                 const ObjectiveFactory& more_objectives) {
  ProfileResult result;
  result.level = settings.level;
  if (!(settings.level > 0.0 && settings.level < 1.0)) {
    result.status = "the level must be in (0, 1), not " + scene::format_number(settings.level);
    return result;
  }
  result.threshold = profile_threshold(settings.level);
  if (fit.path.empty() || fit.status != "ok") {
    result.status = "the fit did not end at a point to profile";
    return result;
  }
  if (!(fit.residual_sigma > 0.0) || !std::isfinite(fit.residual_sigma)) {
    result.status =
        "no residual variance at the fit (fewer measured coordinates than numbers, or an exact "
        "fit): profiles need the error's scale";
    return result;
  }
  // Each side of each number on one thread, with that thread's objective (the caller's, or one more).
  const std::size_t n = fit.path.back().values.size();
  const int threads = more_objectives ? std::max(1, settings.refit.threads) : 1;
  ProfileSettings per_thread = settings;
  if (threads > 1) per_thread.refit.threads = 1;  // the sides are the parallel work
  std::vector<std::unique_ptr<Rollouts>> extra(static_cast<std::size_t>(threads));
  std::vector<SideResult> sides(2 * n);
  for_each_index(2 * n, threads, [&](std::size_t k, int thread) {
    Rollouts* own = &objective;
    if (thread > 0) {
      std::unique_ptr<Rollouts>& slot = extra[static_cast<std::size_t>(thread)];
      if (!slot) slot = more_objectives();
      own = slot.get();
    }
    SideScan scan(*own, fit, per_thread, result.threshold, on_point, k / 2);
    sides[k] = scan.run(k % 2 == 0 ? -1.0 : 1.0);
  });
  const double loss_fit = fit.path.back().loss;
  for (std::size_t j = 0; j < n; ++j) {
    result.parameters.push_back(
        merge_sides(fit.path.back().values[j], loss_fit, sides[2 * j], sides[2 * j + 1]));
    for (const SideResult* side : {&sides[2 * j], &sides[2 * j + 1]}) {
      result.runs += side->runs;
      result.cancelled = result.cancelled || side->cancelled;
      if (!side->lowest_values.empty() &&
          side->lowest_loss < (result.lowest_values.empty() ? loss_fit : result.lowest_loss)) {
        result.lowest_values = side->lowest_values;
        result.lowest_loss = side->lowest_loss;
        result.lowest_at = objective.paths()[j] + " = " + scene::format_number(side->lowest_at);
      }
    }
  }
  if (!result.lowest_values.empty())
    result.note = "the refit at " + result.lowest_at + " found a lower error (" +
                  scene::format_number(result.lowest_loss) + ") than the fit's (" +
                  scene::format_number(fit.path.back().loss) +
                  "): the fit had not converged, and the intervals are too wide there";
  return result;
}

ProfileResult profile_with_restarts(Rollouts& objective, FitResult& fit, const FitSettings& fit_settings,
                                    const ProfileSettings& settings, int max_restarts,
                                    const std::function<void(std::size_t, const ProfilePoint&)>& on_point,
                                    const std::function<void(const FitResult&)>& on_restart,
                                    const ObjectiveFactory& more_objectives) {
  long runs = 0;
  for (int restart = 0;; ++restart) {
    ProfileResult profile = profile_parameters(objective, fit, settings, on_point, more_objectives);
    runs += profile.runs;
    const bool again = profile.status == "ok" && !profile.cancelled && !profile.lowest_values.empty() &&
                       restart < max_restarts;
    if (!again) {
      profile.runs = runs;
      profile.restarts = restart;
      if (restart > 0)
        profile.note = "fitted again from the profile's lowest point " + std::to_string(restart) + " time" +
                       (restart > 1 ? "s" : "") + (profile.note.empty() ? "" : "; " + profile.note);
      return profile;
    }
    // Levenberg-Marquardt, as the profile's own refits, whatever the first fit's method: the intervals
    // need the minimum itself.
    FitSettings again_settings = fit_settings;
    again_settings.method = FitMethod::lm;
    again_settings.steps = std::max(again_settings.steps, 50);
    FitResult refit = fit_parameters(objective, profile.lowest_values, again_settings, {});
    runs += refit.runs;
    if (refit.status != "ok" || refit.path.empty() || refit.stopped == "cancelled") {
      profile.runs = runs;
      profile.restarts = restart;
      profile.note += "; fitting again from there failed: " +
                      (refit.status != "ok" ? refit.status : std::string("cancelled"));
      return profile;
    }
    fit = std::move(refit);
    if (on_restart) on_restart(fit);
  }
}

}  // namespace sg
