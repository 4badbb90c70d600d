#pragma once
// In-place Cholesky factorisation and solve of a small dense symmetric positive definite matrix (row-major,
// leading dimension ld). For the constraint solver's Hessians (6 per body, at most 48 x 48).
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

// Solves L L' x = b in place (b becomes x).
template <class S>
SG_HD void cholesky_solve(const S* L, int n, int ld, S* b) {
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

// The same with the size and leading dimension known at compile time (the solver's 6 x 6 body blocks): the
// loops unroll completely.
template <int N>
SG_HD inline bool cholesky_factor_fixed(double* A) {
  for (int j = 0; j < N; ++j) {
    double d = A[j * N + j];
    for (int k = 0; k < j; ++k) d -= A[j * N + k] * A[j * N + k];
    if (!(d > 0.0)) return false;
    const double l = std::sqrt(d);
    A[j * N + j] = l;
    const double inv = 1.0 / l;
    for (int i = j + 1; i < N; ++i) {
      double s = A[i * N + j];
      for (int k = 0; k < j; ++k) s -= A[i * N + k] * A[j * N + k];
      A[i * N + j] = s * inv;
    }
  }
  return true;
}

template <int N>
SG_HD inline void cholesky_solve_fixed(const double* L, double* b) {
  for (int i = 0; i < N; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k) s -= L[i * N + k] * b[k];
    b[i] = s / L[i * N + i];
  }
  for (int i = N - 1; i >= 0; --i) {
    double s = b[i];
    for (int k = i + 1; k < N; ++k) s -= L[k * N + i] * b[k];
    b[i] = s / L[i * N + i];
  }
}

}  // namespace sg
