#pragma once
// MuJoCo's com-based spatial algebra (engine_util_spatial.c): 6-vectors with the rotational part first, and
// body inertias expressed in a world-aligned frame at the subtree's centre of mass. Every articulated stage
// reads and writes these, so they sit in one place.
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// A motion (velocity, dof axis) or force 6-vector: rotation / torque first, then translation / force.
template <class S>
struct Spatial {
  Vec3<S> rot{}, tran{};
};

template <class S>
SG_INLINE Spatial<S> operator+(const Spatial<S>& a, const Spatial<S>& b) {
  return {a.rot + b.rot, a.tran + b.tran};
}
template <class S, class T>
SG_INLINE Spatial<S> operator*(const Spatial<S>& a, const T& s) {
  return {a.rot * s, a.tran * s};
}
template <class S>
SG_INLINE S dot(const Spatial<S>& a, const Spatial<S>& b) {
  return dot(a.rot, b.rot) + dot(a.tran, b.tran);
}

// v x m for motions (mju_crossMotion): the rate of change of m carried along by velocity v.
template <class S>
SG_INLINE Spatial<S> cross_motion(const Spatial<S>& v, const Spatial<S>& m) {
  return {cross(v.rot, m.rot), cross(v.rot, m.tran) + cross(v.tran, m.rot)};
}

// v x* f for forces (mju_crossForce), the dual of cross_motion.
template <class S>
SG_INLINE Spatial<S> cross_force(const Spatial<S>& v, const Spatial<S>& f) {
  return {cross(v.rot, f.rot) + cross(v.tran, f.tran), cross(v.rot, f.tran)};
}

// A body's spatial inertia about a point p (MuJoCo's 10 numbers): rotational inertia about p in world axes,
// first mass moment h = mass (com - p), and mass.
template <class S>
struct ComInertia {
  Mat3<S> rot{};
  Vec3<S> h{};
  S mass{};
};

template <class S>
SG_INLINE ComInertia<S> operator+(const ComInertia<S>& a, const ComInertia<S>& b) {
  return {a.rot + b.rot, a.h + b.h, a.mass + b.mass};
}

// mju_inertCom: principal inertia `diag` in the frame `mat` (local to world) of a body whose centre of mass
// lies at `dif` from the reference point: R diag R' plus the parallel-axis term.
template <class S>
SG_INLINE ComInertia<S> inertia_at(const Vec3<S>& diag, const Mat3<S>& mat, const Vec3<S>& dif,
                                   const S& mass) {
  ComInertia<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      S s = mat.m[i][0] * diag.x * mat.m[j][0] + mat.m[i][1] * diag.y * mat.m[j][1] +
            mat.m[i][2] * diag.z * mat.m[j][2];
      s -= mass * dif[i] * dif[j];
      if (i == j) s += mass * norm2(dif);
      r.rot.m[i][j] = s;
      r.rot.m[j][i] = s;
    }
  r.h = dif * mass;
  r.mass = mass;
  return r;
}

// I v for a motion v (mju_mulInertVec): the momentum, a force 6-vector about the same point.
template <class S>
SG_INLINE Spatial<S> operator*(const ComInertia<S>& I, const Spatial<S>& v) {
  return {I.rot * v.rot + cross(I.h, v.tran), v.tran * I.mass - cross(I.h, v.rot)};
}

// The motion of a hinge about `axis` through a point `offset` away from the reference point (mju_dofCom):
// rotation axis, and the velocity axis x offset of the reference point.
template <class S>
SG_INLINE Spatial<S> hinge_motion(const Vec3<S>& axis, const Vec3<S>& offset) {
  return {axis, cross(axis, offset)};
}

// The motion of a slide along `axis`.
template <class S>
SG_INLINE Spatial<S> slide_motion(const Vec3<S>& axis) {
  return {Vec3<S>{}, axis};
}

}  // namespace sg
