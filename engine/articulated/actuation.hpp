#pragma once
// Actuation in MuJoCo 2.2.2's order: mj_transmission (actuator lengths and moments: joint and tendon
// transmissions) in the position stage, actuator_velocity = moment qvel at the start of the velocity stage,
// then mj_fwdActuation: ctrl clamped to ctrlrange, force = gain (ctrl, or act with dynamics) + bias, force
// clamped to forcerange, qfrc_actuator = moment^T force, and act_dot. Clamps compare values and pass the
// bound through, so a clamped control carries the bound's derivative (zero for a constant range), as
// mju_clip's branches would.
#include "engine/articulated/actuator_data.hpp"
#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/muscle.hpp"
#include "engine/articulated/rotation_vector.hpp"
#include "engine/articulated/site_transmission.hpp"
#include "engine/articulated/slider_crank.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// mju_clip: x limited to [lo, hi].
template <class S>
SG_INLINE S actuator_clip(const S& x, const S& lo, const S& hi) {
  if (value(x) < value(lo)) return lo;
  if (value(x) > value(hi)) return hi;
  return x;
}

// mju_rotVecQuat(vec, conj(q)): a gear given in the parent frame expressed in the joint's frame
// (mjTRN_JOINTINPARENT), MuJoCo's formula and its identity shortcut.
template <class S>
SG_INLINE Vec3<S> actuator_rot_by_conjugate(const S* g, const S* q) {
  const S w = q[0], x = -q[1], y = -q[2], z = -q[3];
  if (value(w) == 1.0 && value(x) == 0.0 && value(y) == 0.0 && value(z) == 0.0) return {g[0], g[1], g[2]};
  const S t0 = w * g[0] + y * g[2] - z * g[1];
  const S t1 = w * g[1] + z * g[0] - x * g[2];
  const S t2 = w * g[2] + x * g[1] - y * g[0];
  return {g[0] + 2.0 * (y * t2 - z * t1), g[1] + 2.0 * (z * t0 - x * t2), g[2] + 2.0 * (x * t1 - y * t0)};
}

// The rotational gear of a ball or free joint whose orientation quaternion is q.
template <class S>
SG_INLINE Vec3<S> actuator_gear_axis(const TreeActuator<S>& a, const S* g, const S* q) {
  if (a.trntype == ActuatorTransmission::kJoint) return {g[0], g[1], g[2]};
  return actuator_rot_by_conjugate(g, q);
}

// A tendon transmission: the tendon's length and Jacobian row scaled by gear[0].
template <class S>
void tree_tendon_transmission(const TreeModel<S>& m, const TreeActuator<S>& a, TreeActuatorData<S>& ad,
                              int i) {
  ad.actuator_length[i] = ad.ten.ten_length[a.joint] * a.gear[0];
  const S* row = ad.ten.ten_J + a.joint * m.nv;
  for (int k = 0; k < m.nv; ++k) ad.actuator_moment[i * m.nv + k] = row[k] * a.gear[0];
}

// The dofs actuator i's moment row can be nonzero on: its joint's, or all of them for a tendon, a
// slider-crank or a site.
template <class S>
SG_INLINE void actuator_dof_span(const TreeModel<S>& m, const TreeActuator<S>& a, int* begin, int* end) {
  if (a.trntype == ActuatorTransmission::kTendon || actuator_on_sites(a)) {
    *begin = 0, *end = m.nv;
    return;
  }
  const TreeJoint<S>& jn = m.joint[a.joint];
  *begin = jn.dof_adr, *end = jn.dof_adr + joint_dof_count(jn.type);
}

// mj_transmission for actuator i: hinge and slide scale their coordinate by gear[0]; a ball's length is
// its rotation vector along the gear axis; a free joint has no meaningful length (0) and a 6D moment; a
// tendon's (tree_tendon must have run); a slider-crank's and a site's from their sites (tree_site_kinematics
// must have run).
template <class S>
void tree_actuator_transmission(const TreeModel<S>& m, const TreeActuatorModel<S>& am, const TreeData<S>& d,
                                TreeActuatorData<S>& ad, int i) {
  const TreeActuator<S>& a = am.actuator[i];
  if (a.trntype == ActuatorTransmission::kTendon) return tree_tendon_transmission(m, a, ad, i);
  if (a.trntype == ActuatorTransmission::kSliderCrank) return tree_slider_crank_transmission(m, am, d, ad, i);
  if (a.trntype == ActuatorTransmission::kSite) return tree_site_transmission(m, am, d, ad, i);
  const TreeJoint<S>& jn = m.joint[a.joint];
  const S* q = d.qpos + jn.qpos_adr;
  S* moment = ad.actuator_moment + i * m.nv + jn.dof_adr;
  switch (jn.type) {
    case JointType::kSlide:
    case JointType::kHinge:
      ad.actuator_length[i] = q[0] * a.gear[0];
      moment[0] = a.gear[0];
      break;
    case JointType::kBall: {
      const Vec3<S> axis = quat_rotation_vector(q);
      const Vec3<S> g = actuator_gear_axis(a, a.gear, q);
      ad.actuator_length[i] = axis.x * g.x + axis.y * g.y + axis.z * g.z;
      for (int c = 0; c < 3; ++c) moment[c] = g[c];
      break;
    }
    case JointType::kFree: {
      const Vec3<S> g = actuator_gear_axis(a, a.gear + 3, q + 3);
      ad.actuator_length[i] = 0.0;
      for (int c = 0; c < 3; ++c) moment[c] = a.gear[c], moment[3 + c] = g[c];
      break;
    }
  }
}

// mj_transmission: every actuator's length and moment row (zero outside its joint's dofs).
template <class S>
void tree_transmission(const TreeModel<S>& m, const TreeActuatorModel<S>& am, const TreeData<S>& d,
                       TreeActuatorData<S>& ad) {
  for (int k = 0; k < am.nu * m.nv; ++k) ad.actuator_moment[k] = 0.0;
  for (int i = 0; i < am.nu; ++i) tree_actuator_transmission(m, am, d, ad, i);
}

// mj_fwdVelocity's actuator_velocity = moment qvel, summed over the dofs the row can be nonzero on.
template <class S>
void tree_actuator_velocity(const TreeModel<S>& m, const TreeActuatorModel<S>& am, const TreeData<S>& d,
                            TreeActuatorData<S>& ad) {
  for (int i = 0; i < am.nu; ++i) {
    int begin = 0, end = 0;
    actuator_dof_span(m, am.actuator[i], &begin, &end);
    const S* row = ad.actuator_moment + i * m.nv;
    S v = 0.0;
    for (int k = begin; k < end; ++k) v += row[k] * d.qvel[k];
    ad.actuator_velocity[i] = v;
  }
}

// The controls mj_fwdActuation uses: clamped to ctrlrange unless clamping is disabled, and all zero if any
// is NaN or beyond mjMAXVAL = 1e10 (mju_isBad; MuJoCo also raises a warning).
template <class S>
void tree_actuator_controls(const TreeActuatorModel<S>& am, const TreeActuatorData<S>& ad, S* ctrl) {
  for (int i = 0; i < am.nu; ++i) {
    const TreeActuator<S>& a = am.actuator[i];
    ctrl[i] = (am.opt.clampctrl && a.ctrllimited) ? actuator_clip(ad.ctrl[i], a.ctrlrange[0], a.ctrlrange[1])
                                                  : ad.ctrl[i];
  }
  for (int i = 0; i < am.nu; ++i) {
    const double c = value(ctrl[i]);
    if (!(c >= -1e10 && c <= 1e10)) {
      for (int k = 0; k < am.nu; ++k) ctrl[k] = 0.0;
      return;
    }
  }
}

// prm[0] + prm[1] length + prm[2] velocity: MuJoCo's affine gain and bias.
template <class S>
SG_INLINE S actuator_affine(const S* prm, const S& length, const S& velocity) {
  return prm[0] + prm[1] * length + prm[2] * velocity;
}

// actuator_force[i] = gain (ctrl, or act with dynamics) + bias, before the force clamp.
template <class S>
SG_INLINE S actuator_raw_force(const TreeActuator<S>& a, const TreeActuatorData<S>& ad, int i,
                               const S& ctrl) {
  const S& len = ad.actuator_length[i];
  const S& vel = ad.actuator_velocity[i];
  S gain;
  switch (a.gaintype) {
    case ActuatorGain::kFixed:
      gain = a.gainprm[0];
      break;
    case ActuatorGain::kAffine:
      gain = actuator_affine(a.gainprm, len, vel);
      break;
    case ActuatorGain::kMuscle:
      gain = muscle_gain(len, vel, a.lengthrange, a.acc0, a.gainprm);
      break;
  }
  S force = gain * (a.act_adr >= 0 ? ad.act[a.act_adr] : ctrl);
  if (a.biastype == ActuatorBias::kAffine) force += actuator_affine(a.biasprm, len, vel);
  if (a.biastype == ActuatorBias::kMuscle) force += muscle_bias(len, a.lengthrange, a.acc0, a.biasprm);
  return force;
}

// act_dot of an actuator with dynamics (mj_fwdActuation's last loop).
template <class S>
SG_INLINE S actuator_act_dot(const TreeActuator<S>& a, const S& ctrl, const S& act) {
  switch (a.dyntype) {
    case ActuatorDynamics::kIntegrator:
      return ctrl;
    case ActuatorDynamics::kFilter:
      return (ctrl - act) / (value(a.dynprm[0]) < 1e-15 ? S(1e-15) : a.dynprm[0]);
    case ActuatorDynamics::kMuscle:
      return muscle_dynamics(ctrl, act, a.dynprm);
    case ActuatorDynamics::kNone:
      break;
  }
  return S(0.0);
}

// mj_fwdActuation: actuator_force, qfrc_actuator and act_dot (all zero when actuation is disabled). Needs
// tree_transmission and tree_actuator_velocity first.
template <class S>
void tree_fwd_actuation(const TreeModel<S>& m, const TreeActuatorModel<S>& am, TreeActuatorData<S>& ad) {
  for (int k = 0; k < m.nv; ++k) ad.qfrc_actuator[k] = 0.0;
  for (int i = 0; i < am.nu; ++i) ad.actuator_force[i] = 0.0;
  for (int i = 0; i < am.na; ++i) ad.act_dot[i] = 0.0;
  if (am.nu == 0 || !am.opt.actuation) return;
  S ctrl[kMaxActuators];
  tree_actuator_controls(am, ad, ctrl);
  for (int i = 0; i < am.nu; ++i) ad.actuator_force[i] = actuator_raw_force(am.actuator[i], ad, i, ctrl[i]);
  for (int i = 0; i < am.nu; ++i) {
    const TreeActuator<S>& a = am.actuator[i];
    if (a.forcelimited)
      ad.actuator_force[i] = actuator_clip(ad.actuator_force[i], a.forcerange[0], a.forcerange[1]);
  }
  // mju_mulMatTVec: actuators accumulated in order, each on the dofs its row can be nonzero on.
  for (int i = 0; i < am.nu; ++i) {
    int begin = 0, end = 0;
    actuator_dof_span(m, am.actuator[i], &begin, &end);
    const S* row = ad.actuator_moment + i * m.nv;
    for (int k = begin; k < end; ++k) ad.qfrc_actuator[k] += row[k] * ad.actuator_force[i];
  }
  for (int i = 0; i < am.nu; ++i) {
    const TreeActuator<S>& a = am.actuator[i];
    if (a.act_adr >= 0) ad.act_dot[a.act_adr] = actuator_act_dot(a, ctrl[i], ad.act[a.act_adr]);
  }
}

}  // namespace sg
