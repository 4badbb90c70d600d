#pragma once
// MuJoCo's soft-constraint rows of one rigid contact (engine-notes section 1): condim 1 gives the normal
// row, condim 3 four pyramid edge rows n +- mu t1, n +- mu t2, each with aref = -B (J v) - K d pos and a
// regulariser R; Contacts From Distance (section 2) changes the impedance and the position term.
#include "engine/contact/cfd.hpp"
#include "engine/contact/constraint_rows.hpp"
#include "engine/contact/mujoco_soft.hpp"
#include "engine/rigid/contact_gather.hpp"

namespace sg {

// The contact point's offsets from the two bodies' centres (zero on the world's side), shared by the rows of
// one contact.
template <class S>
struct ContactArms {
  Vec3<S> a, b;
};
template <class S>
SG_HD SG_INLINE_HOST ContactArms<S> contact_arms(const BodyState<S>* states, const ContactRecord<S>& rec) {
  ContactArms<S> arms{Vec3<S>(), Vec3<S>()};
  if (rec.body_a >= 0) arms.a = rec.contact.pos - states[rec.body_a].pos;
  if (rec.body_b >= 0) arms.b = rec.contact.pos - states[rec.body_b].pos;
  return arms;
}

// The Jacobian of the relative velocity along dir at the contact point (body b minus body a).
template <class S>
SG_HD SG_INLINE_HOST ConstraintRow<S> row_along(const BodyState<S>* states, const ContactRecord<S>& rec,
                                                const ContactArms<S>& arms, const Vec3<S>& dir) {
  ConstraintRow<S> row;
  row.body_a = rec.body_a;
  row.body_b = rec.body_b;
  row.ja = {Vec3<S>(), Vec3<S>()};
  row.jb = {Vec3<S>(), Vec3<S>()};
  if (rec.body_b >= 0) row.jb = point_jacobian(dir, arms.b, states[rec.body_b].rot);
  if (rec.body_a >= 0) {
    const RowJacobian<S> j = point_jacobian(dir, arms.a, states[rec.body_a].rot);
    row.ja = {-j.lin, -j.ang};
  }
  return row;
}
template <class S>
SG_HD SG_INLINE_HOST ConstraintRow<S> row_along(const BodyState<S>* states, const ContactRecord<S>& rec,
                                                const Vec3<S>& dir) {
  return row_along(states, rec, contact_arms(states, rec), dir);
}

// The row's relative velocity J v at the bodies' current velocities.
template <class S>
SG_HD SG_INLINE_HOST S row_velocity(const ConstraintRow<S>& row, const BodyState<S>* states) {
  S jv = 0.0;
  if (row.body_b >= 0)
    jv += dot(row.jb.lin, states[row.body_b].vel) + dot(row.jb.ang, states[row.body_b].angvel);
  if (row.body_a >= 0)
    jv += dot(row.ja.lin, states[row.body_a].vel) + dot(row.ja.ang, states[row.body_a].angvel);
  return jv;
}

// Writes the rows of one contact under `law`; returns how many (1 or 4). Rows whose bit in `live` is clear
// are computed for their values only (nothing on a tape): a frozen mode's inactive rows, which exert no force
// and whose values only the switching margins read.
template <class S>
SG_HD inline int soft_contact_rows(const RigidModel<S>& m, const BodyState<S>* states,
                                   const InverseMass<S>* inv_mass, const ContactRecord<S>& rec, RowLaw law,
                                   ConstraintRow<S>* rows, unsigned live = 0xFu) {
  const TapePause<S> all_values(live == 0u);
  const PairParams<S>& pp = rec.params();
  const S r = rec.contact.dist - pp.margin;
  const S d = law_impedance(law, pp.solimp, m.cfd, r);
  const MujocoSpring<S>& spring = rec.pair->spring;
  S inv_weight = 0.0;  // A_hat: the translational inverse weights of the two bodies
  if (rec.body_a >= 0) inv_weight += inv_mass[rec.body_a].inv_mass;
  if (rec.body_b >= 0) inv_weight += inv_mass[rec.body_b].inv_mass;
  S R_normal = (1.0 - d) / d * inv_weight;
  if (R_normal < 1e-15) R_normal = S(1e-15);
  const Vec3<S>* frame = rec.contact.frame;
  const S position_part = -spring.K * d * law_position(law, m.cfd, r);
  const ContactArms<S> arms = contact_arms(states, rec);
  const ConstraintRow<S> normal = row_along(states, rec, arms, frame[0]);
  if (pp.condim < 3) {
    rows[0] = normal;
    rows[0].aref = -spring.B * row_velocity(normal, states) + position_part;
    rows[0].R = R_normal;
    return 1;
  }
  // Pyramid edges n + mu t1, n - mu t1, n + mu t2, n - mu t2 (MuJoCo's order). The Jacobian is linear in the
  // direction: J(n +- mu t) = J(n) +- mu J(t), with mu J(t) formed once for both signs (x + (-mu) y and
  // x - mu y are the same number).
  const S mu = pp.friction;
  // MuJoCo's diagonal approximation of an edge row n +- mu t is A_hat (1 + mu^2) (mj_diagApprox), and all
  // edges share R_py = 2 mu^2 R / impratio (checked against MuJoCo 2.2.2: tests/mujoco).
  S R = 2.0 * mu * mu * (1.0 + mu * mu) * R_normal / m.impratio;
  if (R < 1e-15) R = S(1e-15);
  const S vn = row_velocity(normal, states);
  for (int t = 0; t < 2; ++t) {
    const TapePause<S> tangent_values(((live >> (2 * t)) & 3u) == 0u);
    const ConstraintRow<S> tangent = row_along(states, rec, arms, frame[1 + t]);
    const S mu_vt = row_velocity(tangent, states) * mu;
    // A side on the world (the plane) stays zero: no arithmetic on it.
    const RowJacobian<S> mu_ja = normal.body_a >= 0 ? tangent.ja * mu : tangent.ja;
    const RowJacobian<S> mu_jb = normal.body_b >= 0 ? tangent.jb * mu : tangent.jb;
    for (int sign = 0; sign < 2; ++sign) {
      const TapePause<S> row_values(((live >> (2 * t + sign)) & 1u) == 0u);
      ConstraintRow<S>& row = rows[2 * t + sign];
      row.body_a = normal.body_a;
      row.body_b = normal.body_b;
      row.ja = normal.body_a < 0 ? normal.ja : sign == 0 ? normal.ja + mu_ja : normal.ja - mu_ja;
      row.jb = normal.body_b < 0 ? normal.jb : sign == 0 ? normal.jb + mu_jb : normal.jb - mu_jb;
      row.aref = -spring.B * (sign == 0 ? vn + mu_vt : vn - mu_vt) + position_part;
      row.R = R;
    }
  }
  return 4;
}

}  // namespace sg
