#pragma once
// The inverse weights MuJoCo 2.2.2's compiler computes at qpos0 (mj_setConst, engine_setconst.c set0):
// body_invweight0 = the mean translational and rotational diagonal of J M^-1 J' for the Jacobian at the
// body's centre of mass, dof_invweight0 = the diagonal of M^-1 (averaged over a ball's 3 or a free joint's
// 3 + 3 dofs). The constraint rows' diagonal approximation (constraint_make.hpp) starts from them, so a
// scene must get them from its model, not from MuJoCo. Runs once when a model is built, never in a step.
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/forward_smooth.hpp"
#include "engine/articulated/implicit_solve.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/articulated/tendon.hpp"

namespace sg {

// row' M^-1 row, with d.qLD the Cholesky factor of M's values.
template <class S>
S tree_inverse_quadratic(const TreeData<S>& d, int nv, const S* row) {
  S x[kMaxDofs];
  for (int i = 0; i < nv; ++i) x[i] = row[i];
  cholesky_solve_mixed(d.qLD, nv, d.qLD_envelope, x);
  S sum = S(0.0);
  for (int i = 0; i < nv; ++i) sum += row[i] * x[i];
  return sum;
}

// body_invweight0 of body b: the 6 x nv Jacobian at its centre of mass, rows 0-2 translation, 3-5 rotation.
template <class S>
void tree_body_invweight0(const TreeModel<S>& m, const TreeData<S>& d, int b, S out[2]) {
  const int nv = m.nv;
  S jac[6 * kMaxDofs];
  tree_jac(m, d, d.xipos[b], b, jac, jac + 3 * nv);
  for (int k = 0; k < 2; ++k) {
    S sum = S(0.0);
    for (int r = 0; r < 3; ++r) sum += tree_inverse_quadratic(d, nv, jac + (3 * k + r) * nv);
    out[k] = sum / S(3.0);
  }
}

// The mean of (M^-1)_ii over dofs [first, first + count).
template <class S>
S tree_mean_inverse_diagonal(const TreeData<S>& d, int nv, int first, int count) {
  S sum = S(0.0);
  for (int i = first; i < first + count; ++i) {
    S e[kMaxDofs] = {};
    e[i] = S(1.0);
    sum += tree_inverse_quadratic(d, nv, e);
  }
  return sum / S(count);
}

// dof_invweight0 of joint j: a free joint's translational and rotational dofs are averaged separately.
template <class S>
void tree_joint_invweight0(const TreeModel<S>& m, const TreeData<S>& d, int j, S* dof_invweight0) {
  const int adr = m.joint[j].dof_adr;
  const int n = joint_dof_count(m.joint[j].type);
  const int group = n == 6 ? 3 : n;
  for (int g = 0; g < n; g += group) {
    const S mean = tree_mean_inverse_diagonal(d, m.nv, adr + g, group);
    for (int i = 0; i < group; ++i) dof_invweight0[adr + g + i] = mean;
  }
}

// Fills cm.body_invweight0 and cm.dof_invweight0 from m at qpos0; d is scratch. False if M is not
// positive definite there (a massless dof without armature).
template <class S>
bool tree_inverse_weights(const TreeModel<S>& m, TreeConstraintModel<S>& cm, TreeData<S>& d) {
  tree_reset(m, d);
  tree_fwd_position(m, d);
  const int nv = m.nv;
  for (int k = 0; k < nv * nv; ++k) d.qLD[k] = value(d.qM[k]);
  if (nv > 0 && !envelope_factor(d.qLD, nv, d.qLD_envelope)) return false;
  cm.body_invweight0[0][0] = cm.body_invweight0[0][1] = S(0.0);
  for (int b = 1; b < m.nbody; ++b) tree_body_invweight0(m, d, b, cm.body_invweight0[b]);
  for (int j = 0; j < m.njnt; ++j) tree_joint_invweight0(m, d, j, cm.dof_invweight0);
  return true;
}

// mj_setConst's numbers of the equality rows, at qpos0 with d's position stage run there and d.qLD M's factor
// (tree_inverse_weights leaves both): a connect's anchor in body2's frame, every tendon's length0 and
// invweight0 = J M^-1 J' (tendon equalities' and limits' rows start from them); a weld's anchor in body1's
// frame and, unless given, its relpose. td: scratch.
template <class S>
void tree_constraint_setconst(const TreeModel<S>& m, const TreeTendonModel<S>& tm, TreeConstraintModel<S>& cm,
                              const TreeData<S>& d, TreeTendonData<S>& td) {
  for (int e = 0; e < cm.neq; ++e) {
    TreeEquality<S>& eq = cm.eq[e];
    if (eq.type == EqualityType::kConnect) {
      const Vec3<S> p = d.xpos[eq.obj1] + d.xmat[eq.obj1] * eq.anchor1 - d.xpos[eq.obj2];
      eq.anchor2 = mul_transpose(d.xmat[eq.obj2], p);
    } else if (eq.type == EqualityType::kWeld) {
      const Quat<S>& r = eq.relpose;
      if (value(r.w) != 0.0 || value(r.x) != 0.0 || value(r.y) != 0.0 || value(r.z) != 0.0) {
        eq.relpose = normalized(eq.relpose);  // given: anchor1 given with it, as MuJoCo's relpose
        continue;
      }
      const Vec3<S> p = d.xpos[eq.obj2] + d.xmat[eq.obj2] * eq.anchor2 - d.xpos[eq.obj1];
      eq.anchor1 = mul_transpose(d.xmat[eq.obj1], p);
      eq.relpose = conjugate(d.xquat[eq.obj1]) * d.xquat[eq.obj2];
    }
  }
  if (tm.ntendon == 0) return;
  tree_site_kinematics(tm, d, td);
  tree_tendon(m, tm, d, td);
  for (int t = 0; t < tm.ntendon; ++t) {
    cm.tendon_length0[t] = td.ten_length[t];
    cm.tendon_invweight0[t] = m.nv > 0 ? tree_inverse_quadratic(d, m.nv, td.ten_J + t * m.nv) : S(0.0);
  }
}

}  // namespace sg
