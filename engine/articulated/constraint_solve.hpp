#pragma once
// The constraint solve in generalised coordinates (MuJoCo 2.2.2 engine_solver.c, Newton on the primal):
// qacc minimises 1/2 |qacc - qacc_smooth|_M^2 + sum_r 1/2 D_r min(0, J_r qacc - aref_r)^2, a strictly
// convex piecewise quadratic (with elliptic cones: convex, constraint_solve_cone.hpp). As
// engine/contact/newton_solver.hpp does for free bodies, the active set is
// found on values (Newton steps with the Hessian M + J' D J over the active rows and an exact line search),
// and derivatives come from implicit differentiation of the final piece's optimality condition
// qfrc_smooth - M qacc + J' D (aref - J qacc) = 0 at the solution: one solve per derivative direction.
#include <type_traits>

#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/constraint_newton.hpp"
#include "engine/articulated/constraint_solve_cone.hpp"
#include "engine/articulated/implicit_solve.hpp"
#include "engine/core/fused_sums.hpp"

namespace sg {

namespace tree_newton_detail {

// The forces of the rows that push, at J x given per row by ja(r): D (aref - J x) for a scalar row (a
// friction-loss row at its bound: the bound), the cone's law (cone_forces, in the zone the search ended in)
// for an elliptic cone's rows. Packed into rows and force; returns their count.
template <class S, class RowTimes>
int pushing_forces(const TreeConstraintData<S>& cd, const TreeNewtonWorkspace& ws, RowTimes ja, int* rows,
                   S* force) {
  int n = 0;
  for (int r = 0; r < cd.nefc; ++r) {
    if (!ws.active[r]) continue;
    const int c = ws.cone_of[r];
    if (ws.floss[r] > 0.0 && ws.fstate[r] != 0) {  // a friction row at its bound: the bound's force
      force[n] = ws.fstate[r] > 0 ? S(-cd.efc_frictionloss[r]) : cd.efc_frictionloss[r];
      rows[n++] = r;
      continue;
    }
    if (c < 0) {
      force[n] = cd.efc_D[r] * (cd.efc_aref[r] - ja(r));
      rows[n++] = r;
      continue;
    }
    const int dim = ws.cone_dim[c];  // r is the cone's first row: its rows push or rest together
    S jar[6];
    for (int j = 0; j < dim; ++j) jar[j] = ja(r + j) - cd.efc_aref[r + j];
    const TreeContact<S>& con = cd.contact[cd.efc_id[r]];
    cone_forces(ws.zone[c], dim, jar, cd.efc_D + r, con.mu, con.friction, force + n);
    for (int j = 0; j < dim; ++j) rows[n + j] = r + j;
    n += dim;
    r += dim - 1;
  }
  return n;
}

// J' w over the packed rows, each row over its span (it is exact zeros outside, where efc_J is not stored),
// accumulated row by row from zero as gather_transpose_times does, so values and derivatives are the same;
// the reverse scalar keeps its fused sums, one node per dof over the rows whose span holds it (the others'
// terms are exact zeros, which get no link).
template <class S>
void rows_transpose_times(const TreeConstraintData<S>& cd, const int* rows, const S* w, int n, int nv,
                          S* out) {
  if constexpr (is_reverse_v<S>) {
    for (int p = 0; p < nv; ++p) {
      int in[kMaxEfc];
      S win[kMaxEfc];
      int count = 0;
      for (int k = 0; k < n; ++k)
        if (cd.efc_lo[rows[k]] <= p && p < cd.efc_hi[rows[k]]) in[count] = rows[k], win[count++] = w[k];
      out[p] = dot_gather(cd.efc_J + p, kMaxDofs, in, win, count);
    }
  } else {
    for (int p = 0; p < nv; ++p) out[p] = 0.0;
    for (int k = 0; k < n; ++k) {
      const int r = rows[k];
      const S* j = cd.efc_J + r * kMaxDofs;
      for (int p = cd.efc_lo[r]; p < cd.efc_hi[r]; ++p) out[p] += j[p] * w[k];
    }
  }
}

// J_r x over the row's span.
template <class S, class X>
S row_times(const TreeConstraintData<S>& cd, int r, const X* x) {
  const int lo = cd.efc_lo[r];
  if constexpr (std::is_same_v<X, double>)
    return dot_values(cd.efc_J + r * kMaxDofs + lo, 1, x + lo, cd.efc_hi[r] - lo);
  else
    return dot_strided(cd.efc_J + r * kMaxDofs + lo, 1, x + lo, 1, cd.efc_hi[r] - lo);
}

// qacc with the values of ws.a and, when S carries derivatives, those of H^-1 res for the optimality
// residual res = qfrc_smooth - M a + J' force(J a - aref) over the pushing rows at the fixed values a: one
// solve of res with the factor in ws.H (implicit_solve.hpp; the Hessian at a, cones included), so that values
// stay exactly ws.a for any scalar type.
template <class S>
void write_qacc(const TreeModel<S>& m, TreeData<S>& d, const TreeConstraintData<S>& cd,
                const TreeNewtonWorkspace& ws) {
  const int nv = m.nv;
  if constexpr (!has_derivatives_v<S>) {
    (void)cd;
    for (int i = 0; i < nv; ++i) d.qacc[i] = ws.a[i];
  } else {
    int rows[kMaxEfc];
    S w[kMaxEfc];
    const int n = pushing_forces(
        cd, ws, [&](int r) { return row_times(cd, r, ws.a); }, rows, w);
    S res[kMaxDofs], pushed[kMaxDofs];
    rows_transpose_times(cd, rows, w, n, nv, pushed);
    for (int p = 0; p < nv; ++p) {
      const int lo = d.qM_lo[p];  // qM's zeros outside the row's span add nothing
      res[p] =
          minus_dot_values(d.qfrc_smooth[p], d.qM + p * nv + lo, 1, ws.a + lo, d.qM_hi[p] - lo) + pushed[p];
    }
    cholesky_solve_mixed(ws.H, nv, ws.H_envelope, res);
    for (int i = 0; i < nv; ++i) d.qacc[i] = with_value(res[i], ws.a[i]);
  }
}

// After the search (values in ws.a, its states and the factor at ws.a in ws): qacc (write_qacc), each row's
// activity and force (its law's, at J qacc), and qfrc_constraint = J' force.
template <class S>
void write_solution(const TreeModel<S>& m, TreeData<S>& d, TreeConstraintData<S>& cd,
                    const TreeNewtonWorkspace& ws) {
  const int nv = m.nv;
  write_qacc(m, d, cd, ws);
  int rows[kMaxEfc];
  S force[kMaxEfc];  // the pushing rows' forces, packed
  const int n = pushing_forces(
      cd, ws, [&](int r) { return row_times(cd, r, d.qacc); }, rows, force);
  for (int r = 0; r < cd.nefc; ++r) {
    cd.efc_active[r] = ws.active[r];
    cd.efc_force[r] = 0.0;
  }
  for (int k = 0; k < n; ++k) cd.efc_force[rows[k]] = force[k];
  rows_transpose_times(cd, rows, force, n, nv, cd.qfrc_constraint);
}

}  // namespace tree_newton_detail

// The constrained qacc from qacc_smooth (cd.qacc_smooth, d.qfrc_smooth) and the rows (J, D, aref): then
// efc_force = D (aref - J qacc) on scalar rows with J qacc < aref (an elliptic cone's rows: its zone's law),
// 0 on the others, and qfrc_constraint = J' force. The search stops at cm.opt.iterations with its last
// iterate, as MuJoCo's and the free bodies' solvers do (cd.solver_settled tells). slot: the caller's
// active-set guesses (ActiveSetGuesses).
// Returns false if the Hessian was not positive definite.
template <class S>
bool tree_solve_constraints(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, TreeData<S>& d,
                            TreeConstraintData<S>& cd, TreeNewtonWorkspace& ws, int slot = 0) {
  using namespace tree_newton_detail;
  const int nv = m.nv;
  for (int i = 0; i < nv; ++i) cd.qfrc_constraint[i] = 0.0;
  cd.solver_settled = true;
  if (cd.nefc == 0) {
    for (int i = 0; i < nv; ++i) d.qacc[i] = cd.qacc_smooth[i];
    cd.solver_iterations = 0;
    ws.guesses.count[slot] = 0;
    return true;
  }
  load_values(m, d, cd, ws);
  const int cap = cm.opt.iterations;
  const bool scalar = ws.ncone == 0 && ws.nf == 0;
  const TreeSearchEnd end =
      scalar ? search(nv, cd.nefc, cap, ws, slot) : tree_search_cones(nv, cd.nefc, cap, ws);
  cd.solver_iterations = end.iterations;
  cd.solver_settled = end.settled;
  if (end.failed) return false;
  write_solution(m, d, cd, ws);
  return true;
}

}  // namespace sg
