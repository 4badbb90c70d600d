#pragma once
// mj_instantiateFriction (MuJoCo 2.2.2 engine_core_constraint.c) for a joint tree: after the equality rows, a
// row per dof whose frictionloss is > 0 (its Jacobian 1 on the dof), then per tendon (the tendon's Jacobian),
// at distance 0. A row's force is bounded by its frictionloss f: Newton's cost for it is quadratic while
// |J qacc - aref| < R f and linear beyond (MuJoCo's Huber-like friction cost; constraint_solve_cone.hpp).
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/tendon_data.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg {

// Whether a friction-loss row applies: a positive frictionloss (MuJoCo's test).
template <class S>
bool tree_friction_applies(const TreeFrictionLoss<S>& f) {
  return value(f.frictionloss) > 0.0;
}

// Calls f(type, id) for each friction-loss row in MuJoCo's order: the dofs (kFrictionDof, the dof), then the
// first ntendon tendons (kFrictionTendon, the tendon); stops when f returns false.
template <class S, class F>
void tree_for_each_friction(const TreeConstraintModel<S>& cm, int nv, int ntendon, F f) {
  if (!cm.opt.frictionloss) return;
  for (int v = 0; v < nv; ++v)
    if (tree_friction_applies(cm.dof_friction[v]) && !f(EfcType::kFrictionDof, v)) return;
  for (int t = 0; t < ntendon; ++t)
    if (tree_friction_applies(cm.tendon_friction[t]) && !f(EfcType::kFrictionTendon, t)) return;
}

// The friction rows (ten: the tendon stage's results when a tendon has friction loss).
template <class S>
void tree_instantiate_friction(const TreeModel<S>& m, const TreeConstraintModel<S>& cm,
                               const TreeTendonData<S>* ten, TreeConstraintData<S>& cd) {
  const S one = 1.0, zero = 0.0;
  tree_for_each_friction(cm, m.nv, ten ? kMaxTendons : 0, [&](EfcType type, int id) {
    const bool added = type == EfcType::kFrictionDof
                           ? tree_add_row(cd, &one, zero, zero, type, id, id, id + 1)
                           : tree_add_tendon_row(cd, m.nv, id, 1.0, ten->ten_J + id * m.nv, zero, zero, type);
    if (added)
      cd.efc_frictionloss[cd.nefc - 1] = type == EfcType::kFrictionDof ? cm.dof_friction[id].frictionloss
                                                                       : cm.tendon_friction[id].frictionloss;
    return added;
  });
}

}  // namespace sg
