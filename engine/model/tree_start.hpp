#pragma once
// A joint tree's run from a given state: the inverse of TreeSystem::initial_state. Writes the state y =
// [qpos, phi, qvel] (phi, the rotation vectors of ball and free joints, folded into their quaternions) into
// the scene numbers a run starts from, so that a planner can simulate from the state an executed plan reached
// (engine/control/mpc.hpp) through the unchanged run and gradient code.
#include "engine/model/joint_tree_model.hpp"
#include "engine/rigid/rotation.hpp"

namespace sg {

// m's start becomes y (its dimension is m.dim()). Activations: act. Hinge and slide: qpos, qvel. Ball: the
// quaternion and the local angular velocity. Free: the body's pos, the orientation relative to the body's
// quat (as initial_state composes them) and both velocities. To rounding, TreeSystem::initial_state then
// returns y with phi folded.
inline void set_tree_start(JointTreeModel<double>& m, const double* y) {
  const TreeModel<double>& t = m.tree;
  const double* v = y + m.vel_offset();
  for (int j = 0; j < t.njnt; ++j) {
    const TreeJoint<double>& jn = t.joint[j];
    TreeJointParams<double>& p = m.joint[j];
    const double* q = y + jn.qpos_adr;
    if (jn.type == JointType::kHinge || jn.type == JointType::kSlide) {
      p.qpos = q[0];
      p.qvel = v[jn.dof_adr];
      continue;
    }
    const int at = jn.type == JointType::kFree ? 3 : 0;
    const int r = m.rot_adr[j];
    const Quat<double> turned = integrate_rotation(quat_from(q + at), Vec3<double>{y[r], y[r + 1], y[r + 2]});
    const int w = jn.dof_adr + at;  // the angular velocity's dofs
    p.ball_qvel = Vec3<double>{v[w], v[w + 1], v[w + 2]};
    if (jn.type == JointType::kBall) {
      p.ball_qpos = normalized(turned);
      continue;
    }
    TreeBody<double>& b = m.tree.body[jn.body];
    b.pos = Vec3<double>{q[0], q[1], q[2]};
    p.ball_qpos = normalized(Quat<double>(conjugate(normalized(b.quat)) * normalized(turned)));
    p.free_vel = Vec3<double>{v[jn.dof_adr], v[jn.dof_adr + 1], v[jn.dof_adr + 2]};
  }
  for (int i = 0; i < m.act.nu; ++i)
    if (m.act.actuator[i].act_adr >= 0) m.act0[i] = y[m.act_offset() + m.act.actuator[i].act_adr];
}

}  // namespace sg
