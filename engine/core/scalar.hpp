#pragma once
// Scalar-generic helpers: the engine's templates call these so that one code path runs on double and on
// Dual<N>. For double they forward to <cmath>; for duals the overloads live in dual.hpp.
#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/core/dual.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/reverse.hpp"

namespace sg {

template <class S>
struct ScalarTraits {
  static constexpr bool is_dual = false;
  static constexpr bool is_reverse = false;
  static constexpr int lanes = 0;
};
template <int N>
struct ScalarTraits<Dual<N>> {
  static constexpr bool is_dual = true;
  static constexpr bool is_reverse = false;
  static constexpr int lanes = N;
};
template <>
struct ScalarTraits<Rev> {
  static constexpr bool is_dual = false;
  static constexpr bool is_reverse = true;
  static constexpr int lanes = 0;
};
template <class S>
inline constexpr bool is_dual_v = ScalarTraits<S>::is_dual;
template <class S>
inline constexpr bool is_reverse_v = ScalarTraits<S>::is_reverse;
// Carries derivatives of some kind (forward tangents or a tape).
template <class S>
inline constexpr bool has_derivatives_v = is_dual_v<S> || is_reverse_v<S>;

// Plain-double versions so unqualified calls inside namespace sg resolve for both scalar kinds.
SG_HD inline double sqrt(double x) {
  return std::sqrt(x);
}
SG_HD inline double exp(double x) {
  return std::exp(x);
}
SG_HD inline double log(double x) {
  return std::log(x);
}
SG_HD inline double log1p(double x) {
  return std::log1p(x);
}
SG_HD inline double sin(double x) {
  return std::sin(x);
}
SG_HD inline double cos(double x) {
  return std::cos(x);
}
SG_HD inline double tan(double x) {
  return std::tan(x);
}
SG_HD inline double tanh(double x) {
  return std::tanh(x);
}
SG_HD inline double atan(double x) {
  return std::atan(x);
}
SG_HD inline double asin(double x) {
  return std::asin(x);
}
SG_HD inline double acos(double x) {
  return std::acos(x);
}
SG_HD inline double atan2(double y, double x) {
  return std::atan2(y, x);
}
SG_HD inline double abs(double x) {
  return std::fabs(x);
}
SG_HD inline double pow(double x, double p) {
  return std::pow(x, p);
}
SG_HD inline double min(double a, double b) {
  return b < a ? b : a;
}
SG_HD inline double max(double a, double b) {
  return a < b ? b : a;
}
SG_HD inline bool isfinite(double x) {
  return std::isfinite(x);
}

SG_HD inline double value(double x) {
  return x;
}
template <int N>
SG_HD inline double value(const Dual<N>& x) {
  return x.v;
}
inline double value(const Rev& x) {
  return x.v;
}

// Tangent lane i of x (0 for plain doubles).
SG_HD inline double tangent(double, int) {
  return 0.0;
}
template <int N>
SG_HD inline double tangent(const Dual<N>& x, int lane) {
  return x.d[lane];
}

// Zero in value and every tangent: such a term can be skipped without changing values or derivatives.
SG_HD inline bool is_zero(double x) {
  return x == 0.0;
}
template <int N>
SG_HD inline bool is_zero(const Dual<N>& x) {
  if (x.v != 0.0) return false;
  for (int i = 0; i < N; ++i)
    if (x.d[i] != 0.0) return false;
  return true;
}

// Whether x carries no derivative (always for doubles).
SG_HD inline bool tangent_free(double) {
  return true;
}
template <int N>
SG_HD inline bool tangent_free(const Dual<N>& x) {
  for (int i = 0; i < N; ++i)
    if (x.d[i] != 0.0) return false;
  return true;
}
inline bool tangent_free(const Rev& x) {
  return x.i <= 0;
}
inline bool is_zero(const Rev& x) {
  return x.v == 0.0 && x.i <= 0;
}

// The value of x with its derivatives cut: the "stop gradient" of JAX.
SG_HD inline double detach(double x) {
  return x;
}
template <int N>
SG_HD inline Dual<N> detach(const Dual<N>& x) {
  return Dual<N>(x.v);
}
inline Rev detach(const Rev& x) {
  return Rev(x.v);
}

// Value of `primal`, derivatives of `surrogate`: the straight-through estimator used by CFD.
SG_HD inline double straight_through(double primal, double) {
  return primal;
}
template <int N>
SG_HD inline Dual<N> straight_through(const Dual<N>& primal, const Dual<N>& surrogate) {
  Dual<N> r = surrogate;
  r.v = primal.v;
  return r;
}
inline Rev straight_through(const Rev& primal, const Rev& surrogate) {
  Rev r = surrogate;
  r.v = primal.v;
  return r;
}

// A scope in which a reverse-mode tape records nothing (RevPause); nothing for the other scalars.
template <class S>
struct TapePause {
  SG_HD explicit TapePause(bool) {}
};
template <>
struct TapePause<Rev> : RevPause {
  explicit TapePause(bool pause) : RevPause(pause) {}
};

// A variable with derivative 1 in lane `lane`.
template <class S>
SG_HD inline S seeded(double x, int lane) {
  if constexpr (is_dual_v<S>) {
    S r(x);
    r.d[lane] = 1.0;
    return r;
  } else {
    (void)lane;
    return x;
  }
}

inline constexpr double kInf = std::numeric_limits<double>::infinity();

template <class S>
SG_HD inline S clamp(const S& x, double lo, double hi) {
  return x < lo ? S(lo) : (x > hi ? S(hi) : x);
}

// Numerically stable logistic function.
template <class S>
SG_HD inline S sigmoid(const S& x) {
  if (x >= 0.0) return 1.0 / (1.0 + exp(-x));
  const S e = exp(x);
  return e / (1.0 + e);
}

// Logistic step of stiffness kappa; kappa = inf is the hard Heaviside step (1 at x >= 0).
template <class S>
SG_HD inline S smooth_step(const S& x, double kappa) {
  if (!(kappa < kInf)) return S(x >= 0.0 ? 1.0 : 0.0);
  return sigmoid(kappa * x);
}

// softplus_beta(x) = log(1 + exp(beta x)) / beta, stable for large |x|; beta may be a double or a dual.
template <class S, class B>
SG_HD inline S softplus(const S& x, const B& beta) {
  const S bx = beta * x;
  if (bx > 30.0) return x + log1p(exp(-bx)) / beta;
  return log1p(exp(bx)) / beta;
}

template <class S>
SG_HD inline S sq(const S& x) {
  return x * x;
}

// acc + a (k h): a term of a linear combination (the Runge-Kutta stages), evaluated as written. The reverse
// scalar records it as one tape node instead of three (engine/core/reverse.hpp).
template <class S, class H>
SG_HD inline S add_scaled(const S& acc, double a, const S& k, const H& h) {
  return acc + a * (k * h);
}

// y + sum_j coef[j] (k[j][i] h) over the j < terms with coef[j] != 0, summed from j = 0 as add_scaled does: a
// Runge-Kutta stage's state or a step's result. The reverse scalar records it as one fused node
// (engine/core/reverse.hpp) instead of one per term.
template <class S, class K, class H>
SG_HD inline S rk_combination(const S& y, const double* coef, int terms, const K& k, int i, const H& h) {
  S acc = 0.0;
  for (int j = 0; j < terms; ++j)
    if (coef[j] != 0.0) acc = add_scaled(acc, coef[j], k[j][i], h);
  return y + acc;
}

// add_scaled for a value whose derivatives nobody reads: on a tape (whose steps are frozen, H a double) the
// error estimate only decides, as in the double run, whether a step is accepted, so it records nothing; a
// dual keeps its tangents (integrator.control_tangents reads them).
template <class S, class H>
SG_HD inline S add_scaled_value(const S& acc, double a, const S& k, const H& h) {
  if constexpr (is_reverse_v<S>) {
    static_assert(!has_derivatives_v<H>, "a taped run steps with frozen (double) step sizes");
    return S(value(acc) + a * (value(k) * h));
  } else {
    return add_scaled(acc, a, k, h);
  }
}

}  // namespace sg
