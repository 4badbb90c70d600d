#pragma once
// Cholesky factorisation and solves of the joint tree's matrices (the mass matrix qM and the Newton
// Hessian M + J' D J) that skip their leading zeros. Dofs of different trees (each free body of a
// free-body scene) couple only through constraint rows between them, so these matrices are block diagonal
// or nearly: a dense factor of four free boxes (24 dofs) spends 16x the arithmetic of its four 6 x 6 blocks.
// Row i's entries left of its first nonzero (first[i]) are zero in the matrix and stay zero in the factor
// (fill-in stays inside the envelope), so the sums below drop only products with an exact zero factor:
// the same numbers as the dense cholesky_factor and cholesky_solve (engine/contact/dense_cholesky.hpp),
// which MuJoCo's own dense mju_cholFactor also computes for a dense Hessian.
#include <algorithm>
#include <cmath>

#include "engine/articulated/tree_model.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// Where a factor's nonzeros are: row i's first nonzero column, column j's last nonzero row.
struct FactorEnvelope {
  int first[kMaxDofs] = {};
  int last[kMaxDofs] = {};
};

// A = L L' for A (n x n, row-major, leading dimension n) symmetric positive definite: L overwrites the
// lower triangle, env receives its envelope. Only the lower triangle is read. lo (optional): row i is
// known to be zero left of column lo[i] (qM's spans), so the search for its first nonzero starts there.
// False if A is not positive definite.
inline bool envelope_factor(double* A, int n, FactorEnvelope& env, const int* lo = nullptr) {
  for (int i = 0; i < n; ++i) {
    int f = lo ? std::min(lo[i], i) : 0;
    while (f < i && A[i * n + f] == 0.0) ++f;
    env.first[i] = f;
    env.last[i] = i;
  }
  for (int i = 0; i < n; ++i) env.last[env.first[i]] = std::max(env.last[env.first[i]], i);
  for (int j = 1; j < n; ++j) env.last[j] = std::max(env.last[j], env.last[j - 1]);  // rows reaching past j
  for (int j = 0; j < n; ++j) {
    const double* row_j = A + j * n;
    double d = row_j[j];
    for (int k = env.first[j]; k < j; ++k) d -= row_j[k] * row_j[k];
    if (!(d > 0.0)) return false;
    const double l = std::sqrt(d);
    A[j * n + j] = l;
    const double inv = 1.0 / l;
    for (int i = j + 1; i <= env.last[j]; ++i) {
      if (env.first[i] > j) continue;  // zero in A and in L
      double* row_i = A + i * n;
      double s = row_i[j];
      for (int k = std::max(env.first[i], env.first[j]); k < j; ++k) s -= row_i[k] * row_j[k];
      row_i[j] = s * inv;
    }
  }
  return true;
}

// Solves L L' x = b in place (b becomes x) with a factor of envelope_factor; b's scalar may carry
// derivatives (the factor is a double one: engine/articulated/implicit_solve.hpp).
template <class S>
void envelope_solve(const double* L, int n, const FactorEnvelope& env, S* b) {
  for (int i = 0; i < n; ++i) {
    S s = b[i];
    for (int k = env.first[i]; k < i; ++k) s -= L[i * n + k] * b[k];
    b[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    S s = b[i];
    for (int k = i + 1; k <= env.last[i]; ++k) s -= L[k * n + i] * b[k];
    b[i] = s / L[i * n + i];
  }
}

}  // namespace sg
