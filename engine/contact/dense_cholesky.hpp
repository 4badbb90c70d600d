#pragma once
// In-place Cholesky factorisation and solve of a small dense symmetric positive definite matrix (row-major,
// leading dimension ld). For the constraint solver's Hessians (6 per body, at most 48 x 48).
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// A = L L'; L overwrites the lower triangle. Returns false if A is not positive definite.
template <class S>
SG_HD bool cholesky_factor(S* A, int n, int ld) {
  for (int j = 0; j < n; ++j) {
    S d = A[j * ld + j];
    for (int k = 0; k < j; ++k) d -= A[j * ld + k] * A[j * ld + k];
    if (!(d > 0.0)) return false;
    const S l = sqrt(d);
    A[j * ld + j] = l;
    const S inv = 1.0 / l;
    for (int i = j + 1; i < n; ++i) {
      S s = A[i * ld + j];
      for (int k = 0; k < j; ++k) s -= A[i * ld + k] * A[j * ld + k];
      A[i * ld + j] = s * inv;
    }
  }
  return true;
}

// Solves L L' x = b in place (b becomes x). L may hold another scalar than b (a double factor of a dual
// system's values: engine/articulated/implicit_solve.hpp).
template <class M, class S>
SG_HD void cholesky_solve(const M* L, int n, int ld, S* b) {
  for (int i = 0; i < n; ++i) {
    S s = b[i];
    for (int k = 0; k < i; ++k) s -= L[i * ld + k] * b[k];
    b[i] = s / L[i * ld + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    S s = b[i];
    for (int k = i + 1; k < n; ++k) s -= L[k * ld + i] * b[k];
    b[i] = s / L[i * ld + i];
  }
}

// The same with the size known at compile time (the solver's 6 x 6 body blocks), from the lower triangle of
// a symmetric row-major matrix A into the lower triangle of the factor L (another array), and
// the reciprocals of L's diagonal (the solve multiplies instead of dividing: divisions dominated the
// block solves' latency). The loops unroll completely and everything stays in locals (no aliasing).
template <int N>
SG_HD inline bool cholesky_factor_fixed(const double* __restrict A, double* __restrict L,
                                        double* __restrict inv_diag) {
  double l[N][N];
  SG_UNROLL for (int j = 0; j < N; ++j) {
    double d = A[j * N + j];
    SG_UNROLL for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
    if (!(d > 0.0)) return false;
    const double root = std::sqrt(d);
    const double inv = 1.0 / root;
    l[j][j] = root;
    inv_diag[j] = inv;
    SG_UNROLL for (int i = j + 1; i < N; ++i) {
      double s = A[i * N + j];
      SG_UNROLL for (int k = 0; k < j; ++k) s -= l[i][k] * l[j][k];
      l[i][j] = s * inv;
    }
  }
  SG_UNROLL for (int i = 0; i < N; ++i) SG_UNROLL for (int j = 0; j <= i; ++j) L[i * N + j] = l[i][j];
  return true;
}

// Solves L L' x = b in place with the factor of cholesky_factor_fixed.
template <int N>
SG_HD inline void cholesky_solve_fixed(const double* __restrict L, const double* __restrict inv_diag,
                                       double* __restrict b) {
  double x[N];
  SG_UNROLL for (int i = 0; i < N; ++i) {
    double s = b[i];
    SG_UNROLL for (int k = 0; k < i; ++k) s -= L[i * N + k] * x[k];
    x[i] = s * inv_diag[i];
  }
  SG_UNROLL for (int i = N - 1; i >= 0; --i) {
    double s = x[i];
    SG_UNROLL for (int k = i + 1; k < N; ++k) s -= L[k * N + i] * x[k];
    x[i] = s * inv_diag[i];
  }
  SG_UNROLL for (int i = 0; i < N; ++i) b[i] = x[i];
}

}  // namespace sg
