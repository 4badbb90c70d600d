#pragma once
// Velocity stage and bias forces (MuJoCo 2.2.2 mj_comVel, mj_rne with flg_acc = 0): the generalised force
// that holds qacc at zero against gravity, Coriolis and centrifugal effects. Gravity enters as an upward
// acceleration of the world, so the recursion needs no separate gravity term.
#include "engine/articulated/spatial.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg {

// Body i's velocity and its dofs' cdof_dot. A ball's (and a free joint's rotational) three cdof_dot all use
// the velocity before that joint's rotation, a hinge or slide the velocity before itself (MuJoCo's choice:
// cdof x cdof = 0, so only the multi-dof joints' order matters).
template <class S>
void tree_body_com_vel(const TreeModel<S>& m, TreeData<S>& d, int i) {
  const TreeBody<S>& b = m.body[i];
  Spatial<S> cvel = d.cvel[b.parent];
  for (int j = b.jnt_adr; j < b.jnt_adr + b.jnt_num; ++j) {
    const TreeJoint<S>& jn = m.joint[j];
    int a = jn.dof_adr;
    if (jn.type == JointType::kFree) {
      // Translations along fixed world axes: their motion does not change with the velocity.
      for (int k = 0; k < 3; ++k) d.cdof_dot[a + k] = Spatial<S>{};
      for (int k = 0; k < 3; ++k) cvel = cvel + d.cdof[a + k] * d.qvel[a + k];
      a += 3;
    }
    const int n = (jn.type == JointType::kFree || jn.type == JointType::kBall) ? 3 : 1;
    for (int k = 0; k < n; ++k) d.cdof_dot[a + k] = cross_motion(cvel, d.cdof[a + k]);
    for (int k = 0; k < n; ++k) cvel = cvel + d.cdof[a + k] * d.qvel[a + k];
  }
  d.cvel[i] = cvel;
}

// mj_comVel: cvel and cdof_dot, root to leaves.
template <class S>
void tree_com_vel(const TreeModel<S>& m, TreeData<S>& d) {
  d.cvel[0] = Spatial<S>{};
  for (int i = 1; i < m.nbody; ++i) tree_body_com_vel(m, d, i);
}

// mj_rne without the qacc term: each body's force for its velocity-product acceleration (and gravity),
// summed leaves to root, projected on the dofs.
template <class S>
void tree_rne_bias(const TreeModel<S>& m, TreeData<S>& d) {
  Spatial<S> cacc[kMaxTreeBodies];
  Spatial<S> cfrc[kMaxTreeBodies];
  cacc[0] = Spatial<S>{Vec3<S>{}, -m.gravity};
  cfrc[0] = Spatial<S>{};
  for (int i = 1; i < m.nbody; ++i) {
    const TreeBody<S>& b = m.body[i];
    Spatial<S> acc = cacc[b.parent];
    for (int k = b.dof_adr; k < b.dof_adr + b.dof_num; ++k) acc = acc + d.cdof_dot[k] * d.qvel[k];
    cacc[i] = acc;
    cfrc[i] = d.cinert[i] * acc + cross_force(d.cvel[i], d.cinert[i] * d.cvel[i]);
  }
  for (int i = m.nbody - 1; i > 0; --i)
    if (m.body[i].parent > 0) cfrc[m.body[i].parent] = cfrc[m.body[i].parent] + cfrc[i];
  for (int k = 0; k < m.nv; ++k) d.qfrc_bias[k] = dot(d.cdof[k], cfrc[m.dof_body[k]]);
}

}  // namespace sg
