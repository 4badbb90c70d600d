#pragma once
// mju_quat2Vel (dt = 1): a quaternion's rotation vector, shared by the ball joint's actuator transmission
// (actuation.hpp) and its limit (constraint_make.hpp).
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr double kTreePi = 3.14159265358979323846;  // mjPI

// The rotation vector of q, wrapped to an angle in (-pi, pi] about the axis of q's vector part. Near the
// identity the series 2 v / w replaces atan2(s, w) / s, whose derivative is singular at s = 0 (MuJoCo's value
// there is 0 either way).
template <class S>
SG_INLINE Vec3<S> quat_rotation_vector(const S* q) {
  const Vec3<S> v{q[1], q[2], q[3]};
  const S s2 = v.x * v.x + v.y * v.y + v.z * v.z;
  if (value(s2) < 1e-24) return v * (S(2.0) / q[0]);
  const S s = sqrt(s2);
  S speed = 2.0 * atan2(s, q[0]);
  if (value(speed) > kTreePi) speed -= 2.0 * kTreePi;
  const S inv = 1.0 / s;
  return Vec3<S>{v.x * inv, v.y * inv, v.z * inv} * speed;
}

// A ball joint's rotation angle |quat2Vel(q)| and its unit axis (mju_normalize3: (1, 0, 0) when the angle is
// below mjMINVAL), as mj_instantiateLimit takes them.
template <class S>
SG_INLINE S ball_rotation_angle(const S* q, Vec3<S>& axis) {
  const Vec3<S> r = quat_rotation_vector(q);
  const S n2 = r.x * r.x + r.y * r.y + r.z * r.z;
  if (!(value(n2) > 1e-30)) {
    axis = Vec3<S>{S(1.0), S(0.0), S(0.0)};
    return sqrt(value(n2));
  }
  const S n = sqrt(n2), inv = 1.0 / n;
  axis = Vec3<S>{r.x * inv, r.y * inv, r.z * inv};
  return n;
}

}  // namespace sg
