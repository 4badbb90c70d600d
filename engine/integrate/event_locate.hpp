#pragma once
// Locating the first switching time inside an accepted step of a hybrid system (engine/integrate/events.hpp):
// regula falsi with the Illinois modification (bisection as a fallback) on the mode margin along the step's
// Hermite interpolant. Each margin evaluation costs about one right-hand side.
#include "engine/integrate/dense_output.hpp"
#include "engine/integrate/events.hpp"
#include "engine/integrate/rk_step.hpp"

namespace sg {

struct EventLocation {
  bool found = false;
  double theta = 1.0;  // where the located step ends, as a fraction of the trial step: just past the crossing
  EventId id;          // the switching function crossed there
  double rate = 0.0;   // how fast the margin falls there (per unit time), from the final bracket
  int evaluations = 0;
};

// The trial step went from y0 to ws.y1 over h with stages ws.k. end_margin is the margin the system
// reported at y1 (its last evaluation). The located time is within jump_tol (in time units) of the
// interpolant's crossing when the vector field jumps there, within smooth_tol where it only kinks (a row
// switch: an error in the switching time then costs its square). tmp: scratch for one state.
template <const Tableau& tab, class System>
SG_HD EventLocation locate_event(const System& sys, const typename System::Scalar* y0,
                                 RkWorkspace<System>& ws, double h, double end_margin,
                                 const EventId& end_witness, double jump_tol, double smooth_tol) {
  const int n = sys.dim();
  EventLocation loc;
  auto margin = [&](double theta, EventId* id) {
    dense_state<tab>(y0, ws.y1, ws.k, h, theta, n, ws.ytmp);
    ++loc.evaluations;
    return sys.margin_at(ws.ytmp, id);
  };
  double lo = 0.0, hi = 1.0;
  EventId id_lo, id_hi = end_witness;
  double m_lo = margin(0.0, &id_lo), m_hi = end_margin;
  if (m_lo < 0.0) {  // the mode no longer fits at the step's start: switch there
    loc.found = true;
    loc.theta = 0.0;
    loc.id = id_lo;
    return loc;
  }
  if (!(m_hi < 0.0)) {
    // Only an inner stage left the mode: look for the crossing on a coarse grid of the interpolant.
    constexpr int kGrid = 8;
    bool bracketed = false;
    for (int k = 1; k < kGrid && !bracketed; ++k) {
      const double theta = static_cast<double>(k) / kGrid;
      EventId id;
      const double m = margin(theta, &id);
      if (m < 0.0) {
        hi = theta, m_hi = m, id_hi = id;
        bracketed = true;
      } else {
        lo = theta, m_lo = m;
      }
    }
    if (!bracketed) return loc;  // not visible on the interpolant: the caller shortens the step instead
  }
  double true_lo = m_lo, true_hi = m_hi;  // the Illinois modification scales m_lo, m_hi; not these
  int side = 0;
  double width_before = 2.0 * (hi - lo);
  for (int it = 0; it < 100; ++it) {
    const double time_tol = event_jumps(id_hi.kind) ? jump_tol : smooth_tol;
    if ((hi - lo) * h <= time_tol) break;
    double theta = hi - m_hi * (hi - lo) / (m_hi - m_lo);
    // Regula falsi can crawl along a kinked margin (a minimum over several functions): bisect when two
    // iterations did not halve the bracket, and whenever the secant point is not strictly inside.
    const bool slow = it % 2 == 1 && (hi - lo) > 0.5 * width_before;
    if (it % 2 == 1) width_before = hi - lo;
    if (!(theta > lo && theta < hi) || slow) theta = 0.5 * (lo + hi);
    // Never closer to an end than the tolerance: once the estimate has converged (regula falsi keeps one end
    // fixed), this probe closes the bracket on the other side.
    const double tol_theta = 0.99 * time_tol / h;
    if (theta - lo < tol_theta) theta = lo + tol_theta;
    if (hi - theta < tol_theta) theta = hi - tol_theta;
    EventId id;
    const double m = margin(theta, &id);
    if (m < 0.0) {
      hi = theta, m_hi = true_hi = m, id_hi = id;
      if (side == -1) m_lo *= 0.5;
      side = -1;
    } else {
      lo = theta, m_lo = true_lo = m;
      if (side == +1) m_hi *= 0.5;
      side = +1;
    }
  }
  loc.found = true;
  loc.theta = hi;
  loc.id = id_hi;
  if (hi > lo) loc.rate = (true_lo - true_hi) / ((hi - lo) * h);
  return loc;
}

}  // namespace sg
