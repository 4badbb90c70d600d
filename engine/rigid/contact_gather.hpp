#pragma once
// The contacts of a rigid-body state: every body against the plane and, where the pair is supported, against
// each other, with the pair's combined surface parameters (MuJoCo's rule for equal solmix).
#include "engine/collision/collide.hpp"
#include "engine/contact/constraint_rows.hpp"
#include "engine/model/rigid_model.hpp"
#include "engine/rigid/body_state.hpp"

namespace sg {

inline constexpr int kMaxRigidContacts = 64;

template <class S>
struct ContactRecord {
  int body_a, body_b;  // body_a = -1 for the plane
  Contact<S> contact;
  PairParams<S> params;
};

// Averaged solref and solimp, the larger friction, condim and margin.
template <class S>
SG_HD inline PairParams<S> combine_surfaces(const Surface<S>& a, const Surface<S>& b) {
  PairParams<S> p;
  p.friction = max(a.friction, b.friction);
  for (int k = 0; k < 2; ++k) p.solref[k] = 0.5 * (a.solref[k] + b.solref[k]);
  for (int k = 0; k < 5; ++k) p.solimp[k] = 0.5 * (a.solimp[k] + b.solimp[k]);
  p.condim = a.condim > b.condim ? a.condim : b.condim;
  p.margin = a.margin > b.margin ? a.margin : b.margin;
  return p;
}

// Pairs closer than their margin plus `band` (the CFD width, a look-ahead); returns how many were written.
template <class S>
SG_HD inline int collect_contacts(const RigidModel<S>& m, const BodyState<S>* states, double band,
                                  ContactRecord<S>* out) {
  int n = 0;
  Contact<S> buf[kMaxContactsPerPair];
  auto add = [&](int a, int b, const PairParams<S>& params, int count) {
    for (int k = 0; k < count && n < kMaxRigidContacts; ++k) out[n++] = {a, b, buf[k], params};
  };
  for (int b = 0; b < m.count; ++b) {
    const BodyState<S>& st = states[b];
    const Pose<S> pose{st.pos, st.quat};
    const RigidBody<S>& body = m.bodies[b];
    if (m.plane_enabled) {
      const PairParams<S> params = combine_surfaces(m.plane, body.surface);
      const CollisionOptions opt{params.margin + band, m.softness, m.detector};
      const Pose<S> plane_pose{Vec3<S>(0.0, 0.0, m.plane_height), Quat<S>()};
      add(-1, b, params,
          collide(GeomType::plane, plane_pose, Vec3<S>(), body.shape, pose, body.size, opt, buf));
    }
    if (!m.collide_bodies) continue;
    for (int c = b + 1; c < m.count; ++c) {
      const RigidBody<S>& other = m.bodies[c];
      if (!pair_supported(body.shape, other.shape, m.detector)) continue;
      const BodyState<S>& so = states[c];
      const PairParams<S> params = combine_surfaces(body.surface, other.surface);
      const CollisionOptions opt{params.margin + band, m.softness, m.detector};
      add(b, c, params,
          collide(body.shape, pose, body.size, other.shape, Pose<S>{so.pos, so.quat}, other.size, opt, buf));
    }
  }
  return n;
}

}  // namespace sg
