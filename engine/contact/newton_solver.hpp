#pragma once
// Newton's method on MuJoCo's primal constraint problem (engine-notes section 1), as MuJoCo's default solver:
// minimise 1/2 |a - a0|_M^2 + sum_i 1/2 D_i min(0, J_i a - aref_i)^2 over the accelerations a, D = 1/R, with
// an exact line search on the piecewise-quadratic objective. Once the active set settles, one full Newton
// step lands on the minimiser of that quadratic piece, so the values and their forward-mode derivatives are
// exact; the iteration count is bounded, so AD unrolls a fixed program.
#include "engine/contact/constraint_rows.hpp"
#include "engine/contact/dense_cholesky.hpp"
#include "engine/contact/pgs_solver.hpp"

namespace sg {

template <class S, int MaxBodies>
struct NewtonWorkspace {
  static constexpr int kMaxN = 6 * MaxBodies;
  static constexpr int kMaxRows = 256;
  S H[kMaxN * kMaxN];
  S grad[kMaxN], dir[kMaxN], a[kMaxN], a0[kMaxN], mass[kMaxN];
  S jar[kMaxRows], jdir[kMaxRows];  // J a - aref and J dir per row
  bool active[kMaxRows];
  // The active set a solve ended with, per caller slot: the next solve's first Newton step uses it as a
  // guess. Only the guess is reused (the iteration still starts from the unconstrained accelerations), so the
  // result and its derivatives are those of a cold start; a good guess saves one Hessian and factorisation.
  static constexpr int kSlots = 3;
  bool guess[kSlots][kMaxRows];
  int guess_count[kSlots] = {};
};

namespace newton_detail {

template <class S>
SG_HD inline S row_times(const ConstraintRow<S>& row, const S* v) {
  S s = 0.0;
  if (row.body_a >= 0) {
    const S* x = v + 6 * row.body_a;
    s += row.ja.lin.x * x[0] + row.ja.lin.y * x[1] + row.ja.lin.z * x[2] + row.ja.ang.x * x[3] +
         row.ja.ang.y * x[4] + row.ja.ang.z * x[5];
  }
  if (row.body_b >= 0) {
    const S* x = v + 6 * row.body_b;
    s += row.jb.lin.x * x[0] + row.jb.lin.y * x[1] + row.jb.lin.z * x[2] + row.jb.ang.x * x[3] +
         row.jb.ang.y * x[4] + row.jb.ang.z * x[5];
  }
  return s;
}

// Row i's Jacobian as (index, coefficient) pairs over the flat acceleration vector (at most 12).
template <class S>
SG_HD inline int row_entries(const ConstraintRow<S>& row, int* idx, S* val) {
  int n = 0;
  auto add = [&](int body, const RowJacobian<S>& j) {
    const S c[6] = {j.lin.x, j.lin.y, j.lin.z, j.ang.x, j.ang.y, j.ang.z};
    for (int k = 0; k < 6; ++k) {
      idx[n] = 6 * body + k;
      val[n++] = c[k];
    }
  };
  if (row.body_a >= 0) add(row.body_a, row.ja);
  if (row.body_b >= 0) add(row.body_b, row.jb);
  return n;
}

}  // namespace newton_detail

// acc: the unconstrained accelerations on entry, the constrained ones on return; rows[i].force is set.
template <class S, int MaxBodies>
SG_HD bool solve_newton(ConstraintRow<S>* rows, int count, const S* body_mass, const Vec3<S>* body_inertia,
                        int bodies, BodyVelocity<S>* acc, int max_iterations,
                        NewtonWorkspace<S, MaxBodies>& ws, int slot = 0) {
  using namespace newton_detail;
  const int n = 6 * bodies, ld = NewtonWorkspace<S, MaxBodies>::kMaxN;
  for (int b = 0; b < bodies; ++b) {
    for (int k = 0; k < 3; ++k) {
      ws.a0[6 * b + k] = acc[b].lin[k];
      ws.a0[6 * b + 3 + k] = acc[b].ang[k];
      ws.mass[6 * b + k] = body_mass[b];
      ws.mass[6 * b + 3 + k] = body_inertia[b][k];
    }
  }
  // A cold start from the unconstrained accelerations: warm-starting from the previous call's solution let
  // that solution's tangents leak into the derivatives whenever the line search stopped short of a full step.
  for (int i = 0; i < n; ++i) ws.a[i] = ws.a0[i];
  if (count > NewtonWorkspace<S, MaxBodies>::kMaxRows) count = NewtonWorkspace<S, MaxBodies>::kMaxRows;
  bool converged = count == 0;
  for (int it = 0; it < max_iterations && !converged; ++it) {
    // The active set at the current accelerations; unchanged after a full step means a is that quadratic
    // piece's exact minimiser.
    bool same_set = it > 0;
    const bool use_guess = it == 0 && ws.guess_count[slot] == count;
    for (int r = 0; r < count; ++r) {
      ws.jar[r] = row_times(rows[r], ws.a) - rows[r].aref;
      const bool active = use_guess ? ws.guess[slot][r] : ws.jar[r] < 0.0;
      same_set = same_set && (active == ws.active[r]);
      ws.active[r] = active;
    }
    if (same_set) {
      converged = true;
      break;
    }
    // Gradient and Hessian with this active set.
    for (int i = 0; i < n; ++i) ws.grad[i] = ws.mass[i] * (ws.a[i] - ws.a0[i]);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) ws.H[i * ld + j] = S(0.0);
    for (int i = 0; i < n; ++i) ws.H[i * ld + i] = ws.mass[i];
    for (int r = 0; r < count; ++r) {
      if (!ws.active[r]) continue;
      const S D = 1.0 / rows[r].R;
      int idx[12];
      S val[12];
      const int m = row_entries(rows[r], idx, val);
      const S Dj = D * ws.jar[r];
      for (int p = 0; p < m; ++p) {
        ws.grad[idx[p]] += Dj * val[p];
        const S Dv = D * val[p];
        for (int q = 0; q < m; ++q) ws.H[idx[p] * ld + idx[q]] += Dv * val[q];
      }
    }
    if (!cholesky_factor(ws.H, n, ld)) return false;
    for (int i = 0; i < n; ++i) ws.dir[i] = -ws.grad[i];
    cholesky_solve(ws.H, n, ld, ws.dir);
    // Exact line search: 1-D Newton on the convex piecewise quadratic phi(alpha) = f(a + alpha dir), whose
    // pieces only need J a - aref and J dir per row.
    S base = 0.0, curvature = 0.0;
    for (int i = 0; i < n; ++i) {
      base += ws.mass[i] * (ws.a[i] - ws.a0[i]) * ws.dir[i];
      curvature += ws.mass[i] * ws.dir[i] * ws.dir[i];
    }
    for (int r = 0; r < count; ++r) ws.jdir[r] = row_times(rows[r], ws.dir);
    S alpha = 1.0;
    for (int ls = 0; ls < 20; ++ls) {
      S d1 = base + alpha * curvature, d2 = curvature;
      for (int r = 0; r < count; ++r) {
        const S jar = ws.jar[r] + alpha * ws.jdir[r];
        if (!(jar < 0.0)) continue;
        const S D = 1.0 / rows[r].R;
        d1 += D * jar * ws.jdir[r];
        d2 += D * ws.jdir[r] * ws.jdir[r];
      }
      if (!(d2 > 0.0)) break;
      const S step = d1 / d2;
      alpha -= step;
      if (abs(value(step)) <= 1e-14 * (1.0 + abs(value(alpha)))) break;
    }
    for (int i = 0; i < n; ++i) ws.a[i] += alpha * ws.dir[i];
  }
  for (int r = 0; r < count; ++r) ws.guess[slot][r] = ws.active[r];
  ws.guess_count[slot] = count;
  for (int b = 0; b < bodies; ++b)
    for (int k = 0; k < 3; ++k) {
      acc[b].lin[k] = ws.a[6 * b + k];
      acc[b].ang[k] = ws.a[6 * b + 3 + k];
    }
  for (int r = 0; r < count; ++r) {
    const S slack = rows[r].aref - row_times(rows[r], ws.a);
    rows[r].force = slack > 0.0 ? slack / rows[r].R : S(0.0);
  }
  return converged;
}

}  // namespace sg
