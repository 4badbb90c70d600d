#pragma once
// Solves with a symmetric positive definite matrix whose derivatives should not be taken through its
// factorisation: qM for qacc_smooth and the implicit damping, the Newton Hessian. The matrix's values are
// factorised in double, exactly as a double run does, and x = A^-1 b gets its derivatives by implicit
// differentiation of A x = b at the double solution xv: x' = A^-1 (b - A xv)'. That is one solve of the
// residual with the same factor (a dual's lanes together, or a fused tape node per entry), instead of a
// factorisation in dual numbers (three times the double's multiplications) or on the tape (thousands of
// nodes per solve).
#include "engine/articulated/envelope_cholesky.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/fused_sums.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// Solves L L' x = r in place, L a double factor (envelope_factor) and r in S: envelope_solve, and on the
// tape (below) the same arithmetic as fused nodes.
template <class S>
void cholesky_solve_mixed(const double* L, int n, const FactorEnvelope& env, S* r) {
  envelope_solve(L, n, env, r);
}

// On the tape: each entry of each substitution one fused node (links to r_i and the entries solved before).
inline void cholesky_solve_mixed(const double* L, int n, const FactorEnvelope& env, Rev* r) {
  RevTape& tape = RevTape::current();
  auto entry = [&](int i, int from, int to, int row_step, int col_step) {
    const double inv = 1.0 / L[i * n + i];
    const int first = tape.link_count();
    double s = r[i].v;
    tape.link(r[i].i, inv);
    for (int k = from; k < to; ++k) {
      const double l = L[i * row_step + k * col_step];
      s -= l * r[k].v;
      if (l != 0.0) tape.link(r[k].i, -l * inv);
    }
    r[i].v = s / L[i * n + i];
    r[i].i = tape.fuse(first);
  };
  for (int i = 0; i < n; ++i) entry(i, env.first[i], i, n, 1);              // L y = r: row i of L
  for (int i = n - 1; i >= 0; --i) entry(i, i + 1, env.last[i] + 1, 1, n);  // L' x = y: column i of L
}

// x = A^-1 b for A + h diag(D) symmetric positive definite (A n x n, leading dimension n, its row p zero
// outside columns [lo[p], hi[p]): qM's spans, TreeData's qM_lo and qM_hi; D may be null), L (n x n doubles)
// the factor of its values and env its envelope (envelope_factor): one more right-hand side for a factor
// already made. x may not alias b.
template <class S, class H>
void spd_solve_factored(const S* A, const int* lo, const int* hi, const S* D, const H& h, int n, const S* b,
                        const double* L, const FactorEnvelope& env, S* x) {
  double xv[kMaxDofs];
  for (int i = 0; i < n; ++i) xv[i] = value(b[i]);
  envelope_solve(L, n, env, xv);
  if constexpr (has_derivatives_v<S>) {
    S r[kMaxDofs];  // b - (A + h D) xv: only its derivatives matter
    for (int p = 0; p < n; ++p) {
      r[p] = minus_dot_values(b[p], A + p * n + lo[p], 1, xv + lo[p], hi[p] - lo[p]);
      if (D) r[p] -= (h * D[p]) * xv[p];
    }
    cholesky_solve_mixed(L, n, env, r);
    for (int i = 0; i < n; ++i) x[i] = with_value(r[i], xv[i]);
  } else {
    for (int i = 0; i < n; ++i) x[i] = xv[i];
  }
}

// The same after factorising: L receives the factor of the values, env its envelope. False, x untouched, if
// the values are not positive definite.
template <class S, class H>
bool spd_solve_implicit(const S* A, const int* lo, const int* hi, const S* D, const H& h, int n, const S* b,
                        double* L, FactorEnvelope& env, S* x) {
  // The factorisation and the solves read the lower triangle only; row p of A is zero left of lo[p], so the
  // search for its first nonzero starts there.
  for (int p = 0; p < n; ++p)
    for (int q = 0; q <= p; ++q) L[p * n + q] = value(A[p * n + q]);
  if (D)
    for (int i = 0; i < n; ++i) L[i * n + i] += value(h) * value(D[i]);
  if (!envelope_factor(L, n, env, lo)) return false;
  spd_solve_factored(A, lo, hi, D, h, n, b, L, env, x);
  return true;
}

}  // namespace sg
