#pragma once
// MuJoCo's primal constraint problem (engine-notes section 1): minimise
// 1/2 |a - a0|_M^2 + sum_i 1/2 D_i min(0, J_i a - aref_i)^2 over the accelerations a, D = 1/R.
//
// Values and derivatives are computed apart. The search for the active set (Newton's method with an exact
// line search, as MuJoCo's default solver) runs on values only, in double. The derivatives of the solution
// then come from implicit differentiation of the optimality condition on the final quadratic piece,
// H a' = d/dtheta [M (a0 - a) + sum_active J' D (aref - J a)] at fixed a, one solve per tangent lane with the
// factor already computed. Once the active set settles this is the exact derivative, and a dual-number run
// costs a double run plus that solve. solve_with_active_set skips the search: the adaptive integrator's
// hybrid modes fix the active set for a whole step (engine/rigid/contact_mode.hpp).
#include "engine/contact/active_set_guesses.hpp"
#include "engine/contact/constraint_rows.hpp"
#include "engine/contact/dense_cholesky.hpp"
#include "engine/contact/exact_line_search.hpp"

namespace sg {

template <int MaxBodies>
struct NewtonWorkspace {
  static constexpr int kMaxN = 6 * MaxBodies;
  static constexpr int kMaxRows = ActiveSetGuesses::kMaxRows;
  double H[kMaxN * kMaxN];  // Cholesky factor of the Hessian of the active set in `active`
  double grad[kMaxN], dir[kMaxN], a[kMaxN], a0[kMaxN], mass[kMaxN];
  double jac[kMaxRows][12];  // row values: 6 coefficients for body_a, then 6 for body_b
  double D[kMaxRows], aref[kMaxRows];
  int body_a[kMaxRows], body_b[kMaxRows];
  double jar[kMaxRows], jdir[kMaxRows];  // J a - aref and J dir per row
  bool active[kMaxRows], next[kMaxRows];
  bool blockwise;  // no active row couples two bodies: H is block diagonal, one 6 x 6 factor per body
  // Blockwise: the factor of each body's block (compact, 6 x 6), and whether the body has active rows (a
  // body without them has the diagonal block of its masses, solved by division).
  double block[MaxBodies][36];
  double block_inv_diag[MaxBodies][6];  // reciprocals of each block factor's diagonal
  bool has_rows[MaxBodies];
  ActiveSetGuesses guesses;
};

namespace newton_detail {

// J_r v for row r (its values and bodies as load_values stored them), summed as row_times_bodies does (the
// linear and the angular part each, then the two bodies), so that both give the same value to the last bit.
template <int MB>
SG_INLINE double row_times(const NewtonWorkspace<MB>& ws, int r, const double* v) {
  auto part = [](const double* j, const double* x) {
    return (j[0] * x[0] + j[1] * x[1] + j[2] * x[2]) + (j[3] * x[3] + j[4] * x[4] + j[5] * x[5]);
  };
  double s = 0.0;
  if (ws.body_a[r] >= 0) s += part(ws.jac[r], v + 6 * ws.body_a[r]);
  if (ws.body_b[r] >= 0) s += part(ws.jac[r] + 6, v + 6 * ws.body_b[r]);
  return s;
}

// Copies the values the iterations need (Jacobian, D, aref, masses, a0) into the workspace.
template <class S, int MB>
SG_HD inline void load_values(const ConstraintRow<S>* rows, int count, const S* body_mass,
                              const Vec3<S>* body_inertia, int bodies, const BodyVelocity<S>* acc,
                              NewtonWorkspace<MB>& ws) {
  for (int b = 0; b < bodies; ++b)
    for (int k = 0; k < 3; ++k) {
      ws.a0[6 * b + k] = value(acc[b].lin[k]);
      ws.a0[6 * b + 3 + k] = value(acc[b].ang[k]);
      ws.mass[6 * b + k] = value(body_mass[b]);
      ws.mass[6 * b + 3 + k] = value(body_inertia[b][k]);
    }
  for (int r = 0; r < count; ++r) {
    const ConstraintRow<S>& row = rows[r];
    const RowJacobian<S>* parts[2] = {&row.ja, &row.jb};
    const int bodies_of_row[2] = {row.body_a, row.body_b};
    ws.body_a[r] = row.body_a;
    ws.body_b[r] = row.body_b;
    for (int p = 0; p < 2; ++p) {
      if (bodies_of_row[p] < 0) continue;  // the plane: never read
      for (int k = 0; k < 3; ++k) {
        ws.jac[r][6 * p + k] = value(parts[p]->lin[k]);
        ws.jac[r][6 * p + 3 + k] = value(parts[p]->ang[k]);
      }
    }
    // Rows of one contact share R: one division per contact.
    ws.D[r] = (r > 0 && value(row.R) == value(rows[r - 1].R)) ? ws.D[r - 1] : 1.0 / value(row.R);
    ws.aref[r] = value(row.aref);
  }
}

// h[p][q] += D u[p] v[q] over an off-diagonal 6 x 6 block of a row-major matrix with leading dimension ld:
// fixed bounds and no aliasing let the compiler unroll and vectorise it.
template <int ld>
SG_HD inline void add_outer_block(double* __restrict h, const double* __restrict u,
                                  const double* __restrict v, double D) {
  double vv[6];
  for (int q = 0; q < 6; ++q) vv[q] = v[q];
  for (int p = 0; p < 6; ++p) {
    const double Du = D * u[p];
    double* __restrict row = h + p * ld;
    for (int q = 0; q < 6; ++q) row[q] += Du * vv[q];
  }
}

// The lower triangle of h += D u u' over a diagonal 6 x 6 block (all the factorisation reads).
template <int ld>
SG_HD inline void add_outer_lower(double* __restrict h, const double* __restrict u, double D) {
  for (int p = 0; p < 6; ++p) {
    const double Du = D * u[p];
    double* __restrict row = h + p * ld;
    for (int q = 0; q <= p; ++q) row[q] += Du * u[q];
  }
}

// factor_hessian's block-diagonal case: rows touch one body each. Each body's block is accumulated on the
// stack (not in the workspace, which the compiler must assume the rows' Jacobians alias), then factorised
// into ws.block.
template <class S, int MB>
SG_HD inline bool factor_blocks(const ConstraintRow<S>* rows, int count, const bool* active, int bodies,
                                NewtonWorkspace<MB>& ws) {
  for (int b = 0; b < bodies; ++b) {
    double h[36];
    bool any = false;
    for (int r = 0; r < count; ++r) {
      if (!active[r]) continue;
      const bool on_a = rows[r].body_a >= 0;
      if ((on_a ? rows[r].body_a : rows[r].body_b) != b) continue;  // another body, or two static things
      if (!any) {
        any = true;
        for (int i = 0; i < 36; ++i) h[i] = 0.0;
        for (int i = 0; i < 6; ++i) h[7 * i] = ws.mass[6 * b + i];
      }
      add_outer_lower<6>(h, ws.jac[r] + (on_a ? 0 : 6), ws.D[r]);
    }
    ws.has_rows[b] = any;
    if (any && !cholesky_factor_fixed<6>(h, ws.block[b], ws.block_inv_diag[b])) return false;
  }
  return true;
}

// H = M + sum over rows in `active` of J' D J (block by block: a row touches at most two bodies), factorised
// in place. False if not positive definite. Without rows coupling two bodies each body's 6 x 6 block is
// factorised on its own (compile-time size), and bodies without active rows are not factorised at all.
template <class S, int MB>
SG_HD inline bool factor_hessian(const ConstraintRow<S>* rows, int count, const bool* active, int n,
                                 NewtonWorkspace<MB>& ws) {
  ws.blockwise = true;
  for (int r = 0; r < count; ++r)
    if (active[r] && rows[r].body_a >= 0 && rows[r].body_b >= 0) ws.blockwise = false;
  if (ws.blockwise) return factor_blocks(rows, count, active, n / 6, ws);
  constexpr int ld = NewtonWorkspace<MB>::kMaxN;
  for (int i = 0; i < n; ++i) {
    double* h = ws.H + i * ld;
    for (int j = 0; j < n; ++j) h[j] = 0.0;
    h[i] = ws.mass[i];
  }
  for (int r = 0; r < count; ++r) {
    if (!active[r]) continue;
    const double D = ws.D[r];
    const int a = rows[r].body_a, b = rows[r].body_b;
    const double* ja = ws.jac[r];
    const double* jb = ws.jac[r] + 6;
    if (a >= 0) add_outer_lower<ld>(ws.H + 6 * a * ld + 6 * a, ja, D);
    if (b >= 0) add_outer_lower<ld>(ws.H + 6 * b * ld + 6 * b, jb, D);
    if (a >= 0 && b >= 0) {  // the off-diagonal block, stored below the diagonal
      const bool a_first = a < b;
      const double* jh = a_first ? jb : ja;
      const double* jl = a_first ? ja : jb;
      add_outer_block<ld>(ws.H + 6 * (a_first ? b : a) * ld + 6 * (a_first ? a : b), jh, jl, D);
    }
  }
  return cholesky_factor(ws.H, n, ld);
}

// ws.a = M a0 + sum over rows in `active` of J' D aref (the right-hand side of the quadratic piece's
// minimiser), summed on the stack: the workspace's arrays may alias as far as the compiler knows.
template <int MB>
SG_HD inline void add_constraint_rhs(int count, const bool* active, int n, NewtonWorkspace<MB>& ws) {
  double a[NewtonWorkspace<MB>::kMaxN];
  for (int i = 0; i < n; ++i) a[i] = ws.mass[i] * ws.a0[i];
  for (int r = 0; r < count; ++r) {
    if (!active[r]) continue;
    const double Da = ws.D[r] * ws.aref[r];
    const double* __restrict j = ws.jac[r];
    if (ws.body_a[r] >= 0) {
      double* __restrict x = a + 6 * ws.body_a[r];
      SG_UNROLL for (int k = 0; k < 6; ++k) x[k] += Da * j[k];
    }
    if (ws.body_b[r] >= 0) {
      double* __restrict x = a + 6 * ws.body_b[r];
      SG_UNROLL for (int k = 0; k < 6; ++k) x[k] += Da * j[6 + k];
    }
  }
  for (int i = 0; i < n; ++i) ws.a[i] = a[i];
}

// Solves H x = rhs in place with the factor of factor_hessian.
template <int MB>
SG_HD inline void solve_hessian(const NewtonWorkspace<MB>& ws, int n, double* x) {
  constexpr int ld = NewtonWorkspace<MB>::kMaxN;
  if (!ws.blockwise) return cholesky_solve(ws.H, n, ld, x);
  for (int b = 0; 6 * b < n; ++b) {
    if (ws.has_rows[b]) {
      cholesky_solve_fixed<6>(ws.block[b], ws.block_inv_diag[b], x + 6 * b);
    } else {
      for (int k = 0; k < 6; ++k) x[6 * b + k] /= ws.mass[6 * b + k];
    }
  }
}

// Reverse mode: a' = H^-1 res' recorded as fused nodes (engine/core/reverse.hpp), the derivative of
// the same residual write_accelerations differentiates for dual numbers: per active row w = (aref - J a) / R
// (parents J, aref, R), per coordinate res_i = m_i (a0_i - a_i) + sum_rows J_ri w_r (parents m_i, a0_i, the
// rows' J_ri and w_r), and a_k = sum_i (H^-1)_ki res_i. Values of a: ws.a (the residual's values are never
// read). About 30 nodes for a box's 16 rows instead of the 700 of its operations taped one by one.
template <class S, int MB>
inline void implicit_adjoint_fused(const ConstraintRow<S>* rows, int count, const S* body_mass,
                                   const Vec3<S>* body_inertia, int bodies, BodyVelocity<S>* acc,
                                   const NewtonWorkspace<MB>& ws) {
  constexpr int kMaxN = NewtonWorkspace<MB>::kMaxN;
  const int n = 6 * bodies;
  RevTape& tape = RevTape::current();
  int w_node[NewtonWorkspace<MB>::kMaxRows];
  double w_value[NewtonWorkspace<MB>::kMaxRows];
  auto jac_part = [](const RowJacobian<S>& j, int k) -> const S& { return k < 3 ? j.lin[k] : j.ang[k - 3]; };
  for (int r = 0; r < count; ++r) {
    if (!ws.active[r]) continue;
    const ConstraintRow<S>& row = rows[r];
    const double inv_R = 1.0 / row.R.v;
    const double w = (row.aref.v - row_times(ws, r, ws.a)) * inv_R;
    w_value[r] = w;
    const int first = tape.link_count();
    if (row.body_a >= 0)
      for (int k = 0; k < 6; ++k) tape.link(jac_part(row.ja, k).i, -ws.a[6 * row.body_a + k] * inv_R);
    if (row.body_b >= 0)
      for (int k = 0; k < 6; ++k) tape.link(jac_part(row.jb, k).i, -ws.a[6 * row.body_b + k] * inv_R);
    tape.link(row.aref.i, inv_R);
    tape.link(row.R.i, -w * inv_R);
    w_node[r] = tape.fuse(first);
  }
  int res_node[kMaxN];
  for (int b = 0; b < bodies; ++b)
    for (int k = 0; k < 6; ++k) {
      const int i = 6 * b + k;
      const S& m = k < 3 ? body_mass[b] : body_inertia[b][k - 3];
      const S& a0 = k < 3 ? acc[b].lin[k] : acc[b].ang[k - 3];
      const int first = tape.link_count();
      tape.link(m.i, a0.v - ws.a[i]);
      tape.link(a0.i, m.v);
      for (int r = 0; r < count; ++r) {
        if (!ws.active[r]) continue;
        const ConstraintRow<S>& row = rows[r];
        const RowJacobian<S>* j = row.body_a == b ? &row.ja : row.body_b == b ? &row.jb : nullptr;
        if (!j) continue;
        const S& jk = jac_part(*j, k);
        tape.link(jk.i, w_value[r]);
        tape.link(w_node[r], jk.v);
      }
      res_node[i] = tape.fuse(first);
    }
  double inverse[kMaxN][kMaxN];  // column i of H^-1 = row i (H is symmetric)
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) inverse[i][k] = k == i ? 1.0 : 0.0;
    if (res_node[i] != 0) solve_hessian(ws, n, inverse[i]);
  }
  for (int k = 0; k < n; ++k) {
    const int first = tape.link_count();
    for (int i = 0; i < n; ++i)
      if (res_node[i] != 0 && inverse[i][k] != 0.0) tape.link(res_node[i], inverse[i][k]);
    S& out = k % 6 < 3 ? acc[k / 6].lin[k % 6] : acc[k / 6].ang[k % 6 - 3];
    out.v = ws.a[k];
    out.i = tape.fuse(first);
  }
}

// Forward mode: the tangents of a from implicit differentiation, one solve per lane with the factor in ws.
template <class S, int MB>
SG_HD inline void implicit_tangents_dual(const ConstraintRow<S>* rows, int count, const S* body_mass,
                                         const Vec3<S>* body_inertia, int bodies, BodyVelocity<S>* acc,
                                         const NewtonWorkspace<MB>& ws) {
  const int n = 6 * bodies;
  // Residual of the optimality condition at the (constant) solution values; its tangents drive a'.
  S res[NewtonWorkspace<MB>::kMaxN];
  for (int b = 0; b < bodies; ++b)
    for (int k = 0; k < 3; ++k) {
      res[6 * b + k] = body_mass[b] * (acc[b].lin[k] - ws.a[6 * b + k]);
      res[6 * b + 3 + k] = body_inertia[b][k] * (acc[b].ang[k] - ws.a[6 * b + 3 + k]);
    }
  for (int r = 0; r < count; ++r) {
    if (!ws.active[r]) continue;
    const ConstraintRow<S>& row = rows[r];
    S ja = 0.0;
    if (row.body_a >= 0) {
      const double* x = ws.a + 6 * row.body_a;
      ja += row.ja.lin.x * x[0] + row.ja.lin.y * x[1] + row.ja.lin.z * x[2] + row.ja.ang.x * x[3] +
            row.ja.ang.y * x[4] + row.ja.ang.z * x[5];
    }
    if (row.body_b >= 0) {
      const double* x = ws.a + 6 * row.body_b;
      ja += row.jb.lin.x * x[0] + row.jb.lin.y * x[1] + row.jb.lin.z * x[2] + row.jb.ang.x * x[3] +
            row.jb.ang.y * x[4] + row.jb.ang.z * x[5];
    }
    const S w = (row.aref - ja) / row.R;
    if (row.body_a >= 0)
      for (int k = 0; k < 3; ++k) {
        res[6 * row.body_a + k] += row.ja.lin[k] * w;
        res[6 * row.body_a + 3 + k] += row.ja.ang[k] * w;
      }
    if (row.body_b >= 0)
      for (int k = 0; k < 3; ++k) {
        res[6 * row.body_b + k] += row.jb.lin[k] * w;
        res[6 * row.body_b + 3 + k] += row.jb.ang[k] * w;
      }
  }
  constexpr int lanes = ScalarTraits<S>::lanes;
  for (int l = 0; l < lanes; ++l) {
    double rhs[NewtonWorkspace<MB>::kMaxN];
    for (int i = 0; i < n; ++i) rhs[i] = res[i].d[l];
    solve_hessian(ws, n, rhs);
    for (int b = 0; b < bodies; ++b)
      for (int k = 0; k < 3; ++k) {
        acc[b].lin[k].d[l] = rhs[6 * b + k];
        acc[b].ang[k].d[l] = rhs[6 * b + 3 + k];
      }
  }
  for (int b = 0; b < bodies; ++b)
    for (int k = 0; k < 3; ++k) {
      acc[b].lin[k].v = ws.a[6 * b + k];
      acc[b].ang[k].v = ws.a[6 * b + 3 + k];
    }
}

// The accelerations from the solution's values in ws.a: with derivatives by implicit differentiation when S
// carries them (and derivatives is set), else values only (dual tangents left at zero).
template <class S, int MB>
SG_HD inline void write_accelerations(const ConstraintRow<S>* rows, int count, const S* body_mass,
                                      const Vec3<S>* body_inertia, int bodies, BodyVelocity<S>* acc,
                                      const NewtonWorkspace<MB>& ws, bool derivatives) {
  if constexpr (has_derivatives_v<S>) {
    if (!derivatives) {
      for (int b = 0; b < bodies; ++b)
        for (int k = 0; k < 3; ++k) {
          acc[b].lin[k] = S(ws.a[6 * b + k]);
          acc[b].ang[k] = S(ws.a[6 * b + 3 + k]);
        }
      return;
    }
    if constexpr (is_reverse_v<S>) {
      implicit_adjoint_fused(rows, count, body_mass, body_inertia, bodies, acc, ws);
    } else {
      implicit_tangents_dual(rows, count, body_mass, body_inertia, bodies, acc, ws);
    }
  } else {
    (void)rows, (void)count, (void)body_mass, (void)body_inertia, (void)derivatives;
    for (int b = 0; b < bodies; ++b)
      for (int k = 0; k < 3; ++k) {
        acc[b].lin[k] = ws.a[6 * b + k];
        acc[b].ang[k] = ws.a[6 * b + 3 + k];
      }
  }
}

// The solution's values are in ws.a: writes acc (write_accelerations), each row's J a - aref into ws.jar
// (values; the switching margins of the rows), and each row's force D (aref - J a) on active rows, 0 on the
// others; clamp_forces keeps them >= 0. The forces are values unless force_tangents asks for their
// derivatives (the grazing mode combines them; everything else reads their values only).
template <class S, int MB>
SG_HD inline void finish_solution(ConstraintRow<S>* rows, int count, const S* body_mass,
                                  const Vec3<S>* body_inertia, int bodies, BodyVelocity<S>* acc,
                                  NewtonWorkspace<MB>& ws, bool clamp_forces, bool derivatives = true,
                                  bool force_tangents = false) {
  write_accelerations(rows, count, body_mass, body_inertia, bodies, acc, ws, derivatives);
  const bool tangents = has_derivatives_v<S> && derivatives && force_tangents;
  for (int r = 0; r < count; ++r) {
    const double jar = newton_detail::row_times(ws, r, ws.a) - ws.aref[r];
    ws.jar[r] = jar;
    if (!ws.active[r]) {
      rows[r].force = S(0.0);
    } else if (tangents) {
      const S slack = rows[r].aref - row_times_bodies(rows[r], acc);
      rows[r].force = (clamp_forces && !(slack > 0.0)) ? S(0.0) : S(slack / rows[r].R);
    } else {
      rows[r].force = S((clamp_forces && !(jar < 0.0)) ? 0.0 : -jar / value(rows[r].R));  // as slack / R
    }
  }
}

}  // namespace newton_detail

// Newton's method: acc holds the unconstrained accelerations on entry, the constrained ones on return;
// rows[i].force is set; ws.active is the active set of the solution. Returns whether it converged (a full
// step left the active set unchanged) within max_iterations.
template <class S, int MB>
SG_HD SG_NOINLINE bool solve_newton(ConstraintRow<S>* rows, int count, const S* body_mass,
                                    const Vec3<S>* body_inertia, int bodies, BodyVelocity<S>* acc,
                                    int max_iterations, NewtonWorkspace<MB>& ws, int slot = 0) {
  using namespace newton_detail;
  const int n = 6 * bodies;
  if (count == 0) {  // nothing to solve: the free accelerations stand, with their derivatives
    ws.guesses.count[slot] = 0;
    return true;
  }
  if (count > NewtonWorkspace<MB>::kMaxRows) count = NewtonWorkspace<MB>::kMaxRows;
  load_values(rows, count, body_mass, body_inertia, bodies, acc, ws);
  // A cold start from the unconstrained accelerations: a warm start from the previous call's solution let
  // that solution's tangents leak into the derivatives whenever the line search stopped short of a full step.
  for (int i = 0; i < n; ++i) ws.a[i] = ws.a0[i];
  bool converged = false, factored = false;
  for (int it = 0; it < max_iterations; ++it) {
    // The active set at the current accelerations; unchanged after a full step means a is that quadratic
    // piece's exact minimiser.
    bool same_set = factored;
    const bool use_guess = it == 0 && ws.guesses.count[slot] == count;
    for (int r = 0; r < count; ++r) {
      ws.jar[r] = row_times(ws, r, ws.a) - ws.aref[r];
      ws.next[r] = use_guess ? ws.guesses.rows[slot][r] : ws.jar[r] < 0.0;
      same_set = same_set && (ws.next[r] == ws.active[r]);
    }
    if (same_set) {
      converged = true;
      break;
    }
    for (int r = 0; r < count; ++r) ws.active[r] = ws.next[r];
    if (!factor_hessian(rows, count, ws.active, n, ws)) return false;
    factored = true;
    // Gradient and Newton direction with this active set.
    for (int i = 0; i < n; ++i) ws.grad[i] = ws.mass[i] * (ws.a[i] - ws.a0[i]);
    for (int r = 0; r < count; ++r) {
      if (!ws.active[r]) continue;
      const double Dj = ws.D[r] * ws.jar[r];
      if (rows[r].body_a >= 0)
        for (int k = 0; k < 6; ++k) ws.grad[6 * rows[r].body_a + k] += Dj * ws.jac[r][k];
      if (rows[r].body_b >= 0)
        for (int k = 0; k < 6; ++k) ws.grad[6 * rows[r].body_b + k] += Dj * ws.jac[r][6 + k];
    }
    for (int i = 0; i < n; ++i) ws.dir[i] = -ws.grad[i];
    solve_hessian(ws, n, ws.dir);
    // Exact line search: 1-D Newton on the convex piecewise quadratic phi(alpha) = f(a + alpha dir), whose
    // pieces only need J a - aref and J dir per row.
    double base = 0.0, curvature = 0.0;
    for (int i = 0; i < n; ++i) {
      base += ws.mass[i] * (ws.a[i] - ws.a0[i]) * ws.dir[i];
      curvature += ws.mass[i] * ws.dir[i] * ws.dir[i];
    }
    for (int r = 0; r < count; ++r) ws.jdir[r] = row_times(ws, r, ws.dir);
    const double alpha = exact_line_search(base, curvature, ws.jar, ws.jdir, ws.D, count, 20, 1e-14);
    for (int i = 0; i < n; ++i) ws.a[i] += alpha * ws.dir[i];
  }
  for (int r = 0; r < count; ++r) ws.guesses.rows[slot][r] = ws.active[r];
  ws.guesses.count[slot] = count;
  finish_solution(rows, count, body_mass, body_inertia, bodies, acc, ws, true);
  return converged;
}

// The minimiser of the quadratic piece with the given active set (no search): one factorisation and solve.
// Forces of active rows are not clamped (the piece is followed past its boundary until the integrator
// locates the switch). Returns false if the Hessian is not positive definite. derivatives = false: values
// only (dual tangents left at zero); force_tangents: see finish_solution.
template <class S, int MB>
SG_HD SG_NOINLINE bool solve_with_active_set(ConstraintRow<S>* rows, int count, const bool* active,
                                             const S* body_mass, const Vec3<S>* body_inertia, int bodies,
                                             BodyVelocity<S>* acc, NewtonWorkspace<MB>& ws,
                                             bool derivatives = true, bool force_tangents = false) {
  using namespace newton_detail;
  const int n = 6 * bodies;
  if (count == 0) return true;  // the free accelerations stand, with their derivatives
  load_values(rows, count, body_mass, body_inertia, bodies, acc, ws);
  for (int r = 0; r < count; ++r) ws.active[r] = active[r];
  if (!factor_hessian(rows, count, ws.active, n, ws)) return false;
  // H a = M a0 + sum_active J' D aref
  add_constraint_rhs(count, active, n, ws);
  solve_hessian(ws, n, ws.a);
  finish_solution(rows, count, body_mass, body_inertia, bodies, acc, ws, false, derivatives, force_tangents);
  return true;
}

}  // namespace sg
