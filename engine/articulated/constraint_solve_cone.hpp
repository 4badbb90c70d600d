#pragma once
// The Newton search when contacts have elliptic cones (MuJoCo's cone="elliptic", engine/contact/
// elliptic_cone.hpp) or rows have friction loss (linear beyond their bound): a cone in its middle zone is not
// quadratic, nor is a friction row's cost, so the search is MuJoCo's Newton on the primal with the cone
// Hessians (HessianCone) and a line search on the convex, once differentiable phi(alpha)
// (safeguarded 1-D Newton), run until the Newton step is at rounding level. The factor left in ws.H is the
// Hessian at the solution, which the implicit derivatives (constraint_solve.hpp) solve with.
#include <cmath>

#include "engine/articulated/constraint_newton.hpp"

namespace sg {

// A frozen contact mode's piece of the cost (constraint_solve_fixed.hpp): each scalar row's activity and each
// cone's zone held whatever jar says, their costs continued past their boundaries.
struct TreeHeldPiece {
  const bool* active;           // per row (a cone's rows and friction rows: ignored)
  const ConeZone* zone;         // per cone
  const int* fstate = nullptr;  // per row: a friction row's piece (TreeNewtonWorkspace::fstate)
};

namespace tree_cone_detail {

using tree_newton_detail::row_dot;

// The zone cone c's cost follows at ws.jar: its own, or the held one (followed_zone).
inline ConeZone zone_at(int c, const TreeNewtonWorkspace& ws, const TreeHeldPiece* held) {
  const double* jar = ws.jar + ws.cone_row[c];
  const double mu = ws.cone_mu[c], T = cone_tangent(jar, ws.cone_dim[c], ws.cone_friction[c]);
  return followed_zone(cone_zone(mu * jar[0], T, mu), held ? held->zone + c : nullptr, T);
}

// A friction-loss row's piece at J a - aref = jar: MuJoCo's linear negative (jar <= -R f), linear positive
// (jar >= R f), else quadratic.
inline int friction_piece(const TreeNewtonWorkspace& ws, int r, double jar) {
  const double Rf = ws.floss[r] / ws.D[r];
  return jar <= -Rf ? -1 : jar >= Rf ? 1 : 0;
}

// A friction-loss row's state at ws.jar (held: the frozen piece's): it always pushes, quadratically (force
// -D jar) or with its bound (-f, +f).
inline void update_friction_state(int r, TreeNewtonWorkspace& ws, const TreeHeldPiece* held) {
  const int s = held && held->fstate ? held->fstate[r] : friction_piece(ws, r, ws.jar[r]);
  ws.fstate[r] = s;
  ws.active[r] = true;
  ws.quad[r] = s == 0;
  ws.force[r] = s == 0 ? -ws.D[r] * ws.jar[r] : -s * ws.floss[r];
}

// jar at ws.a and the states: a scalar row pushes while jar < 0; a cone's rows push unless it is in its top
// zone, and their cost is quadratic in its bottom zone; a friction-loss row always pushes (held: the frozen
// piece's states instead). The rows' forces -d cost / d jar into ws.force.
inline void update_states(int nefc, TreeNewtonWorkspace& ws, const TreeHeldPiece* held) {
  for (int r = 0; r < nefc; ++r) {
    ws.jar[r] = row_dot(ws, r, ws.a) - ws.aref[r];
    if (ws.cone_of[r] >= 0) continue;
    if (ws.floss[r] > 0.0) {
      update_friction_state(r, ws, held);
      continue;
    }
    ws.active[r] = ws.quad[r] = r < ws.ne || (held ? held->active[r] : ws.jar[r] < 0.0);
    ws.force[r] = ws.active[r] ? -ws.D[r] * ws.jar[r] : 0.0;
  }
  for (int c = 0; c < ws.ncone; ++c) {
    const int r0 = ws.cone_row[c], dim = ws.cone_dim[c];
    const ConeZone zone = zone_at(c, ws, held);
    ws.zone[c] = zone;
    for (int j = 0; j < dim; ++j) {
      ws.active[r0 + j] = zone != ConeZone::top;
      ws.quad[r0 + j] = zone == ConeZone::bottom;
    }
    cone_forces(zone, dim, ws.jar + r0, ws.D + r0, ws.cone_mu[c], ws.cone_friction[c], ws.force + r0);
  }
}

// H += J_c' Hc J_c for a middle-zone cone (the lower triangle).
inline void add_cone_hessian(int nv, int c, TreeNewtonWorkspace& ws) {
  const int r0 = ws.cone_row[c], dim = ws.cone_dim[c];
  const int lo = ws.lo[r0], hi = ws.hi[r0];  // the cone's rows share their contact's span
  double Hc[36], HJ[6 * kMaxDofs];
  cone_hessian(dim, ws.jar + r0, ws.D[r0], ws.cone_mu[c], ws.cone_friction[c], Hc);
  for (int k = 0; k < dim; ++k)
    for (int q = lo; q < hi; ++q) {
      double s = 0.0;
      for (int j = 0; j < dim; ++j) s += Hc[k * dim + j] * ws.J[(r0 + j) * kMaxDofs + q];
      HJ[k * nv + q] = s;
    }
  for (int k = 0; k < dim; ++k) {
    const double* j = ws.J + (r0 + k) * kMaxDofs;
    for (int p = lo; p < hi; ++p) {
      if (j[p] == 0.0) continue;
      for (int q = lo; q <= p; ++q) ws.H[p * nv + q] += j[p] * HJ[k * nv + q];
    }
  }
}

// The Hessian at ws.a (states current), factorised; then the gradient M (a - a0) - J' force and the Newton
// direction. False if the Hessian is not positive definite.
inline bool newton_direction(int nv, int nefc, TreeNewtonWorkspace& ws) {
  tree_newton_detail::add_row_hessian(nv, nefc, ws.quad, ws);
  for (int c = 0; c < ws.ncone; ++c)
    if (ws.zone[c] == ConeZone::middle) add_cone_hessian(nv, c, ws);
  if (!envelope_factor(ws.H, nv, ws.H_envelope)) return false;
  tree_newton_detail::gauss_gradient(nv, ws);
  for (int r = 0; r < nefc; ++r) {
    if (ws.force[r] == 0.0) continue;
    const double* j = ws.J + r * kMaxDofs;
    for (int p = ws.lo[r]; p < ws.hi[r]; ++p) ws.grad[p] -= ws.force[r] * j[p];
  }
  for (int p = 0; p < nv; ++p) ws.dir[p] = -ws.grad[p];
  envelope_solve(ws.H, nv, ws.H_envelope, ws.dir);
  return true;
}

// phi'(alpha) and phi''(alpha) along ws.dir: the Gauss term, the scalar rows, the cones.
struct LineTerms {
  double base, curvature;
  ConeLine cone[kMaxTreeContacts];
};

inline void line_derivatives(int nefc, const TreeNewtonWorkspace& ws, const LineTerms& t, double alpha,
                             double& d1, double& d2, const TreeHeldPiece* held) {
  d1 = t.base + alpha * t.curvature;
  d2 = t.curvature;
  for (int r = 0; r < nefc; ++r) {
    if (ws.cone_of[r] >= 0) continue;
    const double j = ws.jar[r] + alpha * ws.jdir[r];
    if (ws.floss[r] > 0.0) {  // the friction cost's piece at j (held: the frozen one, continued)
      const int s = held ? ws.fstate[r] : friction_piece(ws, r, j);
      d1 += s == 0 ? ws.D[r] * j * ws.jdir[r] : s * ws.floss[r] * ws.jdir[r];
      if (s == 0) d2 += ws.D[r] * ws.jdir[r] * ws.jdir[r];
      continue;
    }
    if (!(r < ws.ne || (held ? ws.active[r] : j < 0.0))) continue;
    d1 += ws.D[r] * j * ws.jdir[r];
    d2 += ws.D[r] * ws.jdir[r] * ws.jdir[r];
  }
  for (int c = 0; c < ws.ncone; ++c)
    cone_line_derivatives(t.cone[c], alpha, d1, d2, held ? held->zone + c : nullptr);
}

// The minimiser of phi along ws.dir: Newton from alpha = 1 kept inside the bracket of the points seen so far
// (phi' < 0 below, > 0 above), bisecting when a Newton step leaves it; phi is convex, so this converges.
inline double line_search(int nv, int nefc, TreeNewtonWorkspace& ws, const TreeHeldPiece* held) {
  LineTerms t{0.0, 0.0, {}};
  tree_newton_detail::gauss_line_terms(nv, ws, t.base, t.curvature);
  for (int r = 0; r < nefc; ++r) ws.jdir[r] = row_dot(ws, r, ws.dir);
  for (int c = 0; c < ws.ncone; ++c) {
    const int r0 = ws.cone_row[c];
    t.cone[c] =
        cone_line(ws.cone_dim[c], ws.jar + r0, ws.jdir + r0, ws.D + r0, ws.cone_mu[c], ws.cone_friction[c]);
  }
  double lo = 0.0, hi = INFINITY, alpha = 1.0;
  for (int it = 0; it < 100; ++it) {
    double d1 = 0.0, d2 = 0.0;
    line_derivatives(nefc, ws, t, alpha, d1, d2, held);
    if (d1 < 0.0) {
      lo = alpha;
    } else if (d1 > 0.0) {
      hi = alpha;
    } else {
      return alpha;
    }
    double next = d2 > 0.0 ? alpha - d1 / d2 : NAN;
    if (!(next > lo && next < hi)) next = std::isfinite(hi) ? 0.5 * (lo + hi) : 2.0 * alpha;
    if (std::fabs(next - alpha) <= 1e-15 * (1.0 + std::fabs(alpha))) return next;
    alpha = next;
  }
  return alpha;
}

}  // namespace tree_cone_detail

// Newton from qacc_smooth until the Newton step is at rounding level: below 1e-13 of the accelerations' size,
// or below 1e-8 of it and no longer halving (the floor the Hessian's conditioning sets). ws.H then holds the
// factor at the final ws.a, ws.active and ws.force its states and forces. After max_iterations steps the last
// iterate stands (not settled), its states and factor taken there. held: minimise the frozen piece's cost
// instead (a contact mode's, smooth where the held zones' costs are), from ws.a: a middle zone's cost
// continued into the top zone is not convex, so the caller starts it from the rules' solution (close to the
// piece's minimiser while the state is in or near the mode's domain), not from qacc_smooth.
inline TreeSearchEnd tree_search_cones(int nv, int nefc, int max_iterations, TreeNewtonWorkspace& ws,
                                       const TreeHeldPiece* held = nullptr) {
  using namespace tree_cone_detail;
  if (!held)
    for (int i = 0; i < nv; ++i) ws.a[i] = ws.a0[i];
  TreeSearchEnd end;
  double last = INFINITY;
  for (int it = 0;; ++it) {
    update_states(nefc, ws, held);
    if (!newton_direction(nv, nefc, ws)) {
      end.failed = true;
      return end;
    }
    double step = 0.0, size = 1.0;
    for (int i = 0; i < nv; ++i) {
      step = std::fmax(step, std::fabs(ws.dir[i]));
      size = std::fmax(size, std::fabs(ws.a[i]));
    }
    // Settled is asked first: an iterate that reaches rounding level on the cap's step has settled.
    if (step <= 1e-13 * size || (step <= 1e-8 * size && step > 0.5 * last)) {
      end.settled = true;
      return end;
    }
    if (it == max_iterations) return end;  // the cap: states and factor at the last iterate
    last = step;
    const double alpha = line_search(nv, nefc, ws, held);
    for (int i = 0; i < nv; ++i) ws.a[i] += alpha * ws.dir[i];
    end.iterations = it + 1;
  }
}

}  // namespace sg
