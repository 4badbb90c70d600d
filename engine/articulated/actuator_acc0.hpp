#pragma once
// MuJoCo 2.2.2's actuator_acc0 (mj_setConst, engine_setconst.c): |qM^-1 moment| of each actuator at qpos0,
// the acceleration a unit force produces. A muscle whose force is negative takes scale / acc0 as its peak
// force, so a scene that does not give acc0 gets it here, once, when the model is built (never in a step).
#include "engine/articulated/actuation.hpp"
#include "engine/articulated/forward_smooth.hpp"
#include "engine/articulated/implicit_solve.hpp"
#include "engine/articulated/tendon.hpp"

namespace sg {

// acc0 of every actuator at qpos0 (values); d and ad are scratch. False if qM is singular there.
inline bool tree_actuator_acc0(const TreeModel<double>& m, const TreeActuatorModel<double>& am,
                               TreeData<double>& d, TreeActuatorData<double>& ad, double* acc0) {
  tree_reset(m, d);
  tree_fwd_position(m, d);
  if (tree_actuation_needs_sites(am)) tree_site_kinematics(am.ten, d, ad.ten);
  if (am.ten.ntendon > 0) tree_tendon(m, am.ten, d, ad.ten);
  tree_transmission(m, am, d, ad);
  const int nv = m.nv;
  for (int k = 0; k < nv * nv; ++k) d.qLD[k] = d.qM[k];
  if (nv > 0 && !envelope_factor(d.qLD, nv, d.qLD_envelope)) return false;
  for (int i = 0; i < am.nu; ++i) {
    double x[kMaxDofs];
    for (int k = 0; k < nv; ++k) x[k] = ad.actuator_moment[i * nv + k];
    cholesky_solve_mixed(d.qLD, nv, d.qLD_envelope, x);
    double sum = 0.0;
    for (int k = 0; k < nv; ++k) sum += x[k] * x[k];
    acc0[i] = std::sqrt(sum);
  }
  return true;
}

}  // namespace sg
