#pragma once
// Smooth stand-ins for the case distinctions of collision detection. Each takes a softness s (in the
// units of its argument); s <= 0 gives the exact, piecewise operation, so one code path serves both the
// exact and the smooth detector. The softplus form is used because its error decays exponentially away
// from the switching point: smooth_max(a, b, s) - max(a, b) = s log(1 + exp(-|a - b|/s)).
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

template <class S>
SG_HD inline S smooth_max(const S& a, const S& b, double s) {
  if (!(s > 0.0)) return max(a, b);
  return b + softplus(a - b, 1.0 / s);
}

template <class S>
SG_HD inline S smooth_min(const S& a, const S& b, double s) {
  return -smooth_max(S(-a), S(-b), s);
}

// |x| + s log(1 + exp(-2|x|/s)); equals s log 2 at 0.
template <class S>
SG_HD inline S smooth_abs(const S& x, double s) {
  return smooth_max(x, S(-x), s);
}

template <class S>
SG_HD inline S smooth_clamp(const S& x, double lo, double hi, double s) {
  return smooth_min(smooth_max(x, S(lo), s), S(hi), s);
}

// tanh(x/s); the exact version returns +1 at x = 0 so a tie picks the positive side.
template <class S>
SG_HD inline S smooth_sign(const S& x, double s) {
  if (!(s > 0.0)) return S(x >= 0.0 ? 1.0 : -1.0);
  return tanh(x / s);
}

// Weights w_i = exp(x_i/s) / sum_j exp(x_j/s) (a soft argmax); for s <= 0, one-hot on the first
// maximum. The shift by the (detached) largest value keeps exp in range and changes nothing else.
template <class S>
SG_HD inline void softmax_weights(const S* x, int n, double s, S* w) {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (x[i] > x[best]) best = i;
  if (!(s > 0.0)) {
    for (int i = 0; i < n; ++i) w[i] = S(i == best ? 1.0 : 0.0);
    return;
  }
  const double shift = value(x[best]);
  S total(0.0);
  for (int i = 0; i < n; ++i) {
    w[i] = exp((x[i] - shift) / s);
    total += w[i];
  }
  for (int i = 0; i < n; ++i) w[i] /= total;
}

}  // namespace sg
