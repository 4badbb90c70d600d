#pragma once
// Where adaptive steps start and end, as Diffrax 0.7 decides it (engine-notes section 3): the times a solve
// must step to exactly (ClipStepSizeController's step_ts), the bump past a time just landed on, and the snap
// of a step's end onto the horizon (diffeqsolve's _clip_to_end). Comparisons are exact, as Diffrax's: a step
// that ends a hair short of a grid time is followed by a hair-long step, not absorbed.
#include <cmath>
#include <limits>

#include "engine/core/scalar.hpp"

namespace sg {

SG_HD inline double next_up(double t) {
  return std::nextafter(t, std::numeric_limits<double>::infinity());
}

// t lowered by n units in the last place (Diffrax: 100 prevbefore's of t1).
SG_HD inline double ulps_below(double t, int n) {
  for (int i = 0; i < n; ++i) t = std::nextafter(t, -std::numeric_limits<double>::infinity());
  return t;
}

// The end of the next step once the controller has proposed t_next: past floor (t1 less 100 ulps) it is t1
// on an accepted step; after a rejection, halfway from t_prev to t1 (a rejected step must get shorter).
// T is double, or the dual time of a solve differentiated through the controller.
template <class T>
SG_HD T clip_to_end(const T& t_prev, const T& t_next, double t1, double floor, bool accepted) {
  if (!(value(t_next) > floor)) return t_next;
  return accepted ? T(t1) : t_prev + 0.5 * (T(t1) - t_prev);
}

// The output grid t_k = k dt (k = 1..steps) and which of its times a step must end on: all of them when
// stepping to outputs, otherwise those where a timed force starts or stops (Diffrax has no such forces;
// the controls DiffMJX interpolates are continuous) and the last.
template <class Required>
class StepGrid {
 public:
  SG_HD StepGrid(double dt, long steps, Required required) : dt_(dt), steps_(steps), required_(required) {}

  SG_HD double time(long k) const { return dt_ * static_cast<double>(k); }
  SG_HD long steps() const { return steps_; }

  // The first time a step starting at t0 must stop at, clipping t1 (ClipStepSizeController.init: no bump).
  SG_HD double clip_first(double t0, double t1) { return clip_after(t0, t1); }

  // The same for a later step: a start on (or one ulp before) a grid time counts as past it, as
  // ClipStepSizeController's _bump_next_t0 decides.
  SG_HD double clip(double t0, double t1) { return clip_after(bumped(t0), t1); }

 private:
  SG_HD bool is_stop(double t) const {
    const long k = static_cast<long>(std::llround(t / dt_));
    for (long j = k - 1; j <= k + 1; ++j)
      if (j >= 1 && j <= steps_ && time(j) == t && required_(j)) return true;
    return false;
  }

  SG_HD double bumped(double t) const {
    const double up = next_up(t);
    if (is_stop(t)) return up;
    if (is_stop(up)) return next_up(up);
    return t;
  }

  // min(t1, the first stop strictly after t); hint_ makes the search linear over a solve.
  SG_HD double clip_after(double t, double t1) {
    while (hint_ <= steps_ && time(hint_) <= t) ++hint_;
    while (hint_ > 1 && time(hint_ - 1) > t) --hint_;
    long k = hint_;
    while (k <= steps_ && !required_(k)) ++k;
    if (k > steps_) return t1;
    const double stop = time(k);
    return stop < t1 ? stop : t1;
  }

  double dt_;
  long steps_;
  Required required_;
  long hint_ = 1;
};

}  // namespace sg
