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
  S inv_diag;  // 1 / (A_ii + R_i), for the Gauss-Seidel update
  S force;
};

// Jacobian of the velocity along `dir` of the point at world offset r from a body's centre, with the body's
// rotation matrix rot: dir . (v + (rot w) x r) = dir . v + (rot^T (r x dir)) . w.
template <class S>
SG_HD inline RowJacobian<S> point_jacobian(const Vec3<S>& dir, const Vec3<S>& r, const Mat3<S>& rot) {
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
