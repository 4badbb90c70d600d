#pragma once
// MuJoCo-style constraint rows between two free bodies (engine-notes section 1): each row is a direction at a
// contact point, with its reference acceleration aref and regulariser R. Pyramidal friction (condim 3) gives
// four edge rows n +- mu t1, n +- mu t2 per contact; condim 1 one normal row.
#include "engine/core/mat3.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Generalised velocity of a free body, as MuJoCo: linear in the world frame, angular in the body frame.
template <class S>
struct BodyVelocity {
  Vec3<S> lin, ang;
};

// The part of a row acting on one body: row . qvel = lin . v + ang . w.
template <class S>
struct RowJacobian {
  Vec3<S> lin, ang;
};

// Every field is written when the row is built (no default initialisers: rows live in large scratch arrays).
template <class S>
struct ConstraintRow {
  int body_a, body_b;  // -1: the world (static)
  RowJacobian<S> ja, jb;
  S aref;
  S R;
  S force;
};

// Inverse mass of a body: 1/m for the linear part, the inverse principal inertia (body frame) for the
// angular.
template <class S>
struct InverseMass {
  S inv_mass;
  Vec3<S> inv_inertia;
};

// Row algebra (the pyramid edges J(n) +- mu J(t)), inlined like Vec3's: out of line, a Dual<4> row went
// through memory and cost forward mode a quarter of its time.
template <class S>
SG_INLINE RowJacobian<S> operator+(const RowJacobian<S>& a, const RowJacobian<S>& b) {
  return {a.lin + b.lin, a.ang + b.ang};
}
template <class S>
SG_INLINE RowJacobian<S> operator-(const RowJacobian<S>& a, const RowJacobian<S>& b) {
  return {a.lin - b.lin, a.ang - b.ang};
}
template <class S>
SG_INLINE RowJacobian<S> operator*(const RowJacobian<S>& j, const S& s) {
  return {j.lin * s, j.ang * s};
}

template <class S>
SG_HD inline S row_dot(const RowJacobian<S>& j, const BodyVelocity<S>& a) {
  return dot(j.lin, a.lin) + dot(j.ang, a.ang);
}

// J x for a row and a generalised vector given per body (a velocity, an acceleration).
template <class S>
SG_HD inline S row_times_bodies(const ConstraintRow<S>& row, const BodyVelocity<S>* x) {
  S s = 0.0;
  if (row.body_a >= 0) s += row_dot(row.ja, x[row.body_a]);
  if (row.body_b >= 0) s += row_dot(row.jb, x[row.body_b]);
  return s;
}

// acc += M^-1 j' df: the acceleration a row force df adds to one body.
template <class S>
SG_HD inline void apply_row_force(const RowJacobian<S>& j, const InverseMass<S>& m, const S& df,
                                  BodyVelocity<S>& acc) {
  acc.lin += j.lin * (m.inv_mass * df);
  acc.ang.x += m.inv_inertia.x * j.ang.x * df;
  acc.ang.y += m.inv_inertia.y * j.ang.y * df;
  acc.ang.z += m.inv_inertia.z * j.ang.z * df;
}

// Jacobian of the velocity along `dir` of the point at world offset r from a body's centre, with the body's
// rotation matrix rot: dir . (v + (rot w) x r) = dir . v + (rot^T (r x dir)) . w.
template <class S>
SG_HD SG_INLINE_HOST RowJacobian<S> point_jacobian(const Vec3<S>& dir, const Vec3<S>& r, const Mat3<S>& rot) {
  return {dir, mul_transpose(rot, cross(r, dir))};
}

// Contact parameters of a pair after MuJoCo's combination rule.
template <class S>
struct PairParams {
  S friction;
  S solref[2];
  S solimp[5];
  int condim;
  double margin;
};

}  // namespace sg
