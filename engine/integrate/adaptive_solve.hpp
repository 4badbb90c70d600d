#pragma once
// Adaptive embedded Runge-Kutta (Bosh3, Dopri5, Tsit5) under a PID controller, with Diffrax's semantics:
// one solve over the horizon, landing exactly on every output time; max_steps counts every attempt; by
// default the step sizes are frozen for differentiation (the gradient is that of the discrete map with the
// accepted steps held fixed), optionally differentiated through the controller.
//
// On hybrid systems (contact models, engine/integrate/events.hpp) with cfg.events on, the system's mode is
// held fixed during each step, so that every step integrates a smooth vector field, and steps end at located
// switches (engine/integrate/event_step.hpp). With cfg.events off the solver steps across them as DiffMJX.
#include "engine/integrate/controller.hpp"
#include "engine/integrate/event_step.hpp"
#include "engine/integrate/initial_step.hpp"
#include "engine/integrate/observer.hpp"
#include "engine/integrate/rk_step.hpp"

namespace sg {

// Whether the system's forces jump at output time i (timed forces); systems that do not say are assumed to.
template <class System>
SG_HD inline bool forces_change_at(const System& sys, long i) {
  if constexpr (requires { sys.forces_change_at(i); }) {
    return sys.forces_change_at(i);
  } else {
    (void)sys, (void)i;
    return true;
  }
}

// H = double (frozen steps) or the system's scalar (through the controller).
template <class H, class S>
SG_HD inline H as_step(const S& x) {
  if constexpr (is_dual_v<H>) {
    return x;
  } else {
    return value(x);
  }
}

// The tableau is a template argument so that its coefficients are compile-time constants in the stages.
template <const Tableau& tab, class H, class System, class Observer>
SG_HD SolveStats solve_adaptive_with(const System& sys, const IntegratorSettings& cfg,
                                     typename System::Scalar* y, RkWorkspace<System>& ws, Observer& obs) {
  using S = typename System::Scalar;
  const int n = sys.dim();
  SolveStats st;
  PidController<H> ctl{cfg.controller, tab.order};
  EventStepper<tab, H, System> events(sys, cfg);
  sys.begin_interval(0);
  events.begin(y);
  sys.rhs(y, ws.k[0]);
  events.settle(y, ws, 0.0, st, obs);
  H h_prop = cfg.auto_initial_step ? H(initial_step(sys, y, ws, tab.order, cfg.rtol, cfg.atol)) : H(cfg.dt);
  long attempts = 0;
  double t = 0.0;
  // Time as H too: through the controller, earlier steps' derivatives make the step that lands on an
  // output time carry their negative sum, so the horizon stays fixed.
  H t_h = 0.0;
  obs.on_output(0, 0.0, y, n);
  for (long i = 0; i < cfg.steps; ++i) {
    const double t_end = cfg.dt * static_cast<double>(i + 1);
    // Where a timed force starts or stops at this output time the first stage is re-evaluated (no FSAL
    // across the jump), as it is where the hybrid mode is rebuilt; elsewhere the FSAL stage stands.
    sys.begin_interval(i);
    if (i > 0) {
      const bool mode_rebuilt = events.begin_interval(y);
      if (mode_rebuilt || forces_change_at(sys, i)) {
        sys.rhs(y, ws.k[0]);
        events.settle(y, ws, t, st, obs);
      }
    }
    while (t < t_end) {
      if (attempts >= cfg.max_steps) {
        st.status = Status::max_steps;
        st.t = t;
        return st;
      }
      if (value(h_prop) < cfg.dt_min || !(value(h_prop) > 0.0)) {
        st.status = Status::step_underflow;
        st.t = t;
        return st;
      }
      const double remaining = t_end - t;
      // Land exactly on the output time; a remainder below 1e-10 dt is absorbed rather than stepped.
      const bool clipped = value(h_prop) >= remaining - 1e-10 * cfg.dt;
      const H h = clipped ? H(t_end) - t_h : h_prop;
      ++attempts;
      events.before_step();
      rk_step(sys, tab, y, h, ws);
      const S eps_s = scaled_error(y, ws.y1, ws.err, n, cfg.rtol, cfg.atol);
      const H eps = as_step<H>(eps_s);
      const bool finite = isfinite(value(eps));
      const bool accept = finite && value(eps) < 1.0;
      if (!accept) {
        ++st.rejected;
        obs.on_reject(value(h));
        h_prop = finite ? H(h * ctl.factor(eps, false, events.reject_factor_min()))
                        : H(h * cfg.controller.factor_min);
        continue;
      }
      if (events.crossed()) {
        // The step left the mode: end it at the first switch instead (or retry shorter).
        const EventStepResult r = events.step_to_switch(y, ws, value(h), t, t_h, attempts, st, obs);
        if (r.advanced) {
          t += r.h;
          t_h = H(t);
          if (const Status bad = check_state(y, n); bad != Status::ok) {
            st.status = bad;
            st.t = t;
            return st;
          }
        } else {
          h_prop = H(r.h_retry);
        }
        continue;
      }
      const H f = ctl.factor(eps, true);
      ctl.on_accept(eps);
      for (int k = 0; k < n; ++k) y[k] = ws.y1[k];
      sys.after_accept(y);
      if (tab.fsal) {
        for (int k = 0; k < n; ++k) ws.k[0][k] = ws.k[tab.stages - 1][k];
        // A system that re-parametrises its state after a step (rotation vector folded into the quaternion)
        // adjusts the reused derivative to the new parametrisation.
        if constexpr (System::kFoldsState) sys.after_accept_derivative(y, ws.k[0]);
      } else {
        sys.rhs(y, ws.k[0]);
      }
      t = clipped ? t_end : t + value(h);
      t_h = clipped ? H(t_end) : t_h + h;
      ++st.accepted;
      events.progressed();
      obs.on_accept(value(h));
      if (const Status bad = check_state(y, n); bad != Status::ok) {
        st.status = bad;
        st.t = t;
        return st;
      }
      const H grown = h * f;
      // A step clipped to an output time does not lower the controller's proposal.
      h_prop = (clipped && value(h_prop) > value(grown)) ? h_prop : grown;
    }
    obs.on_output(i + 1, t_end, y, n);
  }
  st.t = t;
  return st;
}

template <class H, class System, class Observer>
SG_HD SolveStats solve_adaptive(const System& sys, const IntegratorSettings& cfg, typename System::Scalar* y,
                                RkWorkspace<System>& ws, Observer& obs) {
  switch (cfg.method) {
    case Method::bosh3:
      return solve_adaptive_with<kBosh3, H>(sys, cfg, y, ws, obs);
    case Method::dopri5:
      return solve_adaptive_with<kDopri5, H>(sys, cfg, y, ws, obs);
    default:
      return solve_adaptive_with<kTsit5, H>(sys, cfg, y, ws, obs);
  }
}

}  // namespace sg
