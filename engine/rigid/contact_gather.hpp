#pragma once
// The contacts of a rigid-body state: every body against the plane and, where the pair is supported, against
// each other, with the pair's combined surface parameters (MuJoCo's rule for equal solmix).
#include "engine/collision/collide.hpp"
#include "engine/contact/constraint_rows.hpp"
#include "engine/contact/mujoco_soft.hpp"
#include "engine/model/rigid_model.hpp"
#include "engine/rigid/body_state.hpp"

namespace sg {

inline constexpr int kMaxRigidContacts = 64;

// A pair's combined surface parameters and the spring constants of its reference acceleration: fixed for a
// run, so computed once (per evaluation, the combination cost dual and tape scalars as much as a contact's
// rows), and shared by every contact of the pair.
template <class S>
struct PairData {
  PairParams<S> params;
  MujocoSpring<S> spring;
};

template <class S>
struct ContactRecord {
  int body_a, body_b;  // body_a = -1 for the plane
  Contact<S> contact;
  const PairData<S>* pair;
  SG_HD const PairParams<S>& params() const { return pair->params; }
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

// Every pair's PairData: the plane against each body, and each pair of bodies (b < c).
template <class S>
struct PairTable {
  PairData<S> plane[kMaxBodies];
  PairData<S> bodies[kMaxBodies * (kMaxBodies - 1) / 2];
  SG_HD static int index(int b, int c) { return b * (2 * kMaxBodies - b - 1) / 2 + (c - b - 1); }
  SG_HD const PairData<S>& between(int b, int c) const { return bodies[index(b, c)]; }
};

// timestep: refsafe's (the springs of MuJoCo's soft contact).
template <class S>
SG_HD inline void build_pair_table(const RigidModel<S>& m, double timestep, PairTable<S>& t) {
  auto fill = [&](PairData<S>& d, const Surface<S>& a, const Surface<S>& b) {
    d.params = combine_surfaces(a, b);
    d.spring = mujoco_spring(d.params.solref, d.params.solimp, m.refsafe, timestep);
  };
  for (int b = 0; b < m.count; ++b) {
    fill(t.plane[b], m.plane, m.bodies[b].surface);
    for (int c = b + 1; c < m.count; ++c)
      fill(t.bodies[t.index(b, c)], m.bodies[b].surface, m.bodies[c].surface);
  }
}

// A pair's detector options, reporting contacts within its margin plus `band`.
template <class S>
SG_HD inline CollisionOptions band_options(const RigidModel<S>& m, const PairData<S>& pair, double band) {
  CollisionOptions opt{pair.params.margin + band, m.softness, m.detector};
  opt.pair_margin = pair.params.margin;
  return opt;
}

// Pairs closer than their margin plus `band` (the CFD width, a look-ahead); returns how many were written.
template <class S>
SG_HD inline int collect_contacts(const RigidModel<S>& m, const PairTable<S>& pairs,
                                  const BodyState<S>* states, double band, ContactRecord<S>* out) {
  int n = 0;
  Contact<S> buf[kMaxContactsPerPair];
  auto add = [&](int a, int b, const PairData<S>& pair, int count) {
    for (int k = 0; k < count && n < kMaxRigidContacts; ++k) out[n++] = {a, b, buf[k], &pair};
  };
  for (int b = 0; b < m.count; ++b) {
    const BodyState<S>& st = states[b];
    const Pose<S> pose{st.pos, st.quat, &st.rot};
    const RigidBody<S>& body = m.bodies[b];
    if (m.plane_enabled) {
      const PairData<S>& pair = pairs.plane[b];
      const CollisionOptions opt = band_options(m, pair, band);
      const Pose<S> plane_pose{Vec3<S>(0.0, 0.0, m.plane_height), Quat<S>()};
      add(-1, b, pair,
          collide(GeomType::plane, plane_pose, Vec3<S>(), body.shape, pose, body.size, opt, buf));
    }
    if (!m.collide_bodies) continue;
    for (int c = b + 1; c < m.count; ++c) {
      const RigidBody<S>& other = m.bodies[c];
      if (!pair_supported(body.shape, other.shape, m.detector)) continue;
      const BodyState<S>& so = states[c];
      const PairData<S>& pair = pairs.between(b, c);
      const CollisionOptions opt = band_options(m, pair, band);
      add(b, c, pair,
          collide(body.shape, pose, body.size, other.shape, Pose<S>{so.pos, so.quat, &so.rot}, other.size,
                  opt, buf));
    }
  }
  return n;
}

}  // namespace sg
