#include "engine/optimize/profile.hpp"

#include <algorithm>
#include <cmath>

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

// One step further on a side (dir = +1 or -1), inside the number's range: onto a closed end, half the way to
// an open one. Returns the value itself when it already sits on a closed end.
double next_value(double v, double dir, double step, const scene::KeyRange& range) {
  const double want = v + dir * step;
  if (dir < 0.0 && (want < range.min || (range.min_open && want <= range.min)))
    return range.min_open ? range.min + 0.5 * (v - range.min) : range.min;
  if (dir > 0.0 && (want > range.max || (range.max_open && want >= range.max)))
    return range.max_open ? range.max - 0.5 * (range.max - v) : range.max;
  return want;
}

class ProfileScan {
 public:
  ProfileScan(Rollouts& objective, const FitResult& fit, const ProfileSettings& settings, double threshold,
              const std::function<void(std::size_t, const ProfilePoint&)>& on_point)
      : objective_(objective),
        fit_(fit),
        settings_(settings),
        threshold_(threshold),
        on_point_(on_point),
        fitted_(fit.path.back().values),
        loss_fit_(fit.path.back().loss),
        samples_(static_cast<double>(objective.samples())) {}

  ParameterProfile parameter(std::size_t j, ProfileResult& result) {
    ParameterProfile p;
    p.points.push_back({fitted_[j], 0.0, loss_fit_});
    side(j, -1.0, p, result);
    side(j, +1.0, p, result);
    std::sort(p.points.begin(), p.points.end(),
              [](const ProfilePoint& a, const ProfilePoint& b) { return a.value < b.value; });
    return p;
  }

 private:
  Rollouts& objective_;
  const FitResult& fit_;
  const ProfileSettings& settings_;
  double threshold_;
  const std::function<void(std::size_t, const ProfilePoint&)>& on_point_;
  std::vector<double> fitted_;
  double loss_fit_, samples_;

  double sigma2() const { return fit_.residual_sigma * fit_.residual_sigma; }

  FitSettings refit_settings(std::size_t j) const {
    FitSettings s = settings_.refit;
    s.method = FitMethod::lm;
    s.steps = 50;
    s.min_decrease = 1e-10;
    s.fixed.assign(fitted_.size(), false);
    s.fixed[j] = true;
    return s;
  }

  void end_side(ParameterProfile& p, double dir, double value, ProfileEnd end) {
    (dir < 0.0 ? p.lower : p.upper) = value;
    (dir < 0.0 ? p.lower_end : p.upper_end) = end;
  }

  // One refit with number j held at v, from the other numbers' values in x; false when it failed.
  bool refit_at(std::size_t j, const FitSettings& refit, double v, const std::vector<double>& x,
                SideState& out, ParameterProfile& p, ProfileResult& result) {
    std::vector<double> start = x;
    start[j] = v;
    const FitResult r = fit_parameters(objective_, start, refit, {});
    result.runs += r.runs;
    if (r.stopped == "cancelled") {  // stopped before it converged: not a point of the profile
      result.cancelled = true;
      return false;
    }
    if (r.status != "ok" || r.path.empty()) {
      p.failure = r.status;
      return false;
    }
    const ProfilePoint point{v, (r.path.back().loss - loss_fit_) * samples_ / sigma2(), r.path.back().loss};
    p.points.push_back(point);
    const double lowest = result.lowest_values.empty() ? loss_fit_ : result.lowest_loss;
    if (point.loss < lowest * (1.0 - 1e-9)) {
      result.lowest_values = r.path.back().values;
      result.lowest_loss = point.loss;
      result.lowest_at = objective_.paths()[j] + " = " + scene::format_number(v);
    }
    if (on_point_) on_point_(j, point);
    out = SideState{v, std::sqrt(std::max(point.delta, 0.0)), r.path.back().values};
    return true;
  }

  // The value between below (sqrt(delta) under the threshold's) and above (over it) where sqrt(delta)
  // reaches the threshold's, on the straight line between them; refined by up to two refits there while
  // the point above is far past the threshold (a first step that overshot into the curved part).
  double crossing(std::size_t j, const FitSettings& refit, SideState below, SideState above,
                  ParameterProfile& p, ProfileResult& result) {
    const double target = std::sqrt(threshold_);
    auto line = [&] {
      return below.value + (target - below.root) / (above.root - below.root) * (above.value - below.value);
    };
    for (int k = 0; k < 2 && above.root > 1.3 * target; ++k) {
      SideState mid;
      if (!refit_at(j, refit, line(), below.x, mid, p, result)) break;
      (mid.root >= target ? above : below) = mid;
    }
    return line();
  }

  void side(std::size_t j, double dir, ParameterProfile& p, ProfileResult& result) {
    const scene::KeyRange range =
        settings_.refit.bounds.empty() ? scene::KeyRange{} : settings_.refit.bounds[j];
    const double root_threshold = std::sqrt(threshold_);
    SideState at{fitted_[j], 0.0, fitted_};
    double step = first_step(fitted_[j], j < fit_.std_error.size() ? fit_.std_error[j] : NAN, threshold_);
    const FitSettings refit = refit_settings(j);
    for (int k = 0; k < settings_.max_points; ++k) {
      if (result.cancelled || (settings_.refit.cancel && settings_.refit.cancel->load())) {
        result.cancelled = true;
        return end_side(p, dir, at.value, ProfileEnd::cancelled);
      }
      const double v = next_value(at.value, dir, step, range);
      if (v == at.value) return end_side(p, dir, v, ProfileEnd::bound);
      SideState next;
      if (!refit_at(j, refit, v, at.x, next, p, result))
        return end_side(p, dir, at.value, result.cancelled ? ProfileEnd::cancelled : ProfileEnd::failed);
      if (next.root >= root_threshold)
        return end_side(p, dir, crossing(j, refit, at, next, p, result), ProfileEnd::crossed);
      // Aim a little past the threshold along the straight line through the last two points' sqrt(delta).
      const double slope = (next.root - at.root) / std::fabs(v - at.value);
      const double aim = slope > 0.0 ? (1.1 * root_threshold - next.root) / slope : 2.0 * step;
      step = std::clamp(aim, 0.5 * std::fabs(v - at.value), 4.0 * std::fabs(v - at.value));
      at = next;
    }
    end_side(p, dir, at.value, ProfileEnd::scan);
  }
};

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
                                 const std::function<void(std::size_t, const ProfilePoint&)>& on_point) {
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
  ProfileScan scan(objective, fit, settings, result.threshold, on_point);
  for (std::size_t j = 0; j < fit.path.back().values.size(); ++j)
    result.parameters.push_back(scan.parameter(j, result));
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
                                    const std::function<void(const FitResult&)>& on_restart) {
  long runs = 0;
  for (int restart = 0;; ++restart) {
    ProfileResult profile = profile_parameters(objective, fit, settings, on_point);
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
    FitResult refit = fit_parameters(objective, profile.lowest_values, fit_settings, {});
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
