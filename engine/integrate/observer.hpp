#pragma once
// What a solve reports back: counts and the final status. Observers receive output states and accepted steps.
#include "engine/core/scalar.hpp"
#include "engine/core/status.hpp"
#include "engine/integrate/events.hpp"

namespace sg {

struct SolveStats {
  Status status = Status::ok;
  long accepted = 0;
  long rejected = 0;
  // Hybrid systems with events on: switches applied, and trial steps discarded at a located switch (redone up
  // to it, or the switch was due at the step's start; they count as attempts, neither accepted nor rejected:
  // attempts = accepted + rejected + truncated). A Tsit5 trial step is kept up to the switch, through its
  // continuous extension, and counts as accepted.
  long events = 0;
  long truncated = 0;
  double t = 0.0;  // time reached
};

// Ignores everything; sweeps use it.
struct NullObserver {
  template <class S>
  SG_HD void on_output(long, double, const S*, int) {}
  SG_HD void on_accept(double) {}
  SG_HD void on_reject(double) {}
  SG_HD void on_event(double, const EventId&) {}
};

// blow_up for a NaN, inf or a component beyond kBlowUpLimit; nonfinite_gradient when the values are fine
// but a forward-mode tangent is not (the derivative overflowed while the motion did not); ok otherwise.
template <class S>
SG_HD inline Status check_state(const S* y, int n) {
  for (int i = 0; i < n; ++i) {
    const double v = value(y[i]);
    if (!(v == v) || v > kBlowUpLimit || v < -kBlowUpLimit) return Status::blow_up;
  }
  for (int i = 0; i < n; ++i)
    if (!isfinite(y[i])) return Status::nonfinite_gradient;
  return Status::ok;
}

}  // namespace sg
