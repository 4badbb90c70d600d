#pragma once
// Projected Gauss-Seidel on the dual of MuJoCo's constraint problem with pyramidal (all unilateral) rows:
// minimise 1/2 f'(A + R) f + f'(J a0 - aref) over f >= 0, A = J M^-1 J'. The accelerations are kept up to
// date as f changes, so A is never formed. A fixed iteration count lets forward AD differentiate it.
#include "engine/contact/constraint_rows.hpp"

namespace sg {

// Inverse mass of a body: 1/m for the linear part, the inverse principal inertia (body frame) for the
// angular.
template <class S>
struct InverseMass {
  S inv_mass;
  Vec3<S> inv_inertia;
};

template <class S>
SG_HD inline S row_dot(const RowJacobian<S>& j, const BodyVelocity<S>& a) {
  return dot(j.lin, a.lin) + dot(j.ang, a.ang);
}

template <class S>
SG_HD inline S row_weight(const RowJacobian<S>& j, const InverseMass<S>& m) {
  return m.inv_mass * dot(j.lin, j.lin) + j.ang.x * j.ang.x * m.inv_inertia.x +
         j.ang.y * j.ang.y * m.inv_inertia.y + j.ang.z * j.ang.z * m.inv_inertia.z;
}

template <class S>
SG_HD inline void apply_row_force(const RowJacobian<S>& j, const InverseMass<S>& m, const S& df,
                                  BodyVelocity<S>& acc) {
  acc.lin += j.lin * (m.inv_mass * df);
  acc.ang.x += m.inv_inertia.x * j.ang.x * df;
  acc.ang.y += m.inv_inertia.y * j.ang.y * df;
  acc.ang.z += m.inv_inertia.z * j.ang.z * df;
}

// acc holds the unconstrained accelerations on entry and the constrained ones on return. Stops after
// `iterations` sweeps, or earlier once a sweep changes no force by more than tolerance * (largest force): the
// tangents converge at the primal's linear rate, so a tight tolerance keeps the derivatives converged too.
template <class S>
SG_HD void solve_pgs(ConstraintRow<S>* rows, int count, const InverseMass<S>* inv_mass, BodyVelocity<S>* acc,
                     int iterations, double tolerance = 1e-12) {
  for (int i = 0; i < count; ++i) {
    ConstraintRow<S>& row = rows[i];
    S a_ii = row.R;
    if (row.body_a >= 0) a_ii += row_weight(row.ja, inv_mass[row.body_a]);
    if (row.body_b >= 0) a_ii += row_weight(row.jb, inv_mass[row.body_b]);
    row.inv_diag = 1.0 / a_ii;
    row.force = 0.0;
  }
  for (int it = 0; it < iterations; ++it) {
    double largest_change = 0.0, largest_force = 0.0;
    for (int i = 0; i < count; ++i) {
      ConstraintRow<S>& row = rows[i];
      S ja = row.R * row.force - row.aref;
      if (row.body_a >= 0) ja += row_dot(row.ja, acc[row.body_a]);
      if (row.body_b >= 0) ja += row_dot(row.jb, acc[row.body_b]);
      S f = row.force - ja * row.inv_diag;
      if (f < 0.0) f = S(0.0);
      const S df = f - row.force;
      row.force = f;
      largest_change = value(df) > largest_change
                           ? value(df)
                           : (-value(df) > largest_change ? -value(df) : largest_change);
      largest_force = value(f) > largest_force ? value(f) : largest_force;
      if (row.body_a >= 0) apply_row_force(row.ja, inv_mass[row.body_a], df, acc[row.body_a]);
      if (row.body_b >= 0) apply_row_force(row.jb, inv_mass[row.body_b], df, acc[row.body_b]);
    }
    if (largest_change <= tolerance * largest_force) break;
  }
}

}  // namespace sg
