#pragma once
// The jump of forward-mode tangents across a located switch where the vector field jumps (docs/engine.md):
// with the switching function g crossing zero at tau, the implicit function theorem gives
// dtau/dtheta = -(dg/dy s + dg/dtheta) / (dg/dt), and the tangent after the switch is
// s+ = s- + (f- - f+) dtau/dtheta, with f- and f+ the vector fields before and after the switch at y(tau).
// The state itself does not jump.
#include "engine/core/scalar.hpp"
#include "engine/integrate/events.hpp"

namespace sg {

// Whether the switch `id` jumps the vector field in a way the tangents follow (apply_saltation may still find
// the crossing too slow, or the switching time free of derivatives).
template <class System>
SG_HD bool saltation_due(const System& sys, const EventId& id) {
  return event_jumps(id.kind) && !id.tangential && sys.saltation_applies();
}

// y: the state at the switch (its tangents are updated); f_minus, f_plus: the two vector fields there.
// Returns whether the tangents changed (then any derivative evaluated at y before is stale).
template <class System>
SG_HD bool apply_saltation(const System& sys, typename System::Scalar* y,
                           const typename System::Scalar* f_minus, const typename System::Scalar* f_plus,
                           const EventId& id) {
  using S = typename System::Scalar;
  if constexpr (is_dual_v<S>) {
    if (!saltation_due(sys, id)) return false;
    const S g = sys.event_value(y, id);
    const double rate = sys.event_rate(y, id);
    // A tangential crossing has no well-defined switching time (and no finite derivative of it).
    if (!(abs(rate) > 1e-12)) return false;
    const int n = sys.dim();
    bool changed = false;
    for (int l = 0; l < ScalarTraits<S>::lanes; ++l) {
      const double dtau = -g.d[l] / rate;
      if (dtau == 0.0) continue;
      changed = true;
      for (int i = 0; i < n; ++i) y[i].d[l] += (value(f_minus[i]) - value(f_plus[i])) * dtau;
    }
    return changed;
  } else if constexpr (is_reverse_v<S>) {
    // The same jump as an expression: dtau = -(g - value(g)) / rate has value 0 and the derivative of the
    // switching time, so the tape records y+ = y- + (f- - f+) dtau with the values unchanged.
    if (!saltation_due(sys, id)) return false;
    const S g = sys.event_value(y, id);
    const double rate = sys.event_rate(y, id);
    if (!(std::fabs(rate) > 1e-12) || tangent_free(g)) return false;
    const S dtau = (detach(g) - g) / rate;
    for (int i = 0; i < sys.dim(); ++i) y[i] += (value(f_minus[i]) - value(f_plus[i])) * dtau;
    return true;
  } else {
    (void)sys, (void)y, (void)f_minus, (void)f_plus, (void)id;
    return false;
  }
}

}  // namespace sg
