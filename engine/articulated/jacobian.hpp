#pragma once
// mj_jac (MuJoCo 2.2.2 engine_support.c): the translational and rotational Jacobians of a point moving with
// a body, over the nv dofs. Each dof on the body's path to the world contributes its com-based motion cdof:
// rotation w and the velocity v of the tree's centre of mass, so the point moves at v + w x (point - com).
#include "engine/articulated/spatial.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg {

// jacp, jacr: 3 x nv, row-major (row k at k * nv), either may be null. Dofs off the path stay zero. Only the
// columns [lo, hi) are written (the whole row when not given): a caller that knows the body's span of dofs
// (TreeDofPath) skips the zeros of the other trees' dofs.
template <class S>
void tree_jac(const TreeModel<S>& m, const TreeData<S>& d, const Vec3<S>& point, int body, S* jacp, S* jacr,
              int lo = 0, int hi = -1) {
  const int nv = m.nv;
  if (hi < 0) hi = nv;
  for (int k = 0; k < 3; ++k)
    for (int i = lo; i < hi; ++i) {
      if (jacp) jacp[k * nv + i] = 0.0;
      if (jacr) jacr[k * nv + i] = 0.0;
    }
  const Vec3<S> offset = point - d.subtree_com[m.body[body].root];
  // A jointless body moves with the nearest ancestor that has dofs.
  while (body > 0 && m.body[body].dof_num == 0) body = m.body[body].parent;
  if (body == 0) return;
  for (int i = m.body[body].dof_adr + m.body[body].dof_num - 1; i >= 0; i = m.dof_parent[i]) {
    const Spatial<S>& c = d.cdof[i];
    if (jacr)
      for (int k = 0; k < 3; ++k) jacr[k * nv + i] = c.rot[k];
    if (jacp) {
      const Vec3<S> v = c.tran + cross(c.rot, offset);
      for (int k = 0; k < 3; ++k) jacp[k * nv + i] = v[k];
    }
  }
}

// mj_applyFT: qfrc += J' (force, torque) for a world-frame force and torque at `point` on `body`, walking the
// body's dof path as tree_jac does (without forming J).
template <class S>
void tree_apply_ft(const TreeModel<S>& m, const TreeData<S>& d, const Vec3<S>& force, const Vec3<S>& torque,
                   const Vec3<S>& point, int body, S* qfrc) {
  const Vec3<S> offset = point - d.subtree_com[m.body[body].root];
  while (body > 0 && m.body[body].dof_num == 0) body = m.body[body].parent;
  if (body == 0) return;
  for (int i = m.body[body].dof_adr + m.body[body].dof_num - 1; i >= 0; i = m.dof_parent[i]) {
    const Spatial<S>& c = d.cdof[i];
    qfrc[i] += dot(c.tran + cross(c.rot, offset), force) + dot(c.rot, torque);
  }
}

// The world velocity of a point moving with body b, from the body's com-based velocity (mj_objectVelocity's
// shift): v = v_c + w x (point - subtree_com[root]). Needs com_pos and com_vel of the current state.
template <class S>
SG_HD Vec3<S> tree_point_velocity(const TreeModel<S>& m, const TreeData<S>& d, const Vec3<S>& point, int b) {
  const Spatial<S>& c = d.cvel[b];
  return c.tran + cross(c.rot, point - d.subtree_com[m.body[b].root]);
}

// mj_xfrcAccumulate: every body's xfrc_applied, at its centre of mass, into qfrc.
template <class S>
void tree_xfrc_accumulate(const TreeModel<S>& m, const TreeData<S>& d, S* qfrc) {
  if (!d.xfrc_any) return;
  for (int b = 1; b < m.nbody; ++b)
    tree_apply_ft(m, d, d.xfrc_force[b], d.xfrc_torque[b], d.xipos[b], b, qfrc);
}

// The dofs a Jacobian of points on bodies b1 and b2 can be nonzero on (tree_jac's path): moves[i] whether
// dof i is on the path from either body's dofs (those of the body it is welded to) to the world, and [lo, hi)
// from the lowest of them to the highest (the bodies' own last dofs); lo = hi = 0 when neither body moves.
// Free bodies run as trees give a contact's rows 6 or 12 dofs of the tree's nv, so the constraint rows' loops
// run over their spans.
struct TreeDofPath {
  int lo = 0, hi = 0;
  bool moves[kMaxDofs];
};

template <class S>
void tree_dof_path(const TreeModel<S>& m, int b1, int b2, TreeDofPath& path) {
  for (int i = 0; i < m.nv; ++i) path.moves[i] = false;
  path.lo = m.nv, path.hi = 0;
  for (int b : {b1, b2}) {
    while (b > 0 && m.body[b].dof_num == 0) b = m.body[b].parent;
    if (b == 0) continue;
    const int last = m.body[b].dof_adr + m.body[b].dof_num - 1;
    for (int i = last; i >= 0; i = m.dof_parent[i]) {
      path.moves[i] = true;
      path.lo = i < path.lo ? i : path.lo;
    }
    path.hi = last + 1 > path.hi ? last + 1 : path.hi;
  }
  if (path.lo >= path.hi) path.lo = path.hi = 0;
}

// mj_jacDifPair's dense case for one point: the translational Jacobian of the point on body b2 minus that
// of the same point on body b1 (the relative velocity at a contact, 3 x nv), and when jacdif_rot is given the
// rotational one (the relative angular velocity, 3 x nv: torsional and rolling friction). With a span
// [lo, hi) that holds both bodies' paths (TreeDofPath's), only its columns are written.
template <class S>
void tree_jac_dif(const TreeModel<S>& m, const TreeData<S>& d, const Vec3<S>& point, int b1, int b2,
                  S* jacdif, S* jacdif_rot = nullptr, int lo = 0, int hi = -1) {
  const int nv = m.nv;
  if (hi < 0) hi = nv;
  S j1[3 * kMaxDofs], r1[3 * kMaxDofs];
  tree_jac(m, d, point, b1, j1, jacdif_rot ? r1 : static_cast<S*>(nullptr), lo, hi);
  tree_jac(m, d, point, b2, jacdif, jacdif_rot, lo, hi);
  for (int k = 0; k < 3; ++k)
    for (int i = lo; i < hi; ++i) jacdif[k * nv + i] -= j1[k * nv + i];
  if (jacdif_rot)
    for (int k = 0; k < 3; ++k)
      for (int i = lo; i < hi; ++i) jacdif_rot[k * nv + i] -= r1[k * nv + i];
}

}  // namespace sg
