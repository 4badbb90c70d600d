#pragma once
// mj_Euler's implicit damping (MuJoCo 2.2.2 engine_forward.c): with dof damping the velocity update uses
// qacc <- (qM + h diag(damping))^-1 qM qacc, with qM and qacc from the last forward pass. The matrix's values
// are factorised (into qLD) and derivatives come from implicit differentiation (implicit_solve.hpp).
#include "engine/articulated/implicit_solve.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/fused_sums.hpp"

namespace sg {

template <class S>
bool tree_has_damping(const TreeModel<S>& m) {
  for (int i = 0; i < m.nv; ++i)
    if (value(m.damping[i]) > 0.0) return true;
  return false;
}

// True when done or nothing to do (no damping); false, qacc untouched, if qM + h D is not positive definite.
template <class S, class H>
bool tree_damp_implicitly(const TreeModel<S>& m, TreeData<S>& d, const H& h) {
  const int nv = m.nv;
  if (!tree_has_damping(m)) return true;
  S rhs[kMaxDofs];
  for (int i = 0; i < nv; ++i) {
    const int lo = d.qM_lo[i];  // the row's zeros outside its span add nothing
    rhs[i] = dot_strided(d.qM + i * nv + lo, 1, d.qacc + lo, 1, d.qM_hi[i] - lo);
  }
  return spd_solve_implicit(d.qM, d.qM_lo, d.qM_hi, m.damping, h, nv, rhs, d.qLD, d.qLD_envelope, d.qacc);
}

}  // namespace sg
