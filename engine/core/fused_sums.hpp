#pragma once
// Sums of products over arrays, written once for every scalar: a . b of two scalar arrays, a . x and
// b - a . x with x in double (a residual row at fixed values), and a value carrying another number's
// derivatives. For double and duals they are the loops as written; the reverse scalar records each sum as
// one fused tape node with a link per non-constant term (engine/core/reverse.hpp) instead of two nodes per
// term. Values are summed in the loops' order, so they match a double run bit for bit.
#include "engine/core/platform.hpp"
#include "engine/core/reverse.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// sum_k a[k sa] b[k sb], accumulated from 0 in k's order.
template <class S>
SG_HD inline S dot_strided(const S* a, int sa, const S* b, int sb, int n) {
  S s = 0.0;
  for (int k = 0; k < n; ++k) s += a[k * sa] * b[k * sb];
  return s;
}

// sum_k a[idx[k] sa] b[k]: a column of a row-major matrix against a packed vector (active rows only).
template <class S>
SG_HD inline S dot_gather(const S* a, int sa, const int* idx, const S* b, int n) {
  S s = 0.0;
  for (int k = 0; k < n; ++k) s += a[idx[k] * sa] * b[k];
  return s;
}

// out[p] = sum_k a[idx[k] ld + p] b[k] for p < m: the rows idx of a row-major matrix, transposed, times b
// (J' force over the active rows), accumulated row by row from zero.
template <class S>
SG_HD inline void gather_transpose_times(const S* a, int ld, const int* idx, const S* b, int n, int m,
                                         S* out) {
  for (int p = 0; p < m; ++p) out[p] = 0.0;
  for (int k = 0; k < n; ++k)
    for (int p = 0; p < m; ++p) out[p] += a[idx[k] * ld + p] * b[k];
}

// sum_k a[k sa] x[k] with x in double.
template <class S>
SG_HD inline S dot_values(const S* a, int sa, const double* x, int n) {
  S s = 0.0;
  for (int k = 0; k < n; ++k) s += a[k * sa] * x[k];
  return s;
}

// b - sum_k a[k sa] x[k] with x in double, subtracted term by term.
template <class S>
SG_HD inline S minus_dot_values(const S& b, const S* a, int sa, const double* x, int n) {
  S s = b;
  for (int k = 0; k < n; ++k) s -= a[k * sa] * x[k];
  return s;
}

// a + b c.
template <class S>
SG_HD inline S plus_product(const S& a, const S& b, const S& c) {
  return a + b * c;
}

// The number v with the derivatives of t (x = v + (t - value(t)) without its rounding).
SG_HD inline double with_value(double, double v) {
  return v;
}
template <int N>
SG_HD inline Dual<N> with_value(const Dual<N>& t, double v) {
  Dual<N> r = t;
  r.v = v;
  return r;
}
inline Rev with_value(const Rev& t, double v) {
  Rev r = t;
  r.v = v;
  return r;
}

// The reverse scalar's fused versions. A term whose partial is exactly zero adds nothing to an adjoint and
// gets no link.
namespace fused_detail {
[[gnu::always_inline]] inline void link(RevTape& tape, int parent, double partial) {
  if (partial != 0.0) tape.link(parent, partial);
}
inline Rev fused(RevTape& tape, int first, double v) {
  Rev r;
  r.v = v;
  r.i = tape.fuse(first);
  return r;
}
}  // namespace fused_detail

inline Rev plus_product(const Rev& a, const Rev& b, const Rev& c) {
  const RevLink parents[3] = {{a.i, 1.0}, {b.i, c.v}, {c.i, b.v}};
  return rev_combine(a.v + b.v * c.v, 3, parents);
}

inline Rev dot_strided(const Rev* a, int sa, const Rev* b, int sb, int n) {
  RevTape& tape = RevTape::current();
  const int first = tape.link_count();
  double s = 0.0;
  for (int k = 0; k < n; ++k) {
    const Rev& x = a[k * sa];
    const Rev& y = b[k * sb];
    s += x.v * y.v;
    fused_detail::link(tape, x.i, y.v);
    fused_detail::link(tape, y.i, x.v);
  }
  return fused_detail::fused(tape, first, s);
}

inline Rev dot_gather(const Rev* a, int sa, const int* idx, const Rev* b, int n) {
  RevTape& tape = RevTape::current();
  const int first = tape.link_count();
  double s = 0.0;
  for (int k = 0; k < n; ++k) {
    const Rev& x = a[idx[k] * sa];
    s += x.v * b[k].v;
    fused_detail::link(tape, x.i, b[k].v);
    fused_detail::link(tape, b[k].i, x.v);
  }
  return fused_detail::fused(tape, first, s);
}

// One fused node per column, the rows summed in the same order.
inline void gather_transpose_times(const Rev* a, int ld, const int* idx, const Rev* b, int n, int m,
                                   Rev* out) {
  for (int p = 0; p < m; ++p) out[p] = dot_gather(a + p, ld, idx, b, n);
}

inline Rev dot_values(const Rev* a, int sa, const double* x, int n) {
  RevTape& tape = RevTape::current();
  const int first = tape.link_count();
  double s = 0.0;
  for (int k = 0; k < n; ++k) {
    s += a[k * sa].v * x[k];
    fused_detail::link(tape, a[k * sa].i, x[k]);
  }
  return fused_detail::fused(tape, first, s);
}

inline Rev minus_dot_values(const Rev& b, const Rev* a, int sa, const double* x, int n) {
  RevTape& tape = RevTape::current();
  const int first = tape.link_count();
  double s = b.v;
  tape.link(b.i, 1.0);
  for (int k = 0; k < n; ++k) {
    s -= a[k * sa].v * x[k];
    fused_detail::link(tape, a[k * sa].i, -x[k]);
  }
  return fused_detail::fused(tape, first, s);
}

}  // namespace sg
