#pragma once
// The smooth forward dynamics in mj_forward's order (MuJoCo 2.2.2 engine_forward.c without constraints):
// position stage, velocity stage, passive and bias forces, then qacc = qM^-1 (qfrc_passive - qfrc_bias +
// qfrc_applied) by a dense Cholesky (mj_fwdAcceleration). Also mj_integratePos, the position half of a step.
#include "engine/articulated/bias_forces.hpp"
#include "engine/articulated/implicit_solve.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/kinematics.hpp"
#include "engine/articulated/mass_matrix.hpp"
#include "engine/articulated/passive.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/quat.hpp"

namespace sg {

// mj_fwdPosition's smooth part: kinematics, com frame, inertia matrix.
template <class S>
void tree_fwd_position(const TreeModel<S>& m, TreeData<S>& d) {
  tree_kinematics(m, d);
  tree_com_pos(m, d);
  tree_crb(m, d);
}

// mj_fwdVelocity's smooth part: body velocities, then the bias forces that depend on them.
template <class S>
void tree_fwd_velocity(const TreeModel<S>& m, TreeData<S>& d) {
  tree_com_vel(m, d);
  tree_passive(m, d);
  tree_rne_bias(m, d);
}

// mj_fwdAcceleration: qacc of the unconstrained system. False if qM is not positive definite (a massless
// dof without armature); qacc is then left zero. qfrc_actuator (actuation.hpp) is added, as MuJoCo does,
// when given, then the bodies' xfrc_applied (mj_xfrcAccumulate). qM's values are factorised into qLD;
// derivatives of qacc by implicit differentiation.
template <class S>
bool tree_fwd_acceleration(const TreeModel<S>& m, TreeData<S>& d, const S* qfrc_actuator = nullptr) {
  const int nv = m.nv;
  for (int i = 0; i < nv; ++i) {
    d.qfrc_smooth[i] = d.qfrc_passive[i] - d.qfrc_bias[i] + d.qfrc_applied[i];
    if (qfrc_actuator) d.qfrc_smooth[i] += qfrc_actuator[i];
    d.qacc[i] = 0.0;
  }
  tree_xfrc_accumulate(m, d, d.qfrc_smooth);
  return spd_solve_implicit(d.qM, d.qM_lo, d.qM_hi, static_cast<const S*>(nullptr), 0.0, nv, d.qfrc_smooth,
                            d.qLD, d.qLD_envelope, d.qacc);
}

// mj_forward without contacts or constraints: every smooth quantity, qacc last.
template <class S>
bool tree_forward(const TreeModel<S>& m, TreeData<S>& d) {
  tree_fwd_position(m, d);
  tree_fwd_velocity(m, d);
  return tree_fwd_acceleration(m, d);
}

// mju_quatIntegrate: q exp(w dt), the angular velocity w in q's local frame, renormalised.
template <class S, class H>
SG_INLINE Quat<S> quat_integrate(const Quat<S>& q, const Vec3<S>& w, const H& dt) {
  return normalized(q * quat_exp(w * dt));
}

// mj_integratePos: qpos += qvel dt joint by joint; quaternions turn by their (local) angular velocity.
template <class S, class H>
void tree_integrate_pos(const TreeModel<S>& m, S* qpos, const S* qvel, const H& dt) {
  for (int j = 0; j < m.njnt; ++j) {
    const TreeJoint<S>& jn = m.joint[j];
    S* q = qpos + jn.qpos_adr;
    const S* v = qvel + jn.dof_adr;
    if (jn.type == JointType::kHinge || jn.type == JointType::kSlide) {
      q[0] += v[0] * dt;
      continue;
    }
    if (jn.type == JointType::kFree) {
      for (int c = 0; c < 3; ++c) q[c] += v[c] * dt;
      q += 3;
      v += 3;
    }
    const Quat<S> r = quat_integrate(quat_from(q), Vec3<S>{v[0], v[1], v[2]}, dt);
    q[0] = r.w, q[1] = r.x, q[2] = r.y, q[3] = r.z;
  }
}

}  // namespace sg
