#pragma once
// Position stage (MuJoCo 2.2.2 engine_core_smooth.c): mj_kinematics places every body, inertial frame and
// joint in the world; mj_comPos re-expresses inertias and dof motions at each tree's centre of mass, the
// frame the later stages (mj_crb, mj_comVel, mj_rne) work in.
#include "engine/articulated/spatial.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// MuJoCo's mjMINVAL: below it a norm or a mass counts as zero.
inline constexpr double kTreeMinVal = 1e-15;

// mju_normalize4: a quaternion of (near) zero norm becomes the identity instead of dividing by zero.
template <class S>
void normalize_quat(S* q) {
  const S n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n < kTreeMinVal) {
    q[0] = 1.0, q[1] = 0.0, q[2] = 0.0, q[3] = 0.0;
    return;
  }
  for (int k = 0; k < 4; ++k) q[k] = q[k] / n;
}

// mj_normalizeQuat: the ball and free joints' quaternions in qpos made unit, in place as MuJoCo does, so
// later stages (mj_passive) read the same unit quaternions kinematics used.
template <class S>
void tree_normalize_quats(const TreeModel<S>& m, S* qpos) {
  for (int j = 0; j < m.njnt; ++j) {
    const JointType t = m.joint[j].type;
    if (t == JointType::kBall) normalize_quat(qpos + m.joint[j].qpos_adr);
    if (t == JointType::kFree) normalize_quat(qpos + m.joint[j].qpos_adr + 3);
  }
}

// A body moved by its joints, applied in order to the pose it has at rest relative to its parent.
template <class S>
void tree_joint_chain(const TreeModel<S>& m, TreeData<S>& d, int i, Vec3<S>& pos, Quat<S>& quat) {
  const TreeBody<S>& b = m.body[i];
  for (int j = b.jnt_adr; j < b.jnt_adr + b.jnt_num; ++j) {
    const TreeJoint<S>& jn = m.joint[j];
    const S* q = d.qpos + jn.qpos_adr;
    // Anchor and axis before this joint moves the body (MuJoCo's xanchor, xaxis).
    d.xaxis[j] = rotate(quat, jn.axis);
    d.xanchor[j] = rotate(quat, jn.pos) + pos;
    if (jn.type == JointType::kSlide) {
      pos += d.xaxis[j] * (q[0] - m.qpos0[jn.qpos_adr]);
    } else {
      // Hinge angles count from qpos0; a ball's quaternion is its local rotation.
      const Quat<S> qloc =
          jn.type == JointType::kBall ? quat_from(q) : from_axis_angle(jn.axis, q[0] - m.qpos0[jn.qpos_adr]);
      quat = quat * qloc;
      // Rotating about the anchor, not the body origin: keep the anchor where it was.
      pos = d.xanchor[j] - rotate(quat, jn.pos);
    }
  }
}

// Body i's frame from its parent's (or from qpos for a free joint) and its inertial frame.
template <class S>
void tree_body_kinematics(const TreeModel<S>& m, TreeData<S>& d, int i) {
  const TreeBody<S>& b = m.body[i];
  Vec3<S> pos;
  Quat<S> quat;
  if (b.jnt_num == 1 && m.joint[b.jnt_adr].type == JointType::kFree) {
    const S* q = d.qpos + m.joint[b.jnt_adr].qpos_adr;
    pos = {q[0], q[1], q[2]};
    quat = quat_from(q + 3);
    d.xanchor[b.jnt_adr] = pos;
    d.xaxis[b.jnt_adr] = {S(0.0), S(0.0), S(1.0)};
  } else {
    pos = d.xpos[b.parent] + d.xmat[b.parent] * b.pos;
    quat = d.xquat[b.parent] * b.quat;
    tree_joint_chain(m, d, i, pos, quat);
  }
  d.xquat[i] = normalized(quat);
  d.xpos[i] = pos;
  d.xmat[i] = to_mat3(d.xquat[i]);
  d.xipos[i] = d.xpos[i] + d.xmat[i] * b.ipos;
  d.ximat[i] = to_mat3(d.xquat[i] * b.iquat);
}

// mj_kinematics (bodies only: softgrad's tree has no geoms or sites yet).
template <class S>
void tree_kinematics(const TreeModel<S>& m, TreeData<S>& d) {
  d.xpos[0] = Vec3<S>{};
  d.xquat[0] = Quat<S>{};
  d.xmat[0] = Mat3<S>::identity();
  d.xipos[0] = Vec3<S>{};
  d.ximat[0] = Mat3<S>::identity();
  tree_normalize_quats(m, d.qpos);
  for (int i = 1; i < m.nbody; ++i) tree_body_kinematics(m, d, i);
}

// Centre of mass of every subtree (leaves to root); a massless subtree sits at its body's inertial frame.
template <class S>
void tree_subtree_com(const TreeModel<S>& m, TreeData<S>& d) {
  S mass[kMaxTreeBodies];
  for (int i = 0; i < m.nbody; ++i) mass[i] = 0.0, d.subtree_com[i] = Vec3<S>{};
  for (int i = m.nbody - 1; i >= 0; --i) {
    d.subtree_com[i] += d.xipos[i] * m.body[i].mass;
    mass[i] += m.body[i].mass;
    if (i > 0) {
      d.subtree_com[m.body[i].parent] += d.subtree_com[i];
      mass[m.body[i].parent] += mass[i];
    }
    if (mass[i] < kTreeMinVal)
      d.subtree_com[i] = d.xipos[i];
    else
      d.subtree_com[i] = d.subtree_com[i] / mass[i];
  }
}

// The motion subspace of joint j in the com-based frame of its tree: a free joint's translations along the
// world axes, its rotations (and a ball's) about the body's own axes through the anchor.
template <class S>
void tree_joint_cdof(const TreeModel<S>& m, TreeData<S>& d, int j) {
  const TreeJoint<S>& jn = m.joint[j];
  const Vec3<S> offset = d.subtree_com[m.body[jn.body].root] - d.xanchor[j];
  Spatial<S>* cdof = d.cdof + jn.dof_adr;
  switch (jn.type) {
    case JointType::kFree:
      for (int k = 0; k < 3; ++k) {
        Vec3<S> e{};
        e[k] = 1.0;
        cdof[k] = slide_motion(e);
      }
      cdof += 3;
      [[fallthrough]];
    case JointType::kBall:
      for (int k = 0; k < 3; ++k) cdof[k] = hinge_motion(d.xmat[jn.body].col(k), offset);
      break;
    case JointType::kSlide:
      cdof[0] = slide_motion(d.xaxis[j]);
      break;
    case JointType::kHinge:
      cdof[0] = hinge_motion(d.xaxis[j], offset);
      break;
  }
}

// mj_comPos: subtree centres of mass, cinert and cdof, all about the centre of mass of each body's tree
// (body root), which keeps the numbers small far from the origin.
template <class S>
void tree_com_pos(const TreeModel<S>& m, TreeData<S>& d) {
  tree_subtree_com(m, d);
  d.cinert[0] = ComInertia<S>{};
  for (int i = 1; i < m.nbody; ++i) {
    const TreeBody<S>& b = m.body[i];
    d.cinert[i] = inertia_at(b.inertia, d.ximat[i], d.xipos[i] - d.subtree_com[b.root], b.mass);
  }
  for (int j = 0; j < m.njnt; ++j) tree_joint_cdof(m, d, j);
}

}  // namespace sg
