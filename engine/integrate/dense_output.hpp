#pragma once
// Cubic Hermite interpolation inside an accepted step from the states and derivatives at its two ends
// (free for FSAL methods: f(y1) is the last stage). Third order, which is enough to locate a switching time
// to far below the step's own error; the step is then redone up to that time, so the interpolant never
// becomes part of the solution.
#include "engine/core/platform.hpp"

namespace sg {

// y(theta) for theta in [0, 1] over a step of size h.
template <class S>
SG_HD void hermite_state(const S* y0, const S* y1, const S* f0, const S* f1, double h, double theta, int n,
                         S* out) {
  const double t2 = theta * theta, t3 = t2 * theta;
  const double h00 = 2.0 * t3 - 3.0 * t2 + 1.0, h10 = t3 - 2.0 * t2 + theta;
  const double h01 = -2.0 * t3 + 3.0 * t2, h11 = t3 - t2;
  for (int i = 0; i < n; ++i) out[i] = h00 * y0[i] + (h10 * h) * f0[i] + h01 * y1[i] + (h11 * h) * f1[i];
}

}  // namespace sg
