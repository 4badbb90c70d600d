#pragma once
// The constraint solve with the active set given rather than searched (a frozen contact mode,
// engine/model/tree_mode_solver.hpp): qacc minimises the same cost as tree_solve_constraints' on the piece
// where exactly the given rows push, 1/2 |qacc - qacc_smooth|_M^2 + sum_active 1/2 D_r (J_r qacc - aref_r)^2,
// one factorisation of H = M + J' D J and one solve: (M + J' D J) qacc = M qacc_smooth + J' D aref. The
// piece's minimiser is a smooth function of the state, continued past the points where a row's J qacc - aref
// changes sign (those are the mode's row switches, which the caller reports from ws.jar). Derivatives as in
// tree_solve_constraints: implicit differentiation of the piece's optimality condition.
#include "engine/articulated/constraint_solve.hpp"

namespace sg {

namespace tree_fixed_detail {

// a = H^-1 (M a0 + sum_active J' D aref), with H factorised in ws.H; then jar = J a - aref for every row.
inline void solve_piece(int nv, int nefc, TreeNewtonWorkspace& ws) {
  for (int p = 0; p < nv; ++p) ws.a[p] = tree_newton_detail::mass_row_dot(nv, ws, p, ws.a0);
  for (int r = 0; r < nefc; ++r) {
    if (ws.active[r]) tree_newton_detail::add_row_times(ws, r, ws.D[r] * ws.aref[r], ws.a);
  }
  envelope_solve(ws.H, nv, ws.H_envelope, ws.a);
  for (int r = 0; r < nefc; ++r) ws.jar[r] = tree_newton_detail::row_dot(ws, r, ws.a) - ws.aref[r];
}

}  // namespace tree_fixed_detail

// qacc with the rows active[r] pushing (cd.qacc_smooth, d.qfrc_smooth and the rows must be current), the
// forces D (aref - J qacc) of the active rows (the inactive ones' are 0, whatever the sign of J qacc - aref)
// and qfrc_constraint. ws.jar holds J qacc - aref of every row afterwards. derivatives = false: values only
// (switching margins). Returns false if H is not positive definite.
// Elliptic cones: row_zone gives each cone's zone at its first row; a middle zone's cost is not quadratic, so
// the piece is minimised by Newton's search with the zones held (tree_search_cones), its factor at the
// solution kept for the derivatives. Friction-loss rows likewise, with their pieces in friction_state.
template <class S>
bool tree_solve_active_set(const TreeModel<S>& m, TreeData<S>& d, TreeConstraintData<S>& cd,
                           TreeNewtonWorkspace& ws, const bool* active, bool derivatives,
                           const ConeZone* row_zone = nullptr, const int* friction_state = nullptr) {
  using namespace tree_newton_detail;
  const int nv = m.nv;
  for (int i = 0; i < nv; ++i) cd.qfrc_constraint[i] = 0.0;
  cd.solver_iterations = 0;
  if (cd.nefc == 0) {
    for (int i = 0; i < nv; ++i) d.qacc[i] = cd.qacc_smooth[i];
    return true;
  }
  load_values(m, d, cd, ws);
  if (ws.ncone > 0 || ws.nf > 0) {
    if ((ws.ncone > 0 && !row_zone) || (ws.nf > 0 && !friction_state)) return false;
    ConeZone zone[kMaxTreeContacts];
    for (int c = 0; c < ws.ncone; ++c) zone[c] = row_zone[ws.cone_row[c]];
    const TreeHeldPiece held{active, zone, friction_state};
    if (tree_search_cones(nv, cd.nefc, 100, ws).failed) return false;  // the rules' solution: the start
    const TreeSearchEnd end = tree_search_cones(nv, cd.nefc, 100, ws, &held);
    if (!end.settled) return false;  // the piece's minimiser is the mode's qacc: no stand-in
    cd.solver_iterations = end.iterations;
    if (derivatives) {
      write_solution(m, d, cd, ws);
    } else {
      for (int i = 0; i < nv; ++i) d.qacc[i] = ws.a[i];
      for (int r = 0; r < cd.nefc; ++r) cd.efc_active[r] = ws.active[r];
    }
    return true;
  }
  for (int r = 0; r < cd.nefc; ++r) ws.active[r] = active[r];
  if (!factor_hessian(nv, cd.nefc, ws)) return false;
  tree_fixed_detail::solve_piece(nv, cd.nefc, ws);
  if (derivatives) {
    write_qacc(m, d, cd, ws);
  } else {
    for (int i = 0; i < nv; ++i) d.qacc[i] = ws.a[i];
  }
  for (int r = 0; r < cd.nefc; ++r) {
    cd.efc_active[r] = ws.active[r];
    cd.efc_force[r] = 0.0;
    if (!ws.active[r]) continue;
    const S* j = cd.efc_J + r * kMaxDofs;
    const int lo = cd.efc_lo[r], hi = cd.efc_hi[r];  // J's zeros outside add nothing
    S ja = 0.0;
    for (int q = lo; q < hi; ++q) ja += j[q] * d.qacc[q];
    cd.efc_force[r] = cd.efc_D[r] * (cd.efc_aref[r] - ja);
    for (int p = lo; p < hi; ++p) cd.qfrc_constraint[p] += j[p] * cd.efc_force[r];
  }
  return true;
}

}  // namespace sg
