#pragma once
// Passive forces (MuJoCo 2.2.2 mj_passive): joint springs, dof dampers and the fluid's forces (fluid.hpp);
// the tendons' spring-dampers are added by the actuation stage (tendon.hpp). Springs pull towards
// qpos_spring: hinge and slide along their coordinate, a free joint's position per world axis, and a ball's
// (or free joint's) orientation by the rotation vector that takes the rest orientation to the current one,
// expressed in the rest frame (mju_subQuat).
#include "engine/articulated/fluid.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/quat.hpp"

namespace sg {

// mju_subQuat(qa, qb): the rotation vector v with qb exp(v) = qa, angle in [0, pi]. quat_log picks the
// shorter way as MuJoCo's wrap above pi does, and stays smooth for duals near zero angle.
template <class S>
SG_INLINE Vec3<S> quat_difference(const Quat<S>& qa, const Quat<S>& qb) {
  return quat_log(conjugate(qb) * qa);
}

// The spring force of joint j on its dofs.
template <class S>
void tree_joint_spring(const TreeModel<S>& m, TreeData<S>& d, int j) {
  const TreeJoint<S>& jn = m.joint[j];
  const S k = jn.stiffness;
  int p = jn.qpos_adr, v = jn.dof_adr;
  switch (jn.type) {
    case JointType::kFree:
      for (int c = 0; c < 3; ++c) d.qfrc_passive[v + c] -= k * (d.qpos[p + c] - m.qpos_spring[p + c]);
      p += 3;
      v += 3;
      [[fallthrough]];
    case JointType::kBall: {
      const Vec3<S> dif = quat_difference(quat_from(d.qpos + p), quat_from(m.qpos_spring + p));
      for (int c = 0; c < 3; ++c) d.qfrc_passive[v + c] -= k * dif[c];
      break;
    }
    case JointType::kSlide:
    case JointType::kHinge:
      d.qfrc_passive[v] -= k * (d.qpos[p] - m.qpos_spring[p]);
      break;
  }
}

// mj_passive: qfrc_passive = joint springs + dof dampers + fluid forces. Reads the unit quaternions
// tree_kinematics left in qpos, and the velocity stage's cvel.
template <class S>
void tree_passive(const TreeModel<S>& m, TreeData<S>& d) {
  for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] = 0.0;
  for (int j = 0; j < m.njnt; ++j)
    if (!is_zero(m.joint[j].stiffness)) tree_joint_spring(m, d, j);
  for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] -= m.damping[i] * d.qvel[i];
  tree_fluid_forces(m, d, d.qfrc_passive);
}

}  // namespace sg
