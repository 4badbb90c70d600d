#pragma once
// mj_forward with actuators: the stages of forward_smooth.hpp and forward_constrained.hpp with MuJoCo
// 2.2.2's actuation calls in place (mj_transmission at the end of the position stage, actuator_velocity
// first in the velocity stage, mj_fwdActuation before mj_fwdAcceleration), and qfrc_actuator added to
// qfrc_smooth.
#include "engine/articulated/actuation.hpp"
#include "engine/articulated/forward_constrained.hpp"
#include "engine/articulated/forward_smooth.hpp"
#include "engine/articulated/tendon.hpp"

namespace sg {

// Every tendon and actuation quantity of ad from the state in d, the controls ad.ctrl and the activations
// ad.act; the position and velocity stages (tree_fwd_position, tree_fwd_velocity) must have run. MuJoCo's
// order within each stage: mj_tendon and mj_transmission from positions; ten_velocity, actuator_velocity
// and the tendon spring-dampers (added to qfrc_passive, as mj_passive does); mj_fwdActuation.
template <class S>
void tree_actuation(const TreeModel<S>& m, const TreeActuatorModel<S>& am, TreeData<S>& d,
                    TreeActuatorData<S>& ad) {
  if (tree_actuation_needs_sites(am)) tree_site_kinematics(am.ten, d, ad.ten);
  if (am.ten.ntendon > 0) tree_tendon(m, am.ten, d, ad.ten);
  tree_transmission(m, am, d, ad);
  if (am.ten.ntendon > 0) {
    tree_tendon_velocity(m, am.ten, d, ad.ten);
    tree_tendon_passive(m, am.ten, ad.ten, d.qfrc_passive);
  }
  tree_actuator_velocity(m, am, d, ad);
  tree_fwd_actuation(m, am, ad);
}

// The tendon stage at the positions in d (kinematics run), when the constraint rows need it (tendon
// equalities or limits: tree_constraints_need_tendons): its results, or null when no row needs them (the
// actuation stage computes them later).
template <class S>
const TreeTendonData<S>* tree_constraint_tendons(const TreeModel<S>& m, const TreeConstraintModel<S>& cm,
                                                 const TreeActuatorModel<S>& am, const TreeData<S>& d,
                                                 TreeActuatorData<S>& ad) {
  if (!tree_constraints_need_tendons(cm, am.ten.ntendon)) return nullptr;
  tree_site_kinematics(am.ten, d, ad.ten);
  tree_tendon(m, am.ten, d, ad.ten);
  return &ad.ten;
}

// tree_forward with actuators: qacc = qM^-1 (qfrc_passive - qfrc_bias + qfrc_applied + qfrc_actuator).
template <class S>
bool tree_forward(const TreeModel<S>& m, const TreeActuatorModel<S>& am, TreeData<S>& d,
                  TreeActuatorData<S>& ad) {
  tree_fwd_position(m, d);
  tree_fwd_velocity(m, d);
  tree_actuation(m, am, d, ad);
  return tree_fwd_acceleration(m, d, ad.qfrc_actuator);
}

// tree_forward_constrained with actuators (the actuation stages read nothing the constraint stages write).
template <class S>
TreeForwardStatus tree_forward_constrained(const TreeModel<S>& m, const TreeConstraintModel<S>& cm,
                                           const TreeActuatorModel<S>& am, TreeData<S>& d,
                                           TreeConstraintData<S>& cd, TreeActuatorData<S>& ad,
                                           TreeNewtonWorkspace& ws, bool cfd = false, int slot = 0) {
  tree_fwd_position(m, d);
  tree_geom_kinematics(cm, d, cd);
  tree_collide(m, cm, d, cd, cfd);
  const TreeTendonData<S>* ten = tree_constraint_tendons(m, cm, am, d, ad);
  if (!tree_make_constraint(m, cm, d, cd, ten)) return TreeForwardStatus::kUnsupportedCondim;
  tree_fwd_velocity(m, d);
  tree_reference_constraint(m, cm, d, cd);
  tree_actuation(m, am, d, ad);
  if (!tree_fwd_acceleration(m, d, ad.qfrc_actuator)) return TreeForwardStatus::kSingularMass;
  for (int i = 0; i < m.nv; ++i) cd.qacc_smooth[i] = d.qacc[i];
  if (!tree_solve_constraints(m, cm, d, cd, ws, slot)) return TreeForwardStatus::kSolverFailed;
  return TreeForwardStatus::kOk;
}

}  // namespace sg
