#pragma once
// Hard contact on joint trees (contact.model "hard": the analytic-smoothing paper's Moreau time stepping,
// engine-notes section 6), the counterpart of the free bodies' engine/rigid/hard_impulses.hpp over the dofs:
// at the Moreau midpoint, one 3-row block per contact (the contact frame's normal and tangents, relative
// motion of geom2's body against geom1's) of the Delassus matrix G = J M^-1 J', the free velocity c = J v
// (v after the step's smooth forces), Gauss-Seidel with the sigmoid weights and the friction-cone prox
// (engine/contact/gauss_seidel.hpp), then v += M^-1 J' p. With dof damping M is qM + h D, the velocity
// update's matrix (damping implicit as in mj_Euler).
#include <limits>

#include "engine/articulated/constraint_collision.hpp"
#include "engine/articulated/constraint_make.hpp"
#include "engine/articulated/implicit_damping.hpp"
#include "engine/articulated/implicit_solve.hpp"
#include "engine/contact/gauss_seidel.hpp"

namespace sg {

inline constexpr int kMaxTreeHardContacts = 16;  // as the free bodies' (Gauss-Seidel's dense G)

template <class S>
struct TreeHardScratch {
  GaussSeidelProblem<S, kMaxTreeHardContacts> problem;
  S jac[3 * kMaxTreeHardContacts][kMaxDofs];      // J: each contact's frame rows over the dofs
  S minv_jt[3 * kMaxTreeHardContacts][kMaxDofs];  // M^-1 J'
  S impulse[3 * kMaxTreeHardContacts];
  int order[kMaxTreeContacts];
};

namespace tree_hard_detail {

// The free bodies' order of contacts (engine/rigid/contact_gather.hpp: per body, its contacts with the
// plane, then with each later body): by the pair's first moving body, then the other (the world first).
// Gauss-Seidel depends on the order, so a free-body scene run as a tree keeps its numbers.
template <class S>
int contact_rank(const TreeConstraintModel<S>& cm, const TreeContact<S>& c, int key) {
  const int a = cm.geom[c.geom1].body, b = cm.geom[c.geom2].body;
  const int lo = a == 0 ? b : (b == 0 ? a : (a < b ? a : b));
  const int other = a == 0 || b == 0 ? 0 : (a < b ? b : a);
  return key == 0 ? lo : other;
}

template <class S>
void order_contacts(const TreeConstraintModel<S>& cm, const TreeConstraintData<S>& cd, int* order) {
  for (int i = 0; i < cd.ncon; ++i) order[i] = i;
  // Insertion sort, stable: a pair's own contacts keep the collider's order.
  for (int i = 1; i < cd.ncon; ++i) {
    const int x = order[i];
    const TreeContact<S>& cx = cd.contact[x];
    int j = i;
    while (j > 0) {
      const TreeContact<S>& cy = cd.contact[order[j - 1]];
      const int lx = contact_rank(cm, cx, 0), ly = contact_rank(cm, cy, 0);
      if (ly < lx || (ly == lx && contact_rank(cm, cy, 1) <= contact_rank(cm, cx, 1))) break;
      order[j] = order[j - 1];
      --j;
    }
    order[j] = x;
  }
}

// a . b over n entries, skipping exact zeros (rows of bodies that share no dof with the other's).
template <class S>
S sparse_dot(const S* a, const S* b, int n) {
  S s = S(0.0);
  for (int i = 0; i < n; ++i)
    if (!is_zero(a[i]) && !is_zero(b[i])) s += a[i] * b[i];
  return s;
}

}  // namespace tree_hard_detail

// The contacts at the midpoint state in d (kinematics current, qLD the factor of qM, or of qM + h D when the
// dofs are damped: tree_forward_constrained, then tree_damp_implicitly), applied to the velocities v (after
// the smooth forces) as impulses. Contacts are collected out to 10 / kappa beyond their margin (the smoothed
// contact acts before touching). False when more contacts than the capacity touch (the dropped ones would
// leave bodies interpenetrating): the caller makes the step non-finite.
template <class S, class H>
bool tree_hard_impulses(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                        TreeConstraintData<S>& cd, const H& h, S* v, TreeHardScratch<S>& hs) {
  using namespace tree_hard_detail;
  const double kappa = value(cm.hard_kappa);
  hs.problem.nc = 0;  // until the impulses are solved: tree_hard_normal_impulse reads none
  tree_collide_geoms(m, cm, d, cd, kappa < kInf ? 10.0 / kappa : 0.0);
  const int nc = cd.ncon, nv = m.nv;
  if (cd.overflow || nc > kMaxTreeHardContacts) return false;
  if (nc == 0) return true;
  order_contacts(cm, cd, hs.order);
  for (int j = 0; j < nc; ++j) {
    const TreeContact<S>& c = cd.contact[hs.order[j]];
    S rows[3 * kMaxDofs];
    tree_contact_frame_rows(m, cm, d, c, 3, rows);
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < nv; ++i) hs.jac[3 * j + a][i] = rows[a * nv + i];
    hs.problem.depth[j] = c.includemargin - c.dist;
    hs.problem.mu[j] = c.friction[0];
  }
  hs.problem.nc = nc;
  const S* damping = tree_has_damping(m) ? m.damping : nullptr;
  for (int r = 0; r < 3 * nc; ++r)
    spd_solve_factored(d.qM, d.qM_lo, d.qM_hi, damping, h, nv, hs.jac[r], d.qLD, d.qLD_envelope,
                       hs.minv_jt[r]);
  for (int r = 0; r < 3 * nc; ++r) {
    hs.problem.c[r] = sparse_dot(hs.jac[r], v, nv);
    for (int q = 0; q < 3 * nc; ++q) hs.problem.G[r][q] = sparse_dot(hs.jac[r], hs.minv_jt[q], nv);
  }
  solve_gauss_seidel(hs.problem, cm.hard_kappa, cm.opt.hard_iterations, hs.impulse);
  for (int r = 0; r < 3 * nc; ++r)
    for (int i = 0; i < nv; ++i)
      if (!is_zero(hs.minv_jt[r][i])) v[i] += hs.minv_jt[r][i] * hs.impulse[r];
  return true;
}

// The normal impulse that the contacts of the last tree_hard_impulses call (cd and hs as it left them) gave
// body `body`, the world's included: for the trajectory's contact-force plot.
template <class S>
S tree_hard_normal_impulse(const TreeConstraintModel<S>& cm, const TreeConstraintData<S>& cd,
                           const TreeHardScratch<S>& hs, int body) {
  S total = S(0.0);
  for (int j = 0; j < hs.problem.nc; ++j) {
    const TreeContact<S>& c = cd.contact[hs.order[j]];
    if (cm.geom[c.geom1].body == body || cm.geom[c.geom2].body == body) total += hs.impulse[3 * j];
  }
  return total;
}

}  // namespace sg
