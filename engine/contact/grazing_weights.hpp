#pragma once
// The weights of grazing contacts (Filippov's sliding mode, docs/engine.md "Grazing"), shared by the free
// bodies (engine/rigid/grazing.hpp) and the joint trees (engine/model/tree_grazing.hpp). Contact k's force
// is scaled by s_k = 1 - u_k so that its distance's acceleration r_k'' reaches a target: with A[k][j] the
// change of r_k'' that contact j's whole force makes (its field minus the field without it) and b_k the
// r_k'' with every grazing contact at full force less the target, sum_j A[k][j] u_j = b_k.
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

inline constexpr int kMaxGrazing = 8;

namespace grazing_detail {

// Solves A x = b in place (b becomes x) by Gaussian elimination with partial pivoting; false if singular.
template <class S>
SG_HD inline bool solve_small(S (*A)[kMaxGrazing], S* b, int m) {
  for (int c = 0; c < m; ++c) {
    int p = c;
    for (int r = c + 1; r < m; ++r)
      if (abs(value(A[r][c])) > abs(value(A[p][c]))) p = r;
    if (!(abs(value(A[p][c])) > 1e-300)) return false;
    if (p != c) {
      for (int k = 0; k < m; ++k) {
        const S t = A[c][k];
        A[c][k] = A[p][k];
        A[p][k] = t;
      }
      const S t = b[c];
      b[c] = b[p];
      b[p] = t;
    }
    for (int r = c + 1; r < m; ++r) {
      const S f = A[r][c] / A[c][c];
      for (int k = c; k < m; ++k) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int c = m - 1; c >= 0; --c) {
    S s = b[c];
    for (int k = c + 1; k < m; ++k) s -= A[c][k] * b[k];
    b[c] = s / A[c][c];
  }
  return true;
}

}  // namespace grazing_detail

// u: in, b (with the stabilisation target); out, the weights' complements u_k = 1 - s_k. u0: in, b without
// the target (r'' = 0); out, the complements of the physical weights, which decide when the mode ends (so
// that the drift correction never does). A and A0 (its values) are overwritten. False if singular (a
// grazing contact without force).
template <class S>
SG_HD bool solve_grazing_weights(S (*A)[kMaxGrazing], S* u, double (*A0)[kMaxGrazing], double* u0, int m) {
  return grazing_detail::solve_small(A, u, m) && grazing_detail::solve_small(A0, u0, m);
}

}  // namespace sg
