#pragma once
// Fluid forces, MuJoCo 2.2.2's inertia-box model (mj_inertiaBoxFluidModel in engine_core_smooth.c, the
// last part of mj_passive): each body with mass moves through a medium of the model's density and
// viscosity as the box with its inertia would, against the wind. Viscosity gives Stokes drag on the
// box's mean diameter (linear in the velocity); density gives quadratic drag on the box's faces. The force
// acts at the body's centre of mass, in its principal axes. (MuJoCo's ellipsoid model, per geom
// `fluidshape`, is not implemented; the MJCF import refuses it.)
#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/kinematics.hpp"
#include "engine/articulated/spatial.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/mat3.hpp"

namespace sg {

inline constexpr double kFluidPi = 3.14159265358979323846;

// The full sides of the box whose principal moments about its centre are `inertia` for `mass`.
template <class S>
SG_INLINE Vec3<S> fluid_box(const Vec3<S>& inertia, const S& mass) {
  Vec3<S> box;
  for (int k = 0; k < 3; ++k) {
    const S moment_sum = inertia[(k + 1) % 3] + inertia[(k + 2) % 3] - inertia[k];
    box[k] = sqrt(max(S(kTreeMinVal), moment_sum) / mass * 6.0);
  }
  return box;
}

// The body's velocity relative to the wind, at its centre of mass in its principal axes (mj_objectVelocity
// of the inertial frame, local): angular in w, linear in v.
template <class S>
SG_INLINE void fluid_local_velocity(const TreeModel<S>& m, const TreeData<S>& d, int b, Vec3<S>& w,
                                    Vec3<S>& v) {
  const Vec3<S> at_com = tree_point_velocity(m, d, d.xipos[b], b);
  w = mul_transpose(d.ximat[b], d.cvel[b].rot);
  v = mul_transpose(d.ximat[b], at_com) - mul_transpose(d.ximat[b], m.wind);
}

// The medium's torque and force on a box of sides `box` turning at w and moving at v, in its own axes.
template <class S>
SG_INLINE void fluid_box_wrench(const TreeModel<S>& m, const Vec3<S>& box, const Vec3<S>& w, const Vec3<S>& v,
                                Vec3<S>& torque, Vec3<S>& force) {
  torque = Vec3<S>{};
  force = Vec3<S>{};
  if (!is_zero(m.viscosity)) {  // MuJoCo's viscosity > 0; is_zero keeps a derivative at 0
    const S diam = (box[0] + box[1] + box[2]) / 3.0;
    torque = w * (-kFluidPi * diam * diam * diam * m.viscosity);
    force = v * (-3.0 * kFluidPi * diam * m.viscosity);
  }
  if (!is_zero(m.density)) {
    for (int k = 0; k < 3; ++k) {
      const S b1 = box[(k + 1) % 3], b2 = box[(k + 2) % 3];
      force[k] -= 0.5 * m.density * b1 * b2 * abs(v[k]) * v[k];
      const S b14 = b1 * b1 * b1 * b1, b24 = b2 * b2 * b2 * b2;
      torque[k] -= m.density * box[k] * (b14 + b24) * abs(w[k]) * w[k] / 64.0;
    }
  }
}

// qfrc += the fluid's generalized force on every body with mass. Needs the velocity stage (cvel).
template <class S>
void tree_fluid_forces(const TreeModel<S>& m, const TreeData<S>& d, S* qfrc) {
  if (is_zero(m.viscosity) && is_zero(m.density)) return;
  for (int b = 1; b < m.nbody; ++b) {
    const TreeBody<S>& body = m.body[b];
    if (value(body.mass) < kTreeMinVal) continue;
    const Vec3<S> box = fluid_box(body.inertia, body.mass);
    Vec3<S> w, v, torque, force;
    fluid_local_velocity(m, d, b, w, v);
    fluid_box_wrench(m, box, w, v, torque, force);
    tree_apply_ft(m, d, d.ximat[b] * force, d.ximat[b] * torque, d.xipos[b], b, qfrc);
  }
}

}  // namespace sg
