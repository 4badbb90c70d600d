#pragma once
// Gauss-Seidel impulse solver for hard contact with analytic sigmoid smoothing (engine-notes section 6).
// Each contact has 3 rows: normal, tangent 1, tangent 2. Inputs are the Delassus matrix G = J M^-1 J^T,
// the free contact velocity c = J (v + h M^-1 f), the penetration depths d (positive inside), friction mu
// and the smoothing stiffness kappa (inf = hard). Fixed iteration count, so forward AD unrolls it.
#include "engine/core/scalar.hpp"

namespace sg {

// prox onto the friction cone: 0 when the normal impulse pulls, tangential part scaled onto mu p_n.
template <class S>
SG_HD inline void friction_cone_prox(S p[3], const S& mu) {
  if (p[0] <= 0.0) {
    p[0] = p[1] = p[2] = S(0.0);
    return;
  }
  const S t2 = p[1] * p[1] + p[2] * p[2];
  const S limit = mu * p[0];
  if (!(t2 > limit * limit)) return;
  const S scale = limit / sqrt(t2);
  p[1] = p[1] * scale;
  p[2] = p[2] * scale;
}

// Inverse of a symmetric positive definite 3x3 block (by cofactors; the blocks are small and well scaled).
template <class S>
SG_HD inline void invert3(const S a[9], S inv[9]) {
  const S c00 = a[4] * a[8] - a[5] * a[7], c01 = a[5] * a[6] - a[3] * a[8], c02 = a[3] * a[7] - a[4] * a[6];
  const S det = a[0] * c00 + a[1] * c01 + a[2] * c02;
  const S id = 1.0 / det;
  inv[0] = c00 * id;
  inv[1] = (a[2] * a[7] - a[1] * a[8]) * id;
  inv[2] = (a[1] * a[5] - a[2] * a[4]) * id;
  inv[3] = c01 * id;
  inv[4] = (a[0] * a[8] - a[2] * a[6]) * id;
  inv[5] = (a[2] * a[3] - a[0] * a[5]) * id;
  inv[6] = c02 * id;
  inv[7] = (a[1] * a[6] - a[0] * a[7]) * id;
  inv[8] = (a[0] * a[4] - a[1] * a[3]) * id;
}

// G is (3 nc) x (3 nc) row-major with leading dimension 3*MaxC; c, p have 3 nc entries, d and mu nc.
template <class S, int MaxC>
struct GaussSeidelProblem {
  int nc = 0;
  S G[3 * MaxC][3 * MaxC];
  S c[3 * MaxC];
  S depth[MaxC];
  S mu[MaxC];
};

// Writes the smoothed impulses p (3 nc). r_j = 1 / (1 + sum_k |G_jk|) with |.| the block's max row sum:
// the paper's bounded relaxation factor (its Alg. 2 writes det(G_jk); the text writes |G_jk|).
template <class S, int MaxC>
SG_HD void solve_gauss_seidel(const GaussSeidelProblem<S, MaxC>& pb, const S& kappa, int iterations, S* p) {
  const int nc = pb.nc;
  const double kap = value(kappa);
  S weight[MaxC];
  for (int j = 0; j < nc; ++j)
    weight[j] = kap < kInf ? sigmoid(kappa * pb.depth[j]) : smooth_step(pb.depth[j], kInf);
  for (int j = 0; j < nc; ++j) {  // p_j = -G_jj^-1 c_j
    S blk[9], inv[9];
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) blk[3 * a + b] = pb.G[3 * j + a][3 * j + b];
    invert3(blk, inv);
    for (int a = 0; a < 3; ++a)
      p[3 * j + a] =
          -(inv[3 * a] * pb.c[3 * j] + inv[3 * a + 1] * pb.c[3 * j + 1] + inv[3 * a + 2] * pb.c[3 * j + 2]);
  }
  S relax[MaxC];
  for (int j = 0; j < nc; ++j) {
    S sum = 0.0;
    for (int k = 0; k < nc; ++k) {
      S row_max = 0.0;
      for (int a = 0; a < 3; ++a) {
        S row = 0.0;
        for (int b = 0; b < 3; ++b) row += abs(pb.G[3 * j + a][3 * k + b]);
        row_max = max(row_max, row);
      }
      sum += row_max;
    }
    relax[j] = 1.0 / (1.0 + sum);
  }
  for (int it = 0; it < iterations; ++it) {
    for (int j = 0; j < nc; ++j) {
      S upd[3];
      for (int a = 0; a < 3; ++a) {
        S s = pb.c[3 * j + a];
        for (int k = 0; k < nc; ++k) {
          const S wk = (k == j) ? S(1.0) : weight[k];  // a contact's own impulse is not weighted
          for (int b = 0; b < 3; ++b)
            if (!is_zero(pb.G[3 * j + a][3 * k + b])) s += pb.G[3 * j + a][3 * k + b] * (p[3 * k + b] * wk);
        }
        upd[a] = p[3 * j + a] - relax[j] * s;
      }
      friction_cone_prox(upd, pb.mu[j]);
      for (int a = 0; a < 3; ++a) p[3 * j + a] = upd[a];
    }
  }
  for (int j = 0; j < nc; ++j)
    for (int a = 0; a < 3; ++a) p[3 * j + a] = p[3 * j + a] * weight[j];
}

}  // namespace sg
