#pragma once
// mj_instantiateEquality for a joint tree (MuJoCo 2.2.2 engine_core_constraint.c): the rows of connect, weld,
// joint and tendon equality constraints, first among the rows (MuJoCo's order), and the numbers MuJoCo's
// compiler gives them at qpos0 are set by tree_constraint_setconst (inverse_weights.hpp). Equality rows
// always act: the solvers keep rows 0 to ne - 1 in their active sets.
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/tendon_data.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg {

// Whether a constraint model has tendon equalities, or limits or friction loss on one of the model's
// ntendon tendons (the tendon stage must then run before the rows).
template <class S>
bool tree_constraints_need_tendons(const TreeConstraintModel<S>& cm, int ntendon) {
  for (int e = 0; e < cm.neq; ++e)
    if (cm.eq[e].type == EqualityType::kTendon) return true;
  for (int t = 0; t < ntendon; ++t)
    if (cm.tendon_limit[t].limited || value(cm.tendon_friction[t].frictionloss) > 0.0) return true;
  return false;
}

namespace tree_equality_detail {

// A body's point in the world: xpos + xmat local.
template <class S>
Vec3<S> world_point(const TreeData<S>& d, int body, const Vec3<S>& local) {
  return d.xpos[body] + d.xmat[body] * local;
}

// The anchors' difference p1 - p2 and its Jacobian J_p1 - J_p2 over both bodies' span of dofs (path) into
// span's first 3 rows; with rot given, the difference of the bodies' rotational Jacobians (3 x nv, over the
// span) too.
template <class S>
Vec3<S> anchor_rows(const TreeModel<S>& m, const TreeData<S>& d, const TreeEquality<S>& eq, TreeDofPath& path,
                    S (*span)[kMaxDofs], S* rot) {
  const int nv = m.nv;
  const Vec3<S> p1 = world_point(d, eq.obj1, eq.anchor1), p2 = world_point(d, eq.obj2, eq.anchor2);
  tree_dof_path(m, eq.obj1, eq.obj2, path);
  S j1[3 * kMaxDofs], j2[3 * kMaxDofs], r1[3 * kMaxDofs], r2[3 * kMaxDofs];
  tree_jac(m, d, p1, eq.obj1, j1, rot ? r1 : static_cast<S*>(nullptr), path.lo, path.hi);
  tree_jac(m, d, p2, eq.obj2, j2, rot ? r2 : static_cast<S*>(nullptr), path.lo, path.hi);
  for (int k = 0; k < 3; ++k)
    for (int i = path.lo; i < path.hi; ++i) {
      span[k][i - path.lo] = j1[k * nv + i] - j2[k * nv + i];
      if (rot) rot[k * nv + i] = r1[k * nv + i] - r2[k * nv + i];
    }
  return p1 - p2;
}

// connect: pos = p1 - p2 (3 rows), J = J_p1 - J_p2.
template <class S>
bool connect_rows(const TreeModel<S>& m, const TreeData<S>& d, const TreeEquality<S>& eq, int e,
                  TreeConstraintData<S>& cd) {
  TreeDofPath path;
  S span[3][kMaxDofs];
  const Vec3<S> pos = anchor_rows(m, d, eq, path, span, static_cast<S*>(nullptr));
  for (int k = 0; k < 3; ++k)
    if (!tree_add_row(cd, span[k], pos[k], S(0.0), EfcType::kEquality, e, path.lo, path.hi)) return false;
  return true;
}

// weld: 3 rows as connect's (body1's point minus body2's), then 3 of the relative rotation: the vector part
// of conj(q2) q1 relpose, with the Jacobian 1/2 conj(q2) (w1 - w2) q1 relpose per dof, times torquescale.
template <class S>
bool weld_rows(const TreeModel<S>& m, const TreeData<S>& d, const TreeEquality<S>& eq, int e,
               TreeConstraintData<S>& cd) {
  const int nv = m.nv;
  TreeDofPath path;
  S span[6][kMaxDofs], rot[3 * kMaxDofs];
  const Vec3<S> pos = anchor_rows(m, d, eq, path, span, rot);
  const Quat<S> q1rel = d.xquat[eq.obj1] * eq.relpose, q2inv = conjugate(d.xquat[eq.obj2]);
  const Quat<S> err = q2inv * q1rel;
  for (int i = path.lo; i < path.hi; ++i) {
    const Quat<S> w(S(0.0), rot[i], rot[nv + i], rot[2 * nv + i]);
    const Quat<S> dq = (q2inv * w) * q1rel;
    span[3][i - path.lo] = 0.5 * dq.x * eq.torquescale;
    span[4][i - path.lo] = 0.5 * dq.y * eq.torquescale;
    span[5][i - path.lo] = 0.5 * dq.z * eq.torquescale;
  }
  const S rows_pos[6] = {pos.x, pos.y, pos.z, err.x, err.y, err.z};
  for (int k = 0; k < 6; ++k)
    if (!tree_add_row(cd, span[k], rows_pos[k], S(0.0), EfcType::kEquality, e, path.lo, path.hi))
      return false;
  return true;
}

// The scalar and its Jacobian row (dense over nv) of a joint's coordinate or a tendon's length, and its
// value at qpos0.
template <class S>
void scalar_object(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                   const TreeTendonData<S>* ten, EqualityType type, int id, S& x, S& x0, S* row) {
  for (int i = 0; i < m.nv; ++i) row[i] = 0.0;
  if (type == EqualityType::kJoint) {
    const TreeJoint<S>& j = m.joint[id];
    x = d.qpos[j.qpos_adr], x0 = m.qpos0[j.qpos_adr];
    row[j.dof_adr] = 1.0;
    return;
  }
  x = ten->ten_length[id], x0 = cm.tendon_length0[id];
  for (int i = 0; i < m.nv; ++i) row[i] = ten->ten_J[id * m.nv + i];
}

// joint, tendon: pos = x1 - x1_0 - poly(x2 - x2_0), J = J1 - poly'(x2 - x2_0) J2 (1 row).
template <class S>
bool scalar_row(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                const TreeTendonData<S>* ten, const TreeEquality<S>& eq, int e, TreeConstraintData<S>& cd) {
  const int nv = m.nv;
  S x1, r1, j1[kMaxDofs];
  scalar_object(m, cm, d, ten, eq.type, eq.obj1, x1, r1, j1);
  S pos = x1 - r1 - eq.polycoef[0];
  if (eq.obj2 >= 0) {
    S x2, r2, j2[kMaxDofs];
    scalar_object(m, cm, d, ten, eq.type, eq.obj2, x2, r2, j2);
    const S dif = x2 - r2;
    pos = x1 - r1 - eq.polycoef[0] -
          (eq.polycoef[1] * dif + eq.polycoef[2] * dif * dif + eq.polycoef[3] * dif * dif * dif +
           eq.polycoef[4] * dif * dif * dif * dif);
    const S deriv = eq.polycoef[1] + 2.0 * eq.polycoef[2] * dif + 3.0 * eq.polycoef[3] * dif * dif +
                    4.0 * eq.polycoef[4] * dif * dif * dif;
    for (int i = 0; i < nv; ++i) j1[i] = j1[i] - deriv * j2[i];
  }
  return tree_add_row(cd, j1, pos, S(0.0), EfcType::kEquality, e, 0, nv);
}

}  // namespace tree_equality_detail

// The equality rows (cd.nefc must be 0); ten: the tendon stage's results at the current positions (needed
// when a tendon equality exists). Sets cd.ne.
template <class S>
void tree_instantiate_equality(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                               const TreeTendonData<S>* ten, TreeConstraintData<S>& cd) {
  cd.ne = 0;
  if (!cm.opt.equality || m.nv == 0) return;
  for (int e = 0; e < cm.neq; ++e) {
    const TreeEquality<S>& eq = cm.eq[e];
    const bool added = eq.type == EqualityType::kConnect ? tree_equality_detail::connect_rows(m, d, eq, e, cd)
                       : eq.type == EqualityType::kWeld
                           ? tree_equality_detail::weld_rows(m, d, eq, e, cd)
                           : tree_equality_detail::scalar_row(m, cm, d, ten, eq, e, cd);
    if (!added) break;
  }
  cd.ne = cd.nefc;
}

}  // namespace sg
