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

// A row of `scale` times a tendon's Jacobian (dense over nv, ten_J's row) over the span of its nonzeros.
template <class S>
bool tree_add_tendon_row(TreeConstraintData<S>& cd, int nv, int tendon, double scale, const S* ten_J,
                         const S& dist, const S& margin, EfcType type) {
  int lo = nv, hi = 0;
  for (int i = 0; i < nv; ++i)
    if (!is_zero(ten_J[i])) lo = i < lo ? i : lo, hi = i + 1;
  if (lo >= hi) lo = hi = 0;
  S span[kMaxDofs];
  for (int i = lo; i < hi; ++i) span[i - lo] = scale * ten_J[i];
  return tree_add_row(cd, span, dist, margin, type, tendon, lo, hi);
}

// Whether a friction-loss row applies: a positive frictionloss (MuJoCo's test).
template <class S>
bool tree_friction_applies(const TreeFrictionLoss<S>& f) {
  return value(f.frictionloss) > 0.0;
}

// The friction rows (ten: the tendon stage's results when a tendon has friction loss).
template <class S>
void tree_instantiate_friction(const TreeModel<S>& m, const TreeConstraintModel<S>& cm,
                               const TreeTendonData<S>* ten, TreeConstraintData<S>& cd) {
  if (!cm.opt.frictionloss) return;
  const S one = 1.0, zero = 0.0;
  for (int v = 0; v < m.nv; ++v) {
    if (!tree_friction_applies(cm.dof_friction[v])) continue;
    if (!tree_add_row(cd, &one, zero, zero, EfcType::kFrictionDof, v, v, v + 1)) return;
    cd.efc_frictionloss[cd.nefc - 1] = cm.dof_friction[v].frictionloss;
  }
  if (!ten) return;
  for (int t = 0; t < kMaxTendons; ++t) {
    if (!tree_friction_applies(cm.tendon_friction[t])) continue;
    if (!tree_add_tendon_row(cd, m.nv, t, 1.0, ten->ten_J + t * m.nv, zero, zero, EfcType::kFrictionTendon))
      return;
    cd.efc_frictionloss[cd.nefc - 1] = cm.tendon_friction[t].frictionloss;
  }
}

}  // namespace sg
