#pragma once
// Locating the first switching time inside an accepted step of a hybrid system (engine/integrate/events.hpp):
// regula falsi with the Illinois modification (bisection as a fallback) on the mode margin along the step's
// interpolant (engine/integrate/dense_output.hpp). Each margin evaluation costs about one right-hand side.
#include "engine/integrate/dense_output.hpp"
#include "engine/integrate/events.hpp"
#include "engine/integrate/rk_step.hpp"

namespace sg {

struct EventLocation {
  bool found = false;
  double theta = 1.0;  // where the located step ends, as a fraction of the trial step: just past the crossing
  EventId id;          // the switching function crossed there
  int evaluations = 0;
};

// The trial step went from y0 to ws.y1 over h with stages ws.k. end_margin is the margin the system
// reported at y1 (its last evaluation). The located time is within jump_tol (in time units) of the
// interpolant's crossing when the vector field jumps there, within smooth_tol where it only kinks (a row
// switch: an error in the switching time then costs its square). tmp: scratch for one state.
template <const Tableau& tab, class System>
SG_HD SG_NOINLINE EventLocation locate_event(const System& sys, const typename System::Scalar* y0,
                                             RkWorkspace<System>& ws, double h, double end_margin,
                                             const EventId& end_witness, double jump_tol, double smooth_tol) {
  const TapePause<typename System::Scalar> values_only(true);  // a time and an id: no derivatives
  const int n = sys.dim();
  EventLocation loc;
  MarginTracker& tracker = sys.margins();
  // The secant runs on the crossing function's own margin (the smallest one mixes units: metres for contacts,
  // m/s^2 for rows); the smallest one's sign catches any function that crosses earlier.
  struct Sample {
    double min;  // the smallest margin
    EventId id;  // whose
    double own;  // the target function's margin (+huge when it was not evaluated)
  };
  auto sample = [&](double theta) {
    dense_state<tab>(y0, ws.y1, ws.k, h, theta, n, ws.ytmp);
    ++loc.evaluations;
    Sample s;
    s.min = sys.margin_at(ws.ytmp, &s.id);
    s.own = tracker.target_margin;
    return s;
  };
  tracker.has_target = true;
  tracker.target = end_witness;
  double lo = 0.0, hi = 1.0;
  const Sample at_start = sample(0.0);
  if (at_start.min < 0.0) {  // the mode no longer fits at the step's start: switch there
    tracker.has_target = false;
    loc.found = true;
    loc.theta = 0.0;
    loc.id = at_start.id;
    return loc;
  }
  double own_lo = at_start.own, own_hi = end_margin;
  EventId id_hi = end_witness;
  if (!(end_margin < 0.0)) {
    // Only an inner stage left the mode: look for the crossing on a coarse grid of the dense output.
    constexpr int kGrid = 8;
    bool bracketed = false;
    for (int k = 1; k < kGrid && !bracketed; ++k) {
      const double theta = static_cast<double>(k) / kGrid;
      const Sample s = sample(theta);
      if (s.min < 0.0) {
        hi = theta, id_hi = s.id, bracketed = true;
        own_hi = s.min, own_lo = 1e300;  // a new target, unknown at lo: bisect first
        tracker.target = s.id;
      } else {
        lo = theta, own_lo = s.own;
      }
    }
    if (!bracketed) {  // not visible on the dense output: the caller shortens the step instead
      tracker.has_target = false;
      return loc;
    }
  }
  int side = 0;
  double width_before = 2.0 * (hi - lo);
  for (int it = 0; it < 100; ++it) {
    const double time_tol = event_jumps(id_hi.kind) ? jump_tol : smooth_tol;
    if ((hi - lo) * h <= time_tol) break;
    const bool known = own_lo < 1e299 && own_lo > own_hi;
    double theta = known ? hi - own_hi * (hi - lo) / (own_hi - own_lo) : 0.5 * (lo + hi);
    // Bisect when two iterations did not halve the bracket, and whenever the secant point is not strictly
    // inside; never closer to an end than the tolerance: once the estimate has converged (regula falsi keeps
    // one end fixed), this probe closes the bracket on the other side.
    const bool slow = it % 2 == 1 && (hi - lo) > 0.5 * width_before;
    if (it % 2 == 1) width_before = hi - lo;
    if (!(theta > lo && theta < hi) || slow) theta = 0.5 * (lo + hi);
    const double tol_theta = 0.99 * time_tol / h;
    if (theta - lo < tol_theta) theta = lo + tol_theta;
    if (hi - theta < tol_theta) theta = hi - tol_theta;
    const Sample s = sample(theta);
    if (s.min < 0.0) {
      if (!same_switching_function(s.id, tracker.target)) {  // another function crossed before: follow it
        tracker.target = s.id;
        own_lo = 1e300;
        side = 0;
      } else if (side == -1) {
        own_lo *= 0.5;
      }
      hi = theta, id_hi = s.id, own_hi = s.min;
      side = -1;
    } else {
      lo = theta, own_lo = s.own;
      if (side == +1) own_hi *= 0.5;
      side = +1;
    }
  }
  tracker.has_target = false;
  loc.found = true;
  loc.theta = hi;
  loc.id = id_hi;
  return loc;
}

}  // namespace sg
