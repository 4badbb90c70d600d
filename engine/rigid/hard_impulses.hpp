#pragma once
// Hard contact for rigid bodies (analytic-smoothing paper, engine-notes section 6) at the Moreau midpoint:
// one 3-row block per contact (normal, two tangents) of the Delassus matrix G = J M^-1 J', the free velocity
// c = J v_free, Gauss-Seidel with the sigmoid weights and the friction-cone prox, then v += M^-1 J' p.
#include "engine/contact/gauss_seidel.hpp"
#include "engine/rigid/soft_rows.hpp"

namespace sg {

inline constexpr int kMaxHardContacts = 16;

template <class S>
struct HardScratch {
  GaussSeidelProblem<S, kMaxHardContacts> problem;
  ConstraintRow<S> rows[3 * kMaxHardContacts];
  S impulse[3 * kMaxHardContacts];
  ContactRecord<S> records[kMaxRigidContacts];
};

namespace hard_detail {

// (J M^-1 J')_rq over the bodies the two rows share.
template <class S>
SG_HD inline S delassus_entry(const ConstraintRow<S>& r, const ConstraintRow<S>& q,
                              const InverseMass<S>* inv_mass) {
  S g = 0.0;
  auto add = [&](int body, const RowJacobian<S>& a, const RowJacobian<S>& b) {
    const InverseMass<S>& im = inv_mass[body];
    g += im.inv_mass * dot(a.lin, b.lin) + a.ang.x * b.ang.x * im.inv_inertia.x +
         a.ang.y * b.ang.y * im.inv_inertia.y + a.ang.z * b.ang.z * im.inv_inertia.z;
  };
  if (r.body_a >= 0 && r.body_a == q.body_a) add(r.body_a, r.ja, q.ja);
  if (r.body_a >= 0 && r.body_a == q.body_b) add(r.body_a, r.ja, q.jb);
  if (r.body_b >= 0 && r.body_b == q.body_a) add(r.body_b, r.jb, q.ja);
  if (r.body_b >= 0 && r.body_b == q.body_b) add(r.body_b, r.jb, q.jb);
  return g;
}

}  // namespace hard_detail

// states: at the midpoint; vel: the velocities after the step's forces, replaced by those after the impulses.
// False when more contacts than the capacity touch (dropping some would leave bodies interpenetrating): the
// caller makes the step non-finite, as the trees' tree_hard_impulses does.
template <class S>
SG_HD bool apply_hard_impulses(const RigidModel<S>& m, const PairTable<S>& pairs, const BodyState<S>* states,
                               const InverseMass<S>* inv_mass, BodyVelocity<S>* vel, HardScratch<S>& hs) {
  using namespace hard_detail;
  // Smoothed contact acts on separated pairs too: look a few sigmoid widths beyond contact.
  const double kappa = value(m.hard.kappa);
  const double band = kappa < kInf ? 10.0 / kappa : 0.0;
  hs.problem.nc = 0;  // until the impulses are solved: hard_normal_impulse reads none
  const int nc = collect_contacts(m, pairs, states, band, hs.records);
  if (nc > kMaxHardContacts) return false;
  if (nc == 0) return true;
  hs.problem.nc = nc;
  for (int j = 0; j < nc; ++j) {
    const ContactRecord<S>& rec = hs.records[j];
    for (int a = 0; a < 3; ++a) hs.rows[3 * j + a] = row_along(states, rec, rec.contact.frame[a]);
    hs.problem.depth[j] = rec.params().margin - rec.contact.dist;
    hs.problem.mu[j] = rec.params().friction;
  }
  for (int r = 0; r < 3 * nc; ++r) {
    hs.problem.c[r] = row_times_bodies(hs.rows[r], vel);
    for (int q = 0; q < 3 * nc; ++q) hs.problem.G[r][q] = delassus_entry(hs.rows[r], hs.rows[q], inv_mass);
  }
  solve_gauss_seidel(hs.problem, m.hard.kappa, m.hard.iterations, hs.impulse);
  for (int r = 0; r < 3 * nc; ++r) {
    const ConstraintRow<S>& row = hs.rows[r];
    if (row.body_a >= 0) apply_row_force(row.ja, inv_mass[row.body_a], hs.impulse[r], vel[row.body_a]);
    if (row.body_b >= 0) apply_row_force(row.jb, inv_mass[row.body_b], hs.impulse[r], vel[row.body_b]);
  }
  return true;
}

// The normal impulse that the contacts of the last apply_hard_impulses call gave body `body`: for the
// trajectory's contact-force plot.
template <class S>
SG_HD S hard_normal_impulse(const HardScratch<S>& hs, int body) {
  S total = S(0.0);
  for (int j = 0; j < hs.problem.nc; ++j)
    if (hs.records[j].body_a == body || hs.records[j].body_b == body) total += hs.impulse[3 * j];
  return total;
}

}  // namespace sg
