#pragma once
// mj_forward with contacts and joint limits, in MuJoCo's order: position stage (kinematics, geom frames,
// com frame, inertia, collision, constraint rows), velocity stage (bias and passive forces, aref),
// unconstrained qacc_smooth, then the constraint solve for qacc.
#include "engine/articulated/constraint_collision.hpp"
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_make.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/constraint_solve.hpp"
#include "engine/articulated/forward_smooth.hpp"
#include "engine/articulated/geom_kinematics.hpp"

namespace sg {

enum class TreeForwardStatus { kOk, kSingularMass, kUnsupportedCondim, kSolverFailed };

// ws is the solver's scratch (large: keep it off small stacks). cd.overflow tells whether contacts or rows
// beyond the capacities were dropped. cfd: Contacts From Distance's rows (cm.cfd) instead of MuJoCo's.
// slot: the solver's active-set guesses to use (ActiveSetGuesses).
template <class S>
TreeForwardStatus tree_forward_constrained(const TreeModel<S>& m, const TreeConstraintModel<S>& cm,
                                           TreeData<S>& d, TreeConstraintData<S>& cd, TreeNewtonWorkspace& ws,
                                           bool cfd = false, int slot = 0) {
  tree_fwd_position(m, d);
  tree_geom_kinematics(cm, d, cd);
  tree_collide(m, cm, d, cd, cfd);
  if (!tree_make_constraint(m, cm, d, cd)) return TreeForwardStatus::kUnsupportedCondim;
  tree_fwd_velocity(m, d);
  tree_reference_constraint(m, cm, d, cd);
  if (!tree_fwd_acceleration(m, d)) return TreeForwardStatus::kSingularMass;
  for (int i = 0; i < m.nv; ++i) cd.qacc_smooth[i] = d.qacc[i];
  if (!tree_solve_constraints(m, cm, d, cd, ws, slot)) return TreeForwardStatus::kSolverFailed;
  return TreeForwardStatus::kOk;
}

}  // namespace sg
