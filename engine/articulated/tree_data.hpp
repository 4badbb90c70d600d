#pragma once
// The state and every intermediate of the smooth articulated pipeline, named after mjData's fields so a
// reader can set the two side by side. Fixed capacity like TreeModel; matrices are dense nv x nv, row-major
// with leading dimension nv.
#include "engine/articulated/envelope_cholesky.hpp"
#include "engine/articulated/spatial.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

template <class S>
struct TreeData {
  // Inputs: the state and applied generalised forces.
  S qpos[kMaxQpos] = {};
  S qvel[kMaxDofs] = {};
  S qfrc_applied[kMaxDofs] = {};
  // xfrc_applied: a world-frame force and torque at each body's centre of mass (xfrc_any: whether any is
  // set, so that runs without them skip the accumulation).
  Vec3<S> xfrc_force[kMaxTreeBodies];
  Vec3<S> xfrc_torque[kMaxTreeBodies];
  bool xfrc_any = false;

  // mj_kinematics: body and inertial frames in the world, joint anchors and axes.
  Vec3<S> xpos[kMaxTreeBodies];
  Quat<S> xquat[kMaxTreeBodies];
  Mat3<S> xmat[kMaxTreeBodies];
  Vec3<S> xipos[kMaxTreeBodies];
  Mat3<S> ximat[kMaxTreeBodies];
  Vec3<S> xanchor[kMaxJoints];
  Vec3<S> xaxis[kMaxJoints];

  // mj_comPos: com-based inertias and dof motions.
  Vec3<S> subtree_com[kMaxTreeBodies];
  ComInertia<S> cinert[kMaxTreeBodies];
  Spatial<S> cdof[kMaxDofs];

  // mj_crb: composite inertias and the joint-space inertia matrix.
  ComInertia<S> crb[kMaxTreeBodies];
  S qM[kMaxDofs * kMaxDofs] = {};
  // qM's row i is zero outside dofs [qM_lo[i], qM_hi[i]): its kinematic tree's (tree_crb sets them).
  int qM_lo[kMaxDofs] = {}, qM_hi[kMaxDofs] = {};
  int qM_spans_nv = -1;  // the nv the spans were last set for (-1: never): qM's zeros outside them are kept

  // mj_comVel: body velocities and the dof motions' time derivatives.
  Spatial<S> cvel[kMaxTreeBodies];
  Spatial<S> cdof_dot[kMaxDofs];

  // mj_rne, mj_passive, mj_fwdAcceleration.
  S qfrc_bias[kMaxDofs] = {};
  S qfrc_passive[kMaxDofs] = {};
  S qfrc_smooth[kMaxDofs] = {};
  S qacc[kMaxDofs] = {};
  // The Cholesky factor of qM's values (in double for every scalar: derivatives come from implicit
  // differentiation, engine/articulated/implicit_solve.hpp).
  double qLD[kMaxDofs * kMaxDofs] = {};
  FactorEnvelope qLD_envelope;  // where qLD's nonzeros are (engine/articulated/envelope_cholesky.hpp)
};

// qpos at the model's rest configuration qpos0 and zero velocity.
template <class S>
void tree_reset(const TreeModel<S>& m, TreeData<S>& d) {
  for (int i = 0; i < m.nq; ++i) d.qpos[i] = m.qpos0[i];
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = 0.0, d.qfrc_applied[i] = 0.0;
  d.xfrc_any = false;
}

}  // namespace sg
