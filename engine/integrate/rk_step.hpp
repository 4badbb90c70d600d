#pragma once
// One explicit Runge-Kutta step of a system y' = f(y) over a step h, with the embedded error estimate.
// Buffers live in the caller's workspace: no allocation here.
#include "engine/integrate/tableau.hpp"

namespace sg {

template <class System>
struct RkWorkspace {
  using S = typename System::Scalar;
  S k[kMaxStages][System::kMaxDim];
  S ytmp[System::kMaxDim];
  S y1[System::kMaxDim];
  S err[System::kMaxDim];
  S f_event[System::kMaxDim];  // the vector field just before a located switch (for its saltation term)
};

// k[0] must hold f(y) on entry. On return ws.y1 is the new state, ws.err the error estimate (if embedded),
// and for FSAL methods k[stages-1] is f(y1) (the last stage, whose coefficients are b;
// tests/engine/test_convergence_order.cpp checks both).
// The sums run over the increments h f_j in stage order, as Diffrax's: small error estimates come from
// cancellation, and the step sizes follow their rounding.
template <class System, class H>
SG_HD SG_INLINE_HOST SG_NOINLINE void rk_step(const System& sys, const Tableau& tab,
                                              const typename System::Scalar* y, const H& h,
                                              RkWorkspace<System>& ws) {
  using S = typename System::Scalar;
  const int n = sys.dim();
  for (int s = 1; s < tab.stages; ++s) {
    for (int i = 0; i < n; ++i) ws.ytmp[i] = rk_combination(y[i], tab.a[s], s, ws.k, i, h);
    sys.rhs(ws.ytmp, ws.k[s]);
  }
  for (int i = 0; i < n; ++i) {
    // For FSAL tableaus the last stage was evaluated at y1 already (a[last] = b, summed in the same order,
    // so bit for bit): k[stages-1] is f(y1) without another evaluation.
    ws.y1[i] = rk_combination(y[i], tab.b, tab.stages, ws.k, i, h);
    S err = 0.0;
    for (int j = 0; tab.embedded && j < tab.stages; ++j)
      if (tab.e[j] != 0.0) err = add_scaled_value(err, tab.e[j], ws.k[j][i], h);
    ws.err[i] = err;
  }
}

}  // namespace sg
