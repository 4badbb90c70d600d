#pragma once
// The grazing mode of a contact: Filippov's sliding solution on its surface r = 0 (docs/engine.md, "Contact
// events"). A body sliding on MuJoCo's pyramidal soft contact is pushed out at r = 0- (the edge rows'
// reference accelerations include -B mu v_t) and falls back at r = 0+: the exact solution hops ever lower,
// forever, with hops of 1e-10 m at the start of the billiards shot. In the grazing mode the contact's force,
// as the solver computes it with the contact acting, is scaled by a weight s in [0, 1] chosen so that the
// distance's acceleration is -2 w r' - w^2 r: the convex combination of the two vector fields (with and
// without the contact, each with the other contacts' forces solved for it) that keeps the
// body on the surface (the Baumgarte terms hold r and r' at the zero they start from against integration
// drift; w = 1/timeconst of the contact). With several grazing contacts the combination is taken contact by
// contact (exact for one; first order in their interaction otherwise). The mode ends when s leaves [0, 1]: at
// s < 0 the free motion lifts off, at s > 1 even the full contact force cannot hold the body at r = 0 and the
// contact presses in.
#include "engine/contact/constraint_rows.hpp"
#include "engine/contact/grazing_weights.hpp"
#include "engine/model/rigid_model.hpp"

namespace sg {

template <class S>
struct GrazingContact {
  ConstraintRow<S> normal;   // the Jacobian of the normal relative velocity (body b minus body a)
  S rate;                    // r' = J_n v
  S dist;                    // r
  S omega;                   // the stabilisation rate w
  int first_row, row_count;  // the contact's rows in the solver's row array
  int entry;                 // its mode entry
};

// The acceleration a grazing contact's force adds on its own: M^-1 J' f over its rows. Exact as the
// difference of the two vector fields when nothing else acts on its bodies; with other contacts on them
// (coupled), the caller solves the field without it instead.
template <class S>
SG_HD void own_force_acceleration(const GrazingContact<S>& g, const ConstraintRow<S>* rows,
                                  const InverseMass<S>* inv_mass, int bodies, BodyVelocity<S>* delta) {
  for (int b = 0; b < bodies; ++b) delta[b] = {Vec3<S>(), Vec3<S>()};
  for (int r = g.first_row; r < g.first_row + g.row_count; ++r) {
    const ConstraintRow<S>& row = rows[r];
    if (row.body_a >= 0) apply_row_force(row.ja, inv_mass[row.body_a], row.force, delta[row.body_a]);
    if (row.body_b >= 0) apply_row_force(row.jb, inv_mass[row.body_b], row.force, delta[row.body_b]);
  }
}

// acc: the accelerations with every grazing contact acting fully on entry, the grazing mode's on return.
// delta[k]: the acceleration contact k adds (its field minus the field without it). weights[k] = s_k;
// physical[k]: the weight without the stabilisation terms (r'' = 0), which decides when the mode ends, so
// that the drift correction never does. False if the weights are undetermined (a grazing contact without
// force); acc is then unchanged.
template <class S>
SG_HD bool apply_grazing(const GrazingContact<S>* g, int m, const BodyVelocity<S> (*delta)[kMaxBodies],
                         int bodies, BodyVelocity<S>* acc, S* weights, double* physical) {
  // With u_j = 1 - s_j: sum_j (J_nk delta_j) u_j = J_nk acc - target_k.
  S A[kMaxGrazing][kMaxGrazing], u[kMaxGrazing];
  double A0[kMaxGrazing][kMaxGrazing], u0[kMaxGrazing];
  for (int k = 0; k < m; ++k) {
    for (int j = 0; j < m; ++j) {
      A[k][j] = row_times_bodies(g[k].normal, delta[j]);
      A0[k][j] = value(A[k][j]);
    }
    const S target = -2.0 * g[k].omega * g[k].rate - g[k].omega * g[k].omega * g[k].dist;
    const S na = row_times_bodies(g[k].normal, acc);
    u[k] = na - target;
    u0[k] = value(na);
  }
  if (!solve_grazing_weights(A, u, A0, u0, m)) return false;
  for (int k = 0; k < m; ++k) {
    weights[k] = 1.0 - u[k];
    physical[k] = 1.0 - u0[k];
    for (int b = 0; b < bodies; ++b) {
      acc[b].lin -= delta[k][b].lin * u[k];
      acc[b].ang -= delta[k][b].ang * u[k];
    }
  }
  return true;
}

}  // namespace sg
