#pragma once
// The softjax 0.1.1 operators (mode "smooth") that DiffMJX's collision smoothing is built from, with
// softness s > 0. They are reproduced operation for operation, not improved: the DiffMJX box collider
// (collide_box_diffmjx.hpp) must give DiffMJX's numbers, including its quirks (the argmax standardises
// its input before the softmax, so its softness acts on a dimensionless scale).
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"

namespace sg::softjax {

// argmax: standardise x to (x - mean)/sqrt(var + 1e-6) (population variance), squash it with a
// sigmoid, then softmax(./s). The exponent is shifted by its (detached) largest value as in jax.nn.softmax.
template <class S, int N>
SG_HD inline void argmax(const S (&x)[N], double s, S (&w)[N]) {
  S mean(0.0);
  for (int i = 0; i < N; ++i) mean += x[i];
  mean /= double(N);
  S var(0.0);
  for (int i = 0; i < N; ++i) var += sq(S(x[i] - mean));
  var /= double(N);
  const S std = sqrt(S(var + 1e-6));
  S z[N];
  int best = 0;
  for (int i = 0; i < N; ++i) {
    z[i] = sigmoid(S((x[i] - mean) / std)) / s;
    if (z[i] > z[best]) best = i;
  }
  const double shift = value(z[best]);
  S total(0.0);
  for (int i = 0; i < N; ++i) {
    w[i] = exp(S(z[i] - shift));
    total += w[i];
  }
  for (int i = 0; i < N; ++i) w[i] /= total;
}

// max = sum argmax(x) . x
template <class S, int N>
SG_HD inline S max(const S (&x)[N], double s) {
  S w[N];
  argmax(x, s, w);
  S m(0.0);
  for (int i = 0; i < N; ++i) m += w[i] * x[i];
  return m;
}

// relu(x) = s softplus(x/s), log1p(exp(.)) as written for |x/s| < 30 (where DiffMJX's box uses it).
template <class S>
SG_HD inline S relu(const S& x, double s) {
  const S u = x / s;
  if (u > 30.0) return s * (u + log1p(exp(-u)));
  return s * log1p(exp(u));
}

// greater_equal(x, y) = sigmoid((x - y + 1e-10)/s): the 1e-10 makes a tie count as "greater".
template <class S>
SG_HD inline S greater_equal(const S& x, const S& y, double s) {
  return sigmoid(S((x - y + 1e-10) / s));
}

// abs(x) = x (2 sigmoid(x/s) - 1)
template <class S>
SG_HD inline S abs(const S& x, double s) {
  return x * (2.0 * sigmoid(S(x / s)) - 1.0);
}

}  // namespace sg::softjax
