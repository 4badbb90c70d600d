#pragma once
// MuJoCo's soft-constraint contact for one frictionless contact row (engine-notes section 1):
// impedance spline d(r) from solimp, reference acceleration from solref, regulariser R, and the closed-form
// force f = max(0, (aref - a0_c) / (A + R)).
#include "engine/core/scalar.hpp"

namespace sg {

// Impedance d(r) from solimp = [dmin, dmax, width, mid, power], clamped as MuJoCo does. lower_to_end: a mid
// of 1 or more, which MuJoCo clamps to 0.9999, keeps the lower branch up to x = 1 instead of switching to the
// upper one for the last 1e-4 of the width (Contacts From Distance; engine/contact/cfd.hpp says why).
template <class S>
SG_HD inline S mujoco_impedance(const S solimp[5], const S& r, bool lower_to_end = false) {
  const S dmin = clamp(solimp[0], 1e-4, 0.9999);
  const S dmax = clamp(solimp[1], 1e-4, 0.9999);
  const S width = solimp[2] < 0.0 ? S(0.0) : solimp[2];
  const bool whole_lower = lower_to_end && solimp[3] >= 1.0;
  const S mid = clamp(solimp[3], 1e-4, 0.9999);
  const S power = solimp[4] < 1.0 ? S(1.0) : solimp[4];
  if (dmin == dmax || width <= 1e-15) return 0.5 * (dmin + dmax);
  const S x = abs(r) / width;
  if (x >= 1.0) return dmax;
  S y;
  if (power == 1.0) {
    y = x;
  } else if (power == 2.0) {  // MuJoCo's default: the same values without pow
    const bool low = x <= mid || whole_lower;
    y = low ? S(x * x / mid) : S(1.0 - (1.0 - x) * (1.0 - x) / (1.0 - mid));
    if (!tangent_free(power)) {
      // d y / d power at 2 (y (ln x - ln mid), or (y - 1)(ln(1 - x) - ln(1 - mid))), added with value 0:
      // the values must not depend on which parameters carry derivatives.
      const double xv = value(x), mv = value(mid), yv = value(y);
      const double dy_dp = low ? (xv > 0.0 ? yv * (std::log(xv) - std::log(mv)) : 0.0)
                               : (yv - 1.0) * (std::log(1.0 - xv) - std::log(1.0 - mv));
      y += (power - value(power)) * dy_dp;
    }
  } else if (x <= mid || whole_lower) {
    y = pow(x, power) / pow(mid, power - 1.0);
  } else {
    y = 1.0 - pow(1.0 - x, power) / pow(1.0 - mid, power - 1.0);
  }
  return dmin + y * (dmax - dmin);
}

// Stiffness K and damping B of the reference acceleration aref = -B v - K d r.
template <class S>
struct MujocoSpring {
  S K, B;
};

// A positive solref[0], the contact's time constant, as MuJoCo's refsafe bounds it: at least 2 timestep.
template <class S>
SG_HD inline S refsafe_time_constant(const S& timeconst, bool refsafe, double timestep) {
  return refsafe && timeconst < 2.0 * timestep ? S(2.0 * timestep) : timeconst;
}

// timestep is used by refsafe (refsafe_time_constant).
template <class S>
SG_HD inline MujocoSpring<S> mujoco_spring(const S solref[2], const S solimp[5], bool refsafe,
                                           double timestep) {
  const S dmax = clamp(solimp[1], 1e-4, 0.9999);
  if (solref[0] > 0.0) {
    const S tc = refsafe_time_constant(solref[0], refsafe, timestep);
    const S z = solref[1];
    return {1.0 / (dmax * dmax * tc * tc * z * z), 2.0 / (dmax * tc)};
  }
  return {-solref[0] / (dmax * dmax), -solref[1] / dmax};
}

// All intermediate quantities of one contact row, for tests and the GUI's readouts.
template <class S>
struct MujocoContactForce {
  S impedance, aref, R, force;
};

// The row at any signed distance r (the formulas continued past r = 0), with the unclamped force
// (aref - a0n) / (A + R) in `force`: what a hybrid mode that holds the contact active integrates.
// r: signed distance, vn: J v, a0n: J a_unconstrained, inv_mass_n: A = J M^-1 J^T (diagonal approximation).
template <class S>
SG_HD inline MujocoContactForce<S> mujoco_contact_row(const S solref[2], const S solimp[5], bool refsafe,
                                                      double timestep, const S& r, const S& vn, const S& a0n,
                                                      const S& inv_mass_n) {
  MujocoContactForce<S> out;
  const S d = mujoco_impedance(solimp, r);
  const MujocoSpring<S> sp = mujoco_spring(solref, solimp, refsafe, timestep);
  out.impedance = d;
  out.aref = -sp.B * vn - sp.K * d * r;
  S R = (1.0 - d) / d * inv_mass_n;
  if (R < 1e-15) R = S(1e-15);
  out.R = R;
  out.force = (out.aref - a0n) / (inv_mass_n + R);
  return out;
}

// MuJoCo's contact force: the row acts only while penetrating (r < 0), and only by pushing (force >= 0).
template <class S>
SG_HD inline MujocoContactForce<S> mujoco_contact_force(const S solref[2], const S solimp[5], bool refsafe,
                                                        double timestep, const S& r, const S& vn,
                                                        const S& a0n, const S& inv_mass_n) {
  MujocoContactForce<S> out{};
  if (!(r < 0.0)) return out;  // a row is active only while penetrating
  out = mujoco_contact_row(solref, solimp, refsafe, timestep, r, vn, a0n, inv_mass_n);
  if (!(out.force > 0.0)) out.force = S(0.0);
  return out;
}

}  // namespace sg
