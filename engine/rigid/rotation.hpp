#pragma once
// Exact rotation integration for ODE solvers (engine-notes section 3). A body's orientation is held as
// a base quaternion q0 and a rotation vector phi with q = q0 (x) exp(phi). With the body-frame angular
// velocity omega (MuJoCo: q_dot = q (x) [0, omega/2]) phi evolves as phi_dot = dexp_inv(phi, omega),
// a smooth ODE the solver can integrate at any order; after each accepted step the caller folds phi
// into q0 with integrate_rotation and resets phi to zero.
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Inverse right Jacobian of SO(3) applied to omega:
//   alpha omega + (1 - alpha)(a.omega) a + (theta/2)(a x omega),  alpha = (theta/2) cot(theta/2), a =
//   phi/theta,
// written as omega + (phi x omega)/2 + beta (phi (phi.omega) - theta^2 omega), beta = (1 - alpha)/theta^2,
// so that small angles need no division by theta. beta uses its Taylor series for theta^2 < 1e-2.
template <class S>
SG_HD inline Vec3<S> dexp_inv(const Vec3<S>& phi, const Vec3<S>& omega) {
  const S t2 = dot(phi, phi);
  S beta;
  if (t2 < 1e-2) {
    beta = 1.0 / 12.0 + t2 * (1.0 / 720.0 + t2 * (1.0 / 30240.0 + t2 * (1.0 / 1209600.0)));
  } else {
    const S half = sqrt(t2) * 0.5;
    const S alpha = half * cos(half) / sin(half);
    beta = (1.0 - alpha) / t2;
  }
  return omega + cross(phi, omega) * 0.5 + (phi * dot(phi, omega) - omega * t2) * beta;
}

// q0 (x) exp(phi), renormalised so rounding never accumulates across steps.
template <class S>
SG_HD inline Quat<S> integrate_rotation(const Quat<S>& q0, const Vec3<S>& phi) {
  return normalized(q0 * quat_exp(phi));
}

}  // namespace sg
