#pragma once
// Fixed-step solves: semi-implicit Euler, Moreau midpoint, classic RK4; `substeps` internal steps per
// output step.
#include "engine/integrate/observer.hpp"
#include "engine/integrate/rk_step.hpp"
#include "engine/integrate/settings.hpp"

namespace sg {

template <class System, class Observer>
SG_HD SolveStats solve_fixed(const System& sys, const IntegratorSettings& cfg, typename System::Scalar* y,
                             RkWorkspace<System>& ws, Observer& obs) {
  SolveStats st;
  const int n = sys.dim();
  const double h = cfg.fixed_step();
  obs.on_output(0, 0.0, y, n);
  for (long i = 0; i < cfg.steps; ++i) {
    sys.begin_interval(i);
    for (long s = 0; s < cfg.substeps; ++s) {
      if (cfg.method == Method::euler) {
        sys.step_euler(y, h);
      } else if (cfg.method == Method::moreau) {
        sys.step_moreau(y, h);
      } else {
        sys.rhs(y, ws.k[0]);
        rk_step(sys, kRk4, y, h, ws);
        for (int k = 0; k < n; ++k) y[k] = ws.y1[k];
        sys.after_accept(y);
      }
      ++st.accepted;
      obs.on_accept(h);
      if (const Status bad = check_state(y, n); bad != Status::ok) {
        st.status = bad;
        st.t = cfg.dt * static_cast<double>(i) + h * static_cast<double>(s + 1);
        return st;
      }
    }
    st.t = cfg.dt * static_cast<double>(i + 1);
    obs.on_output(i + 1, st.t, y, n);
  }
  return st;
}

}  // namespace sg
