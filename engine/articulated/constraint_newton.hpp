#pragma once
// The value side of the tree's constraint solve (constraint_solve.hpp): the workspace in double and MuJoCo's
// Newton search on the primal for the rows whose cost is quadratic while active (limits, frictionless and
// pyramidal contacts) or always (equalities). Elliptic cones and friction loss add their own pieces
// (constraint_solve_cone.hpp).
#include <cmath>

#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/envelope_cholesky.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/contact/active_set_guesses.hpp"
#include "engine/contact/elliptic_cone.hpp"
#include "engine/contact/exact_line_search.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// The values the search needs, in double.
struct TreeNewtonWorkspace {
  double M[kMaxDofs * kMaxDofs], H[kMaxDofs * kMaxDofs];
  FactorEnvelope H_envelope;  // where H's factor has nonzeros
  double J[kMaxEfc * kMaxDofs];
  int lo[kMaxEfc], hi[kMaxEfc];  // row r is zero outside dofs [lo, hi) (TreeConstraintData's efc_lo, efc_hi)
  int mlo[kMaxDofs], mhi[kMaxDofs];  // M's row p is zero outside dofs [mlo, mhi) (TreeData's qM_lo, qM_hi)
  int ne = 0;  // rows 0 to ne - 1 are equalities: active whatever the sign of J a - aref
  double D[kMaxEfc], aref[kMaxEfc], jar[kMaxEfc], jdir[kMaxEfc];
  double a0[kMaxDofs], a[kMaxDofs], grad[kMaxDofs], dir[kMaxDofs];
  bool active[kMaxEfc], next[kMaxEfc];
  // Elliptic cones (constraint_solve_cone.hpp): each cone's first row, row count, mu and friction values,
  // and zone; per row its cone (-1: a scalar row), whether its cost is quadratic, its force.
  int ncone = 0;
  int cone_row[kMaxTreeContacts], cone_dim[kMaxTreeContacts];
  double cone_mu[kMaxTreeContacts], cone_friction[kMaxTreeContacts][5];
  ConeZone zone[kMaxTreeContacts];
  int cone_of[kMaxEfc];
  bool quad[kMaxEfc];
  double force[kMaxEfc];
  // Friction-loss rows (constraint_friction.hpp): their count, each row's frictionloss (0: not one) and
  // piece (+1 linear positive, -1 linear negative, 0 quadratic). Searched as the cones are
  // (constraint_solve_cone.hpp).
  int nf = 0;
  double floss[kMaxEfc];
  int fstate[kMaxEfc];
  // The scalar search's active sets, per caller slot, as the free bodies' solver keeps them (search).
  ActiveSetGuesses guesses;
};
static_assert(ActiveSetGuesses::kMaxRows >= kMaxEfc);

// How a search ended: the iterations it took; settled: at the piece's exact minimiser (or a step at rounding
// level), else stopped by the cap with the last iterate standing, as MuJoCo's solver does; failed: a Hessian
// was not positive definite.
struct TreeSearchEnd {
  int iterations = 0;
  bool settled = false;
  bool failed = false;
};

namespace tree_newton_detail {

// J_r x over the row's span: the same sum as over all nv dofs, in the same order, without the zeros.
inline double row_dot(const TreeNewtonWorkspace& ws, int r, const double* x) {
  const double* j = ws.J + r * kMaxDofs;
  double s = 0.0;
  for (int i = ws.lo[r]; i < ws.hi[r]; ++i) s += j[i] * x[i];
  return s;
}

// out += f J_r over the row's span.
inline void add_row_times(const TreeNewtonWorkspace& ws, int r, double f, double* out) {
  const double* j = ws.J + r * kMaxDofs;
  for (int i = ws.lo[r]; i < ws.hi[r]; ++i) out[i] += f * j[i];
}

template <class S>
void load_values(const TreeModel<S>& m, const TreeData<S>& d, const TreeConstraintData<S>& cd,
                 TreeNewtonWorkspace& ws) {
  const int nv = m.nv;
  for (int p = 0; p < nv; ++p) {
    ws.mlo[p] = d.qM_lo[p], ws.mhi[p] = d.qM_hi[p];
    // M is read over its rows' spans only (mass_row_dot, add_row_hessian).
    for (int q = ws.mlo[p]; q < ws.mhi[p]; ++q) ws.M[p * nv + q] = value(d.qM[p * nv + q]);
  }
  for (int i = 0; i < nv; ++i) ws.a0[i] = value(cd.qacc_smooth[i]);
  ws.ne = cd.ne;
  for (int r = 0; r < cd.nefc; ++r) {
    ws.lo[r] = cd.efc_lo[r], ws.hi[r] = cd.efc_hi[r];
    // The search reads each row over its span only (row_dot, add_row_times, the Hessians).
    for (int i = ws.lo[r]; i < ws.hi[r]; ++i) ws.J[r * kMaxDofs + i] = value(cd.efc_J[r * kMaxDofs + i]);
    ws.D[r] = value(cd.efc_D[r]);
    ws.aref[r] = value(cd.efc_aref[r]);
    ws.cone_of[r] = -1;
    ws.floss[r] = value(cd.efc_frictionloss[r]);
    ws.fstate[r] = 0;
  }
  ws.nf = 0;
  for (int r = 0; r < cd.nefc; ++r) ws.nf += ws.floss[r] > 0.0 ? 1 : 0;
  ws.ncone = 0;
  for (int r = 0; r < cd.nefc; ++r) {
    if (cd.efc_type[r] != EfcType::kContactElliptic) continue;
    const TreeContact<S>& c = cd.contact[cd.efc_id[r]];
    const int k = ws.ncone++;
    ws.cone_row[k] = r, ws.cone_dim[k] = c.dim, ws.cone_mu[k] = value(c.mu);
    for (int j = 0; j < 5; ++j) ws.cone_friction[k][j] = value(c.friction[j]);
    for (int j = 0; j < c.dim; ++j) ws.cone_of[r + j] = k;
    r += c.dim - 1;
  }
}

// H = M + sum over the rows in `rows` of D J' J (lower triangle: all the factorisation reads), not yet
// factorised. Left of M's span a row of H is zero but where a row couples two kinematic trees.
inline void add_row_hessian(int nv, int nefc, const bool* rows, TreeNewtonWorkspace& ws) {
  for (int p = 0; p < nv; ++p) {
    double* h = ws.H + p * nv;
    for (int q = 0; q < ws.mlo[p]; ++q) h[q] = 0.0;
    for (int q = ws.mlo[p]; q <= p; ++q) h[q] = ws.M[p * nv + q];
  }
  for (int r = 0; r < nefc; ++r) {
    if (!rows[r]) continue;
    const double* j = ws.J + r * kMaxDofs;
    int nz[kMaxDofs], count = 0;  // the row's nonzero dofs (a contact's two bodies): the rest adds zeros
    for (int p = ws.lo[r]; p < ws.hi[r]; ++p)
      if (j[p] != 0.0) nz[count++] = p;
    for (int a = 0; a < count; ++a) {
      const int p = nz[a];
      const double Dj = ws.D[r] * j[p];
      for (int b = 0; b <= a; ++b) ws.H[p * nv + nz[b]] += Dj * j[nz[b]];
    }
  }
}

// H = M + sum over active rows of D J' J, factorised in place. False if not positive definite.
inline bool factor_hessian(int nv, int nefc, TreeNewtonWorkspace& ws) {
  add_row_hessian(nv, nefc, ws.active, ws);
  return envelope_factor(ws.H, nv, ws.H_envelope);
}

// M's row p times x over the row's span: the same sum as over all nv dofs, in the same order, without the
// zeros.
inline double mass_row_dot(int nv, const TreeNewtonWorkspace& ws, int p, const double* x) {
  const double* row = ws.M + p * nv;
  double s = 0.0;
  for (int q = ws.mlo[p]; q < ws.mhi[p]; ++q) s += row[q] * x[q];
  return s;
}

// The Gauss term's gradient M (a - a0) into ws.grad (the rows' terms are added by the caller).
inline void gauss_gradient(int nv, TreeNewtonWorkspace& ws) {
  double step[kMaxDofs];
  for (int q = 0; q < nv; ++q) step[q] = ws.a[q] - ws.a0[q];
  for (int p = 0; p < nv; ++p) ws.grad[p] = mass_row_dot(nv, ws, p, step);
}

// The Gauss term along ws.dir: phi'(alpha) = base + alpha curvature, base = (a - a0)' M dir and
// curvature = dir' M dir.
inline void gauss_line_terms(int nv, const TreeNewtonWorkspace& ws, double& base, double& curvature) {
  base = 0.0, curvature = 0.0;
  for (int p = 0; p < nv; ++p) {
    const double Md = mass_row_dot(nv, ws, p, ws.dir);
    base += (ws.a[p] - ws.a0[p]) * Md;
    curvature += ws.dir[p] * Md;
  }
}

// The cost's gradient M (a - a0) + J' D jar over the active rows, and the Newton direction -H^-1 grad.
inline void newton_direction(int nv, int nefc, TreeNewtonWorkspace& ws) {
  gauss_gradient(nv, ws);
  for (int r = 0; r < nefc; ++r) {
    if (ws.active[r]) add_row_times(ws, r, ws.D[r] * ws.jar[r], ws.grad);
  }
  for (int p = 0; p < nv; ++p) ws.dir[p] = -ws.grad[p];
  envelope_solve(ws.H, nv, ws.H_envelope, ws.dir);
}

// The equality rows' quadratic cost along dir, added to the Gauss term's: phi' gains D jar jdir + alpha D
// jdir^2 from each (ws.jdir must hold J dir).
inline void equality_line_terms(const TreeNewtonWorkspace& ws, double& base, double& curvature) {
  for (int r = 0; r < ws.ne; ++r) {
    base += ws.D[r] * ws.jar[r] * ws.jdir[r];
    curvature += ws.D[r] * ws.jdir[r] * ws.jdir[r];
  }
}

// Exact line search: 1-D Newton on phi(alpha) = cost(a + alpha dir), piecewise quadratic and convex; its
// pieces need only M-products along dir and J a - aref, J dir per row. The equality rows are quadratic
// throughout: they join the smooth part.
inline double line_search(int nv, int nefc, TreeNewtonWorkspace& ws) {
  double base, curvature;
  gauss_line_terms(nv, ws, base, curvature);
  for (int r = 0; r < nefc; ++r) ws.jdir[r] = row_dot(ws, r, ws.dir);
  equality_line_terms(ws, base, curvature);
  const int ne = ws.ne;
  return exact_line_search(base, curvature, ws.jar + ne, ws.jdir + ne, ws.D + ne, nefc - ne, 50, 1e-15);
}

// Newton from qacc_smooth until a full step leaves the active set unchanged (the piece's exact minimiser),
// the step is at rounding level, or max_iterations steps were taken: then the last iterate stands, with the
// active set (and the factor in ws.H) of its step, as the free bodies' solve_newton leaves them. The first
// step takes the active set this slot's last search ended with when the row count is the same (a guess;
// ActiveSetGuesses).
inline TreeSearchEnd search(int nv, int nefc, int max_iterations, TreeNewtonWorkspace& ws, int slot) {
  for (int i = 0; i < nv; ++i) ws.a[i] = ws.a0[i];
  ActiveSetGuesses& g = ws.guesses;
  const bool guessed = g.count[slot] == nefc;
  TreeSearchEnd end;
  bool factored = false;
  for (int it = 0; it < max_iterations && !end.settled; ++it) {
    bool same = factored;
    const bool use_guess = it == 0 && guessed;
    for (int r = 0; r < nefc; ++r) {
      ws.jar[r] = row_dot(ws, r, ws.a) - ws.aref[r];
      ws.next[r] = r < ws.ne || (use_guess ? g.rows[slot][r] : ws.jar[r] < 0.0);
      same = same && ws.next[r] == ws.active[r];
    }
    if (same) {
      end.settled = true;
      break;
    }
    for (int r = 0; r < nefc; ++r) ws.active[r] = ws.next[r];
    if (!factor_hessian(nv, nefc, ws)) {
      g.count[slot] = 0;
      end.failed = true;
      return end;
    }
    factored = true;
    newton_direction(nv, nefc, ws);
    const double alpha = line_search(nv, nefc, ws);
    double step = 0.0, size = 1.0;
    for (int i = 0; i < nv; ++i) {
      ws.a[i] += alpha * ws.dir[i];
      step = std::fmax(step, std::fabs(alpha * ws.dir[i]));
      size = std::fmax(size, std::fabs(ws.a[i]));
    }
    end.iterations = it + 1;
    // A row whose J a - aref sits at rounding level may flip back and forth: a step at rounding level is
    // the minimiser too (the factor in ws.H is that of the active set in ws.active). Not a guessed step's:
    // its set need not be the one at a (a guess of no active rows takes no step from qacc_smooth).
    end.settled = !use_guess && step <= 1e-14 * size;
  }
  if (!end.settled && !end.failed && factored) {  // at the cap: settled if the last step's set holds at a
    bool same = true;
    for (int r = ws.ne; r < nefc && same; ++r)
      same = (row_dot(ws, r, ws.a) - ws.aref[r] < 0.0) == ws.active[r];
    end.settled = same;
  }
  for (int r = 0; r < nefc; ++r) g.rows[slot][r] = ws.active[r];
  g.count[slot] = nefc;
  return end;
}

}  // namespace tree_newton_detail

}  // namespace sg
