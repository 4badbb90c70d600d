#pragma once
// Unit quaternions {w, x, y, z} (MuJoCo's order) over any scalar. quat_exp is exact and smooth at
// phi = 0 (a series below a small angle) so forward-mode derivatives stay finite there.
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

template <class S>
struct Quat {
  S w{1.0}, x{}, y{}, z{};

  SG_HD constexpr Quat() = default;
  SG_HD constexpr Quat(S w_, S x_, S y_, S z_) : w(w_), x(x_), y(y_), z(z_) {}
  template <class T>
  SG_HD explicit Quat(const Quat<T>& o) : w(S(o.w)), x(S(o.x)), y(S(o.y)), z(S(o.z)) {}

  SG_HD Vec3<S> vec() const { return {x, y, z}; }
};

// Hamilton product: (a (x) b) rotates by b first, then by a.
template <class S>
SG_INLINE Quat<S> operator*(const Quat<S>& a, const Quat<S>& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

template <class S>
SG_INLINE Quat<S> conjugate(const Quat<S>& q) {
  return {q.w, -q.x, -q.y, -q.z};
}

template <class S>
SG_INLINE S norm(const Quat<S>& q) {
  return sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
}

template <class S>
SG_INLINE Quat<S> normalized(const Quat<S>& q) {
  const S inv = 1.0 / norm(q);
  return {q.w * inv, q.x * inv, q.y * inv, q.z * inv};
}

// R(q) v for a unit quaternion, without building the matrix: v + 2 u x (u x v + w v).
template <class S>
SG_INLINE Vec3<S> rotate(const Quat<S>& q, const Vec3<S>& v) {
  const Vec3<S> u = q.vec();
  const Vec3<S> t = cross(u, v) + v * q.w;
  return v + cross(u, t) * 2.0;
}

template <class S>
SG_INLINE Mat3<S> to_mat3(const Quat<S>& q) {
  const S ww = q.w * q.w, xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const S xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  Mat3<S> r;
  r.m[0][0] = ww + xx - yy - zz;
  r.m[0][1] = 2.0 * (xy - wz);
  r.m[0][2] = 2.0 * (xz + wy);
  r.m[1][0] = 2.0 * (xy + wz);
  r.m[1][1] = ww - xx + yy - zz;
  r.m[1][2] = 2.0 * (yz - wx);
  r.m[2][0] = 2.0 * (xz - wy);
  r.m[2][1] = 2.0 * (yz + wx);
  r.m[2][2] = ww - xx - yy + zz;
  return r;
}

// Rotation by `angle` (radians) about the unit vector `axis`.
template <class S>
SG_INLINE Quat<S> from_axis_angle(const Vec3<S>& axis, const S& angle) {
  const S h = angle * 0.5;
  const S s = sin(h);
  return {cos(h), axis.x * s, axis.y * s, axis.z * s};
}

// exp of a rotation vector phi (angle |phi| about phi/|phi|). Below |phi|^2 = 1e-2 a Taylor series in
// |phi|^2 (truncation error < 1e-17) avoids the 0/0 of sin(theta/2)/theta and the infinite
// derivative of sqrt at 0.
template <class S>
SG_INLINE Quat<S> quat_exp(const Vec3<S>& phi) {
  const S t2 = dot(phi, phi);
  S c, k;  // cos(theta/2) and sin(theta/2)/theta
  if (t2 < 1e-2) {
    c = 1.0 + t2 * (-1.0 / 8.0 + t2 * (1.0 / 384.0 + t2 * (-1.0 / 46080.0)));
    k = 0.5 + t2 * (-1.0 / 48.0 + t2 * (1.0 / 3840.0 + t2 * (-1.0 / 645120.0)));
  } else {
    const S theta = sqrt(t2);
    c = cos(theta * 0.5);
    k = sin(theta * 0.5) / theta;
  }
  return {c, phi.x * k, phi.y * k, phi.z * k};
}

// Rotation vector of a unit quaternion (inverse of quat_exp), angle in [0, pi]. Not used per step;
// kept for tests and diagnostics. Uses a series near the identity like quat_exp.
template <class S>
SG_INLINE Vec3<S> quat_log(const Quat<S>& q_in) {
  const Quat<S> q = q_in.w < 0.0 ? Quat<S>(-q_in.w, -q_in.x, -q_in.y, -q_in.z) : q_in;
  const S s2 = q.x * q.x + q.y * q.y + q.z * q.z;
  if (s2 < 1e-12) return q.vec() * (2.0 / q.w);  // atan(s/w)/s = 1/w + O(s^2)
  const S s = sqrt(s2);
  return q.vec() * (2.0 * atan2(s, q.w) / s);
}

// MuJoCo's default euler convention (compiler eulerseq="xyz"): intrinsic rotations about x, then the
// new y, then the new z, angles in degrees: q = qx(a) (x) qy(b) (x) qz(c).
template <class S>
SG_INLINE Quat<S> from_euler_xyz(const S& ax_deg, const S& ay_deg, const S& az_deg) {
  constexpr double kDeg = 3.14159265358979323846 / 180.0;
  const Quat<S> qx = from_axis_angle(Vec3<S>(S(1.0), S(0.0), S(0.0)), ax_deg * kDeg);
  const Quat<S> qy = from_axis_angle(Vec3<S>(S(0.0), S(1.0), S(0.0)), ay_deg * kDeg);
  const Quat<S> qz = from_axis_angle(Vec3<S>(S(0.0), S(0.0), S(1.0)), az_deg * kDeg);
  return qx * qy * qz;
}

}  // namespace sg

// Reverse-mode overloads (fused tape nodes), after the generic templates they specialise.
#include "engine/core/reverse_quat.hpp"
