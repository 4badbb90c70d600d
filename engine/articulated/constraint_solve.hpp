#pragma once
// The constraint solve in generalised coordinates (MuJoCo 2.2.2 engine_solver.c, Newton on the primal):
// qacc minimises 1/2 |qacc - qacc_smooth|_M^2 + sum_r 1/2 D_r min(0, J_r qacc - aref_r)^2, a strictly
// convex piecewise quadratic. As engine/contact/newton_solver.hpp does for free bodies, the active set is
// found on values (Newton steps with the Hessian M + J' D J over the active rows and an exact line search),
// and derivatives come from implicit differentiation of the final piece's optimality condition
// qfrc_smooth - M qacc + J' D (aref - J qacc) = 0 at the solution: one solve per derivative direction.
#include <cmath>

#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/implicit_solve.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/contact/dense_cholesky.hpp"
#include "engine/contact/exact_line_search.hpp"
#include "engine/core/fused_sums.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// The values the search needs, in double.
struct TreeNewtonWorkspace {
  double M[kMaxDofs * kMaxDofs], H[kMaxDofs * kMaxDofs];
  double J[kMaxEfc * kMaxDofs];
  double D[kMaxEfc], aref[kMaxEfc], jar[kMaxEfc], jdir[kMaxEfc];
  double a0[kMaxDofs], a[kMaxDofs], grad[kMaxDofs], dir[kMaxDofs];
  bool active[kMaxEfc], next[kMaxEfc];
};

namespace tree_newton_detail {

inline double row_dot(const double* j, const double* x, int nv) {
  double s = 0.0;
  for (int i = 0; i < nv; ++i) s += j[i] * x[i];
  return s;
}

template <class S>
void load_values(const TreeModel<S>& m, const TreeData<S>& d, const TreeConstraintData<S>& cd,
                 TreeNewtonWorkspace& ws) {
  const int nv = m.nv;
  for (int k = 0; k < nv * nv; ++k) ws.M[k] = value(d.qM[k]);
  for (int i = 0; i < nv; ++i) ws.a0[i] = value(cd.qacc_smooth[i]);
  for (int r = 0; r < cd.nefc; ++r) {
    for (int i = 0; i < nv; ++i) ws.J[r * kMaxDofs + i] = value(cd.efc_J[r * kMaxDofs + i]);
    ws.D[r] = value(cd.efc_D[r]);
    ws.aref[r] = value(cd.efc_aref[r]);
  }
}

// H = M + sum over active rows of D J' J, factorised in place. False if not positive definite.
inline bool factor_hessian(int nv, int nefc, TreeNewtonWorkspace& ws) {
  for (int k = 0; k < nv * nv; ++k) ws.H[k] = ws.M[k];
  for (int r = 0; r < nefc; ++r) {
    if (!ws.active[r]) continue;
    const double* j = ws.J + r * kMaxDofs;
    for (int p = 0; p < nv; ++p) {
      if (j[p] == 0.0) continue;
      const double Dj = ws.D[r] * j[p];
      for (int q = 0; q <= p; ++q) ws.H[p * nv + q] += Dj * j[q];
    }
  }
  return cholesky_factor(ws.H, nv, nv);
}

// The cost's gradient M (a - a0) + J' D jar over the active rows, and the Newton direction -H^-1 grad.
inline void newton_direction(int nv, int nefc, TreeNewtonWorkspace& ws) {
  for (int p = 0; p < nv; ++p) {
    double s = 0.0;
    for (int q = 0; q < nv; ++q) s += ws.M[p * nv + q] * (ws.a[q] - ws.a0[q]);
    ws.grad[p] = s;
  }
  for (int r = 0; r < nefc; ++r) {
    if (!ws.active[r]) continue;
    const double Dj = ws.D[r] * ws.jar[r];
    for (int p = 0; p < nv; ++p) ws.grad[p] += Dj * ws.J[r * kMaxDofs + p];
  }
  for (int p = 0; p < nv; ++p) ws.dir[p] = -ws.grad[p];
  cholesky_solve(ws.H, nv, nv, ws.dir);
}

// Exact line search: 1-D Newton on phi(alpha) = cost(a + alpha dir), piecewise quadratic and convex; its
// pieces need only M-products along dir and J a - aref, J dir per row.
inline double line_search(int nv, int nefc, TreeNewtonWorkspace& ws) {
  double base = 0.0, curvature = 0.0;
  for (int p = 0; p < nv; ++p) {
    double Md = 0.0;
    for (int q = 0; q < nv; ++q) Md += ws.M[p * nv + q] * ws.dir[q];
    base += (ws.a[p] - ws.a0[p]) * Md;
    curvature += ws.dir[p] * Md;
  }
  for (int r = 0; r < nefc; ++r) ws.jdir[r] = row_dot(ws.J + r * kMaxDofs, ws.dir, nv);
  return exact_line_search(base, curvature, ws.jar, ws.jdir, ws.D, nefc, 50, 1e-15);
}

// Newton from qacc_smooth until a full step leaves the active set unchanged (the piece's exact minimiser)
// or the step is at rounding level.
// Returns the iterations used, or -1 if the Hessian failed or the search did not settle.
inline int search(int nv, int nefc, int max_iterations, TreeNewtonWorkspace& ws) {
  for (int i = 0; i < nv; ++i) ws.a[i] = ws.a0[i];
  bool factored = false;
  for (int it = 0; it < max_iterations; ++it) {
    bool same = factored;
    for (int r = 0; r < nefc; ++r) {
      ws.jar[r] = row_dot(ws.J + r * kMaxDofs, ws.a, nv) - ws.aref[r];
      ws.next[r] = ws.jar[r] < 0.0;
      same = same && ws.next[r] == ws.active[r];
    }
    if (same) return it;
    for (int r = 0; r < nefc; ++r) ws.active[r] = ws.next[r];
    if (!factor_hessian(nv, nefc, ws)) return -1;
    factored = true;
    newton_direction(nv, nefc, ws);
    const double alpha = line_search(nv, nefc, ws);
    double step = 0.0, size = 1.0;
    for (int i = 0; i < nv; ++i) {
      ws.a[i] += alpha * ws.dir[i];
      step = std::fmax(step, std::fabs(alpha * ws.dir[i]));
      size = std::fmax(size, std::fabs(ws.a[i]));
    }
    // A row whose J a - aref sits at rounding level may flip back and forth: a step at rounding level is
    // the minimiser too (the factor in ws.H is that of the active set in ws.active).
    if (step <= 1e-14 * size) return it + 1;
  }
  return -1;
}

// qacc with the values of ws.a and, when S carries derivatives, those of H^-1 res for the optimality
// residual res = qfrc_smooth - M a + J' D (aref - J a) over the active rows at the fixed values a: one solve
// of res with the factor in ws.H (implicit_solve.hpp), so that values stay exactly ws.a for any scalar type.
template <class S>
void write_qacc(const TreeModel<S>& m, TreeData<S>& d, const TreeConstraintData<S>& cd,
                const TreeNewtonWorkspace& ws) {
  const int nv = m.nv;
  if constexpr (!has_derivatives_v<S>) {
    (void)cd;
    for (int i = 0; i < nv; ++i) d.qacc[i] = ws.a[i];
  } else {
    int rows[kMaxEfc];
    S w[kMaxEfc];  // D (aref - J a) per active row
    int n = 0;
    for (int r = 0; r < cd.nefc; ++r) {
      if (!ws.active[r]) continue;
      w[n] = cd.efc_D[r] * (cd.efc_aref[r] - dot_values(cd.efc_J + r * kMaxDofs, 1, ws.a, nv));
      rows[n++] = r;
    }
    S res[kMaxDofs];
    for (int p = 0; p < nv; ++p)
      res[p] = minus_dot_values(d.qfrc_smooth[p], d.qM + p * nv, 1, ws.a, nv) +
               dot_gather(cd.efc_J + p, kMaxDofs, rows, w, n);
    cholesky_solve_mixed(ws.H, nv, nv, res);
    for (int i = 0; i < nv; ++i) d.qacc[i] = with_value(res[i], ws.a[i]);
  }
}

}  // namespace tree_newton_detail

// The constrained qacc from qacc_smooth (cd.qacc_smooth, d.qfrc_smooth) and the rows (J, D, aref): then
// efc_force = D (aref - J qacc) on rows with J qacc < aref, 0 on the others, and qfrc_constraint = J' force.
// Returns false if the Hessian was not positive definite or the search did not settle in the iterations.
template <class S>
bool tree_solve_constraints(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, TreeData<S>& d,
                            TreeConstraintData<S>& cd, TreeNewtonWorkspace& ws) {
  using namespace tree_newton_detail;
  const int nv = m.nv;
  for (int i = 0; i < nv; ++i) cd.qfrc_constraint[i] = 0.0;
  if (cd.nefc == 0) {
    for (int i = 0; i < nv; ++i) d.qacc[i] = cd.qacc_smooth[i];
    cd.solver_iterations = 0;
    return true;
  }
  load_values(m, d, cd, ws);
  // The iteration cap is generous: each step's exact line search makes the active set settle in few.
  const int its = search(nv, cd.nefc, cm.opt.iterations > 50 ? cm.opt.iterations : 50, ws);
  cd.solver_iterations = its;
  if (its < 0) return false;
  write_qacc(m, d, cd, ws);
  int rows[kMaxEfc];
  S force[kMaxEfc];  // the active rows' forces, packed
  int n = 0;
  for (int r = 0; r < cd.nefc; ++r) {
    cd.efc_active[r] = ws.active[r];
    if (!ws.active[r]) {
      cd.efc_force[r] = 0.0;
      continue;
    }
    const S ja = dot_strided(cd.efc_J + r * kMaxDofs, 1, d.qacc, 1, nv);
    cd.efc_force[r] = cd.efc_D[r] * (cd.efc_aref[r] - ja);
    force[n] = cd.efc_force[r];
    rows[n++] = r;
  }
  gather_transpose_times(cd.efc_J, kMaxDofs, rows, force, n, nv, cd.qfrc_constraint);
  return true;
}

}  // namespace sg
