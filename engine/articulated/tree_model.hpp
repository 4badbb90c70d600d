#pragma once
// A kinematic tree of rigid bodies connected by joints, laid out as MuJoCo's mjModel is (bodies in an order
// where each parent precedes its children, a body's joints and dofs contiguous, qpos and qvel packed joint
// by joint), so that each stage of engine/articulated/ reads like its mj_* counterpart. Fixed capacities:
// no heap, so the model is a plain value that any scalar (double, Dual<N>, Rev) can fill.
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr int kMaxTreeBodies = 64;  // the world body 0 included
inline constexpr int kMaxJoints = 64;
inline constexpr int kMaxDofs = 64;
inline constexpr int kMaxQpos = kMaxDofs + kMaxJoints;  // a quaternion has one coordinate more than its dofs

// MuJoCo's mjtJoint values, so a model maps across by value.
enum class JointType : int { kFree = 0, kBall = 1, kSlide = 2, kHinge = 3 };

SG_HD constexpr int joint_qpos_count(JointType t) {
  return t == JointType::kFree ? 7 : (t == JointType::kBall ? 4 : 1);
}
SG_HD constexpr int joint_dof_count(JointType t) {
  return t == JointType::kFree ? 6 : (t == JointType::kBall ? 3 : 1);
}

template <class S>
struct TreeBody {
  int parent = 0;
  int root = 0;  // the ancestor whose parent is the world (itself for a top-level body)
  int jnt_adr = 0, jnt_num = 0;
  int dof_adr = 0, dof_num = 0;
  Vec3<S> pos{};  // body frame in the parent's body frame
  Quat<S> quat{};
  Vec3<S> ipos{};  // inertial frame (centre of mass, principal axes) in the body frame
  Quat<S> iquat{};
  S mass{};
  Vec3<S> inertia{};  // principal moments
};

template <class S>
struct TreeJoint {
  JointType type = JointType::kHinge;
  int body = 0;
  int qpos_adr = 0, dof_adr = 0;
  Vec3<S> pos{};   // anchor in the body frame
  Vec3<S> axis{};  // unit axis in the body frame (hinge, slide)
  S stiffness{};
};

template <class S>
struct TreeModel {
  int nbody = 1;  // the world body, which has no joints and no mass
  int njnt = 0, nq = 0, nv = 0;
  TreeBody<S> body[kMaxTreeBodies];
  TreeJoint<S> joint[kMaxJoints];
  int dof_body[kMaxDofs] = {};
  int dof_joint[kMaxDofs] = {};
  int dof_parent[kMaxDofs] = {};  // the previous dof along the path to the world, -1 if none
  S armature[kMaxDofs] = {};
  S damping[kMaxDofs] = {};
  S qpos0[kMaxQpos] = {};        // the configuration where hinge and slide coordinates are zero
  S qpos_spring[kMaxQpos] = {};  // the joint springs' rest configuration
  Vec3<S> gravity{S(0.0), S(0.0), S(-9.81)};
  S density{}, viscosity{};  // the medium's, for fluid forces (fluid.hpp); 0: none
  Vec3<S> wind{};
};

// Appends a body under `parent` (an existing body); returns its index, or -1 when full or the parent is
// unknown. Its joints must be added before the next body (MuJoCo's contiguous layout).
template <class S>
int tree_add_body(TreeModel<S>& m, int parent, const Vec3<S>& pos, const Quat<S>& quat) {
  if (m.nbody >= kMaxTreeBodies || parent < 0 || parent >= m.nbody) return -1;
  TreeBody<S>& b = m.body[m.nbody];
  b = TreeBody<S>{};
  b.parent = parent;
  b.root = parent == 0 ? m.nbody : m.body[parent].root;
  b.pos = pos;
  b.quat = quat;
  b.jnt_adr = m.njnt;
  b.dof_adr = m.nv;
  return m.nbody++;
}

// The dof that precedes body b's first dof on the way to the world: the last dof of the nearest ancestor
// that has any.
template <class S>
int tree_parent_dof(const TreeModel<S>& m, int b) {
  for (int p = m.body[b].parent; p > 0; p = m.body[p].parent)
    if (m.body[p].dof_num > 0) return m.body[p].dof_adr + m.body[p].dof_num - 1;
  return -1;
}

// Appends a joint to the last body added; returns its index, or -1 when full or the body is not the last.
// qpos0 and qpos_spring start at the body's rest pose (zero, the identity quaternion, or for a free joint
// the body's own pos and quat, as MuJoCo's compiler sets them).
template <class S>
int tree_add_joint(TreeModel<S>& m, int body, JointType type, const Vec3<S>& pos, const Vec3<S>& axis) {
  const int nq = joint_qpos_count(type), nv = joint_dof_count(type);
  if (body != m.nbody - 1 || body == 0 || m.njnt >= kMaxJoints || m.nq + nq > kMaxQpos ||
      m.nv + nv > kMaxDofs)
    return -1;
  TreeJoint<S>& j = m.joint[m.njnt];
  j = TreeJoint<S>{};
  j.type = type;
  j.body = body;
  j.qpos_adr = m.nq;
  j.dof_adr = m.nv;
  j.pos = pos;
  j.axis = axis;
  TreeBody<S>& b = m.body[body];
  for (int k = 0; k < nv; ++k) {
    const int d = m.nv + k;
    m.dof_body[d] = body;
    m.dof_joint[d] = m.njnt;
    m.dof_parent[d] = (b.dof_num + k > 0) ? d - 1 : tree_parent_dof(m, body);
    m.armature[d] = 0.0;
    m.damping[d] = 0.0;
  }
  S* rest = m.qpos0 + m.nq;
  for (int k = 0; k < nq; ++k) rest[k] = 0.0;
  if (type == JointType::kFree) {
    rest[0] = b.pos.x, rest[1] = b.pos.y, rest[2] = b.pos.z;
    rest[3] = b.quat.w, rest[4] = b.quat.x, rest[5] = b.quat.y, rest[6] = b.quat.z;
  } else if (type == JointType::kBall) {
    rest[0] = 1.0;
  }
  for (int k = 0; k < nq; ++k) m.qpos_spring[m.nq + k] = rest[k];
  b.jnt_num++;
  b.dof_num += nv;
  m.nq += nq;
  m.nv += nv;
  return m.njnt++;
}

// The quaternion stored at q (qpos layout: w, x, y, z).
template <class S>
SG_INLINE Quat<S> quat_from(const S* q) {
  return {q[0], q[1], q[2], q[3]};
}

// The same tree over another scalar (a double model lifted to duals, to seed a parameter's tangent).
template <class T, class S>
void tree_convert(const TreeModel<S>& in, TreeModel<T>& out) {
  out.nbody = in.nbody, out.njnt = in.njnt, out.nq = in.nq, out.nv = in.nv;
  for (int i = 0; i < in.nbody; ++i) {
    const TreeBody<S>& a = in.body[i];
    TreeBody<T>& b = out.body[i];
    b.parent = a.parent, b.root = a.root;
    b.jnt_adr = a.jnt_adr, b.jnt_num = a.jnt_num, b.dof_adr = a.dof_adr, b.dof_num = a.dof_num;
    b.pos = Vec3<T>(a.pos), b.quat = Quat<T>(a.quat), b.ipos = Vec3<T>(a.ipos), b.iquat = Quat<T>(a.iquat);
    b.mass = T(a.mass), b.inertia = Vec3<T>(a.inertia);
  }
  for (int i = 0; i < in.njnt; ++i) {
    const TreeJoint<S>& a = in.joint[i];
    TreeJoint<T>& b = out.joint[i];
    b.type = a.type, b.body = a.body, b.qpos_adr = a.qpos_adr, b.dof_adr = a.dof_adr;
    b.pos = Vec3<T>(a.pos), b.axis = Vec3<T>(a.axis), b.stiffness = T(a.stiffness);
  }
  for (int i = 0; i < in.nv; ++i) {
    out.dof_body[i] = in.dof_body[i], out.dof_joint[i] = in.dof_joint[i],
    out.dof_parent[i] = in.dof_parent[i];
    out.armature[i] = T(in.armature[i]), out.damping[i] = T(in.damping[i]);
  }
  for (int i = 0; i < in.nq; ++i) out.qpos0[i] = T(in.qpos0[i]), out.qpos_spring[i] = T(in.qpos_spring[i]);
  out.gravity = Vec3<T>(in.gravity);
  out.density = T(in.density), out.viscosity = T(in.viscosity), out.wind = Vec3<T>(in.wind);
}

}  // namespace sg
