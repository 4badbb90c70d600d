#pragma once
// Forward-mode dual number with N tangent lanes. One value, N directional derivatives: running the
// step on Dual<N> instead of double gives the Jacobian-vector products of N parameters at once.
#include <cmath>

#include "engine/core/platform.hpp"

namespace sg {

template <int N>
struct Dual {
  static_assert(N >= 1, "a dual number needs at least one tangent lane");
  double v;
  double d[N];

  // Uninitialised like a double, so scratch arrays cost nothing; Dual{} and Dual(x) are zero-filled.
  SG_HD Dual() = default;
  // Implicit from double: constants have zero tangent, so mixed arithmetic reads naturally.
  SG_HD constexpr Dual(double value) : v(value), d{} {}  // NOLINT(google-explicit-constructor)

  SG_INLINE Dual& operator+=(const Dual& o) {
    v += o.v;
    for (int i = 0; i < N; ++i) d[i] += o.d[i];
    return *this;
  }
  SG_INLINE Dual& operator-=(const Dual& o) {
    v -= o.v;
    for (int i = 0; i < N; ++i) d[i] -= o.d[i];
    return *this;
  }
  SG_INLINE Dual& operator*=(const Dual& o) {
    for (int i = 0; i < N; ++i) d[i] = d[i] * o.v + v * o.d[i];
    v *= o.v;
    return *this;
  }
  // The value by a true division (not v * (1 / o.v), which rounds differently): a dual run must take the
  // same steps as a double run, and adaptive error estimates amplify a one-ulp difference.
  SG_INLINE Dual& operator/=(const Dual& o) {
    const double inv = 1.0 / o.v;
    v /= o.v;
    for (int i = 0; i < N; ++i) d[i] = (d[i] - v * o.d[i]) * inv;
    return *this;
  }
};

// Applies the chain rule for a unary function with value fx and derivative dfx at x.
template <int N>
SG_INLINE Dual<N> chain(const Dual<N>& x, double fx, double dfx) {
  Dual<N> r;
  r.v = fx;
  for (int i = 0; i < N; ++i) r.d[i] = dfx * x.d[i];
  return r;
}

template <int N>
SG_INLINE Dual<N> operator+(Dual<N> a, const Dual<N>& b) {
  return a += b;
}
template <int N>
SG_INLINE Dual<N> operator-(Dual<N> a, const Dual<N>& b) {
  return a -= b;
}
template <int N>
SG_INLINE Dual<N> operator*(Dual<N> a, const Dual<N>& b) {
  return a *= b;
}
template <int N>
SG_INLINE Dual<N> operator/(Dual<N> a, const Dual<N>& b) {
  return a /= b;
}
template <int N>
SG_INLINE Dual<N> operator-(const Dual<N>& a) {
  return chain(a, -a.v, -1.0);
}
template <int N>
SG_INLINE Dual<N> operator+(const Dual<N>& a) {
  return a;
}

// Mixed double/dual arithmetic without building a temporary dual.
template <int N>
SG_INLINE Dual<N> operator+(Dual<N> a, double b) {
  a.v += b;
  return a;
}
template <int N>
SG_INLINE Dual<N> operator+(double a, Dual<N> b) {
  b.v += a;
  return b;
}
template <int N>
SG_INLINE Dual<N> operator-(Dual<N> a, double b) {
  a.v -= b;
  return a;
}
template <int N>
SG_INLINE Dual<N> operator-(double a, const Dual<N>& b) {
  return chain(b, a - b.v, -1.0);
}
template <int N>
SG_INLINE Dual<N> operator*(const Dual<N>& a, double b) {
  return chain(a, a.v * b, b);
}
template <int N>
SG_INLINE Dual<N> operator*(double a, const Dual<N>& b) {
  return chain(b, a * b.v, a);
}
template <int N>
SG_INLINE Dual<N> operator/(const Dual<N>& a, double b) {
  return chain(a, a.v / b, 1.0 / b);
}
template <int N>
SG_INLINE Dual<N> operator/(double a, const Dual<N>& b) {
  const double inv = 1.0 / b.v;
  return chain(b, a / b.v, -a * inv * inv);
}

// Comparisons look at the value only: branches in the model pick a piece, derivatives follow it.
#define SG_DUAL_COMPARE(op)                                        \
  template <int N>                                                 \
  SG_INLINE bool operator op(const Dual<N>& a, const Dual<N>& b) { \
    return a.v op b.v;                                             \
  }                                                                \
  template <int N>                                                 \
  SG_INLINE bool operator op(const Dual<N>& a, double b) {         \
    return a.v op b;                                               \
  }                                                                \
  template <int N>                                                 \
  SG_INLINE bool operator op(double a, const Dual<N>& b) {         \
    return a op b.v;                                               \
  }
SG_DUAL_COMPARE(<)
SG_DUAL_COMPARE(<=)
SG_DUAL_COMPARE(>)
SG_DUAL_COMPARE(>=)
SG_DUAL_COMPARE(==)
SG_DUAL_COMPARE(!=)
#undef SG_DUAL_COMPARE

template <int N>
SG_INLINE Dual<N> sqrt(const Dual<N>& x) {
  const double s = std::sqrt(x.v);
  // The derivative at 0 is infinite; callers that may hit 0 use a smoothed norm instead.
  return chain(x, s, 0.5 / s);
}
template <int N>
SG_INLINE Dual<N> exp(const Dual<N>& x) {
  const double e = std::exp(x.v);
  return chain(x, e, e);
}
template <int N>
SG_INLINE Dual<N> log(const Dual<N>& x) {
  return chain(x, std::log(x.v), 1.0 / x.v);
}
template <int N>
SG_INLINE Dual<N> log1p(const Dual<N>& x) {
  return chain(x, std::log1p(x.v), 1.0 / (1.0 + x.v));
}
template <int N>
SG_INLINE Dual<N> sin(const Dual<N>& x) {
  return chain(x, std::sin(x.v), std::cos(x.v));
}
template <int N>
SG_INLINE Dual<N> cos(const Dual<N>& x) {
  return chain(x, std::cos(x.v), -std::sin(x.v));
}
template <int N>
SG_INLINE Dual<N> tan(const Dual<N>& x) {
  const double t = std::tan(x.v);
  return chain(x, t, 1.0 + t * t);
}
template <int N>
SG_INLINE Dual<N> tanh(const Dual<N>& x) {
  const double t = std::tanh(x.v);
  return chain(x, t, 1.0 - t * t);
}
template <int N>
SG_INLINE Dual<N> atan(const Dual<N>& x) {
  return chain(x, std::atan(x.v), 1.0 / (1.0 + x.v * x.v));
}
// asin and acos: their derivatives +-1/sqrt(1 - x^2) are infinite at +-1, as the functions' own.
template <int N>
SG_INLINE Dual<N> asin(const Dual<N>& x) {
  return chain(x, std::asin(x.v), 1.0 / std::sqrt(1.0 - x.v * x.v));
}
template <int N>
SG_INLINE Dual<N> acos(const Dual<N>& x) {
  return chain(x, std::acos(x.v), -1.0 / std::sqrt(1.0 - x.v * x.v));
}
template <int N>
SG_INLINE Dual<N> atan2(const Dual<N>& y, const Dual<N>& x) {
  Dual<N> r;
  r.v = std::atan2(y.v, x.v);
  const double inv = 1.0 / (x.v * x.v + y.v * y.v);
  for (int i = 0; i < N; ++i) r.d[i] = (x.v * y.d[i] - y.v * x.d[i]) * inv;
  return r;
}
template <int N>
SG_INLINE Dual<N> abs(const Dual<N>& x) {
  return x.v < 0.0 ? -x : x;
}
template <int N>
SG_INLINE Dual<N> fabs(const Dual<N>& x) {
  return abs(x);
}
template <int N>
SG_INLINE Dual<N> pow(const Dual<N>& x, double p) {
  if (p == 0.0) return Dual<N>(1.0);
  // The value through std::pow itself, so a dual run's values match a double run's bit for bit.
  return chain(x, std::pow(x.v, p), p * std::pow(x.v, p - 1.0));
}
// x^p with both differentiable: d = p x^(p-1) dx + x^p log(x) dp. Written out rather than exp(p log x) so
// that x = 0 (an impedance at distance 0) has the finite derivative of pow(x, double), and the value is
// std::pow's, as in a double run.
template <int N>
SG_INLINE Dual<N> pow(const Dual<N>& x, const Dual<N>& p) {
  Dual<N> r;
  r.v = std::pow(x.v, p.v);
  const double dx = p.v == 0.0 ? 0.0 : p.v * std::pow(x.v, p.v - 1.0);
  const double dp = r.v == 0.0 ? 0.0 : r.v * std::log(x.v);
  for (int i = 0; i < N; ++i) r.d[i] = dx * x.d[i] + (p.d[i] == 0.0 ? 0.0 : dp * p.d[i]);
  return r;
}
template <int N>
SG_INLINE Dual<N> min(const Dual<N>& a, const Dual<N>& b) {
  return b.v < a.v ? b : a;
}
template <int N>
SG_INLINE Dual<N> max(const Dual<N>& a, const Dual<N>& b) {
  return a.v < b.v ? b : a;
}
template <int N>
SG_INLINE bool isfinite(const Dual<N>& x) {
  if (!std::isfinite(x.v)) return false;
  for (int i = 0; i < N; ++i)
    if (!std::isfinite(x.d[i])) return false;
  return true;
}

}  // namespace sg
