#pragma once
// MuJoCo 2.2.2's muscle model (mju_muscleGain, mju_muscleBias, mju_muscleDynamics in engine_util_misc.c):
// the active force-length-velocity curve, the passive force-length curve and the activation dynamics with
// Millard et al.'s activation-dependent time constant. prm = (range[2], force, scale, lmin, lmax, vmax,
// fpmax, fvmax); a negative force means scale / acc0. Piecewise quadratic curves: branches on values.
#include "engine/core/scalar.hpp"

namespace sg {

inline constexpr double kMuscleMinVal = 1e-15;  // mjMINVAL

namespace muscle_detail {

template <class S>
SG_INLINE S at_least_minval(const S& x) {
  return value(x) < kMuscleMinVal ? S(kMuscleMinVal) : x;
}

// The peak force: prm[2], or scale / acc0 when prm[2] < 0.
template <class S>
SG_INLINE S peak_force(const S* prm, const S& acc0) {
  return value(prm[2]) < 0 ? prm[3] / at_least_minval(acc0) : prm[2];
}

// The optimal length L0 and the normalised length range[0] + (len - lengthrange[0]) / L0.
template <class S>
SG_INLINE S normalized_length(const S& len, const S* lengthrange, const S* prm, S* L0) {
  *L0 = (lengthrange[1] - lengthrange[0]) / at_least_minval(prm[1] - prm[0]);
  return prm[0] + (len - lengthrange[0]) / at_least_minval(*L0);
}

}  // namespace muscle_detail

// The active force per unit activation (negative: it pulls): -F0 FL(L) FV(V).
template <class S>
S muscle_gain(const S& len, const S& vel, const S* lengthrange, const S& acc0, const S* prm) {
  using namespace muscle_detail;
  const S& lmin = prm[4];
  const S& lmax = prm[5];
  const S& vmax = prm[6];
  const S& fvmax = prm[8];
  const S force = peak_force(prm, acc0);
  const S a = 0.5 * (lmin + 1.0), b = 0.5 * (1.0 + lmax);
  S L0;
  const S L = normalized_length(len, lengthrange, prm, &L0);
  const S V = vel / at_least_minval(L0 * vmax);
  S FL = S(0.0);
  const double l = value(L);
  if (l >= value(lmin) && l <= value(a)) {
    const S x = (L - lmin) / at_least_minval(a - lmin);
    FL = 0.5 * x * x;
  } else if (l <= 1) {
    const S x = (1.0 - L) / at_least_minval(1.0 - a);
    FL = 1.0 - 0.5 * x * x;
  } else if (l <= value(b)) {
    const S x = (L - 1.0) / at_least_minval(b - 1.0);
    FL = 1.0 - 0.5 * x * x;
  } else if (l <= value(lmax)) {
    const S x = (lmax - L) / at_least_minval(lmax - b);
    FL = 0.5 * x * x;
  }
  S FV;
  const S y = fvmax - 1.0;
  const double v = value(V);
  if (v <= -1) {
    FV = S(0.0);
  } else if (v <= 0) {
    FV = (V + 1.0) * (V + 1.0);
  } else if (v <= value(y)) {
    FV = fvmax - (y - V) * (y - V) / at_least_minval(y);
  } else {
    FV = fvmax;
  }
  return -force * FL * FV;
}

// The passive force (negative): half-quadratic beyond the optimal length up to (1 + lmax) / 2, linear after.
template <class S>
S muscle_bias(const S& len, const S* lengthrange, const S& acc0, const S* prm) {
  using namespace muscle_detail;
  const S& lmax = prm[5];
  const S& fpmax = prm[7];
  const S force = peak_force(prm, acc0);
  S L0;
  const S L = normalized_length(len, lengthrange, prm, &L0);
  const S b = 0.5 * (1.0 + lmax);
  if (value(L) <= 1) return S(0.0);
  if (value(L) <= value(b)) {
    const S x = (L - 1.0) / at_least_minval(b - 1.0);
    return -force * fpmax * 0.5 * x * x;
  }
  const S x = (L - b) / at_least_minval(b - 1.0);
  return -force * fpmax * (0.5 + x);
}

// d act / dt: the clamped control approached with time constant prm[0] (0.5 + 1.5 act) when activating,
// prm[1] / (0.5 + 1.5 act) when deactivating (act clamped to [0, 1] in the time constant).
template <class S>
S muscle_dynamics(const S& ctrl, const S& act, const S* prm) {
  const S c = value(ctrl) < 0 ? S(0.0) : (value(ctrl) > 1 ? S(1.0) : ctrl);
  const S a = value(act) < 0 ? S(0.0) : (value(act) > 1 ? S(1.0) : act);
  const S tau = value(c) > value(act) ? prm[0] * (0.5 + 1.5 * a) : prm[1] / (0.5 + 1.5 * a);
  return (c - act) / muscle_detail::at_least_minval(tau);
}

}  // namespace sg
