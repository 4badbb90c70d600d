#pragma once
// Free rigid bodies as a dynamical system for the integrators: Newton-Euler dynamics with MuJoCo-style soft
// frictional contact (pyramidal cone, Newton on the primal with a bounded iteration count), Contacts From
// Distance, and the rotation integrated exactly under Runge-Kutta (engine-notes section 3: a rotation vector
// phi accumulated within a step and folded into the quaternion after each accepted step).
#include "engine/collision/collide.hpp"
#include "engine/contact/gauss_seidel.hpp"
#include "engine/contact/mujoco_soft.hpp"
#include "engine/contact/newton_solver.hpp"
#include "engine/model/rigid_model.hpp"
#include "engine/rigid/inertia.hpp"
#include "engine/rigid/rotation.hpp"

namespace sg {

inline constexpr int kMaxRigidContacts = 64;
inline constexpr int kMaxRigidRows = 4 * kMaxRigidContacts;

// Where a body is and how it moves, decoded from the ODE state.
template <class S>
struct BodyState {
  Vec3<S> pos;
  Quat<S> quat;
  Mat3<S> rot;
  Vec3<S> vel, angvel;
};

template <class S>
class RigidSystem {
 public:
  using Scalar = S;
  static constexpr int kMaxDim = RigidModel<S>::kMaxDim;
  static constexpr int kStride = RigidModel<S>::kStride;
  static constexpr bool kFoldsState = true;  // phi is folded into the quaternion after each step

  RigidSystem(const RigidModel<S>* model, double timestep) : model_(model), timestep_(timestep) {
    for (int i = 0; i < model->count; ++i) inverse_mass_of(i);
  }

  SG_HD int dim() const { return model_->dim(); }
  SG_HD const RigidModel<S>& model() const { return *model_; }
  SG_HD S mass(int body) const { return mass_[body]; }
  SG_HD Vec3<S> inertia(int body) const { return inertia_[body]; }

  // Output step the solver is in: timed forces act during chosen output steps. Mutable on purpose: the
  // solvers hold the system const and tell it where they are.
  SG_HD void begin_interval(long i) const { interval_ = i; }

  SG_HD void initial_state(S* y) const {
    for (int b = 0; b < model_->count; ++b) {
      const RigidBody<S>& body = model_->bodies[b];
      S* s = y + kStride * b;
      const Quat<S> q = from_euler_xyz(body.euler_deg.x, body.euler_deg.y, body.euler_deg.z);
      const S init[kStride] = {body.pos.x, body.pos.y,    body.pos.z,    q.w,          q.x,        q.y,
                               q.z,        0.0,           0.0,           0.0,          body.vel.x, body.vel.y,
                               body.vel.z, body.angvel.x, body.angvel.y, body.angvel.z};
      for (int k = 0; k < kStride; ++k) s[k] = init[k];
    }
  }

  SG_HD BodyState<S> body_state(const S* y, int b) const {
    const S* s = y + kStride * b;
    BodyState<S> st;
    st.pos = {s[0], s[1], s[2]};
    st.quat = Quat<S>(s[3], s[4], s[5], s[6]) * quat_exp(Vec3<S>(s[7], s[8], s[9]));
    st.rot = to_mat3(st.quat);
    st.vel = {s[10], s[11], s[12]};
    st.angvel = {s[13], s[14], s[15]};
    return st;
  }

  // Accelerations of every body, with contact forces; straight-through CFD gives the values of the plain
  // model and the derivatives of the CFD model.
  SG_HD void accelerations(const S* y, BodyVelocity<S>* acc) const {
    const CfdParams<S>& cfd = model_->cfd;
    if (!cfd.enabled) return accelerations_with(y, false, acc);
    if (!cfd.straight_through) return accelerations_with(y, true, acc);
    accelerations_with(y, false, acc);
    if constexpr (is_dual_v<S>) {
      BodyVelocity<S> surrogate[kMaxBodies];
      accelerations_with(y, true, surrogate);
      for (int b = 0; b < model_->count; ++b)
        for (int k = 0; k < 3; ++k) {
          acc[b].lin[k] = straight_through(acc[b].lin[k], surrogate[b].lin[k]);
          acc[b].ang[k] = straight_through(acc[b].ang[k], surrogate[b].ang[k]);
        }
    }
  }

  // ODE right-hand side on [pos, quat, phi, v, w] per body.
  SG_HD void rhs(const S* y, S* ydot) const {
    BodyVelocity<S> acc[kMaxBodies];
    accelerations(y, acc);
    for (int b = 0; b < model_->count; ++b) {
      const S* s = y + kStride * b;
      S* d = ydot + kStride * b;
      const Vec3<S> phi_dot = dexp_inv(Vec3<S>(s[7], s[8], s[9]), Vec3<S>(s[13], s[14], s[15]));
      const S out[kStride] = {s[10],        s[11],        s[12],        0.0,
                              0.0,          0.0,          0.0,          phi_dot.x,
                              phi_dot.y,    phi_dot.z,    acc[b].lin.x, acc[b].lin.y,
                              acc[b].lin.z, acc[b].ang.x, acc[b].ang.y, acc[b].ang.z};
      for (int k = 0; k < kStride; ++k) d[k] = out[k];
    }
  }

  // After an accepted step: q0 <- normalise(q0 (x) exp(phi)), phi <- 0.
  SG_HD void after_accept(S* y) const {
    for (int b = 0; b < model_->count; ++b) {
      S* s = y + kStride * b;
      const Quat<S> q =
          normalized(integrate_rotation(Quat<S>(s[3], s[4], s[5], s[6]), Vec3<S>(s[7], s[8], s[9])));
      s[3] = q.w, s[4] = q.x, s[5] = q.y, s[6] = q.z;
      s[7] = s[8] = s[9] = S(0.0);
    }
  }

  // The derivative at a just-folded state, from the one before folding: the physics is unchanged, only
  // phi' = dexp^-1(0, w) = w.
  SG_HD void after_accept_derivative(const S* y, S* ydot) const {
    for (int b = 0; b < model_->count; ++b)
      for (int k = 0; k < 3; ++k) ydot[kStride * b + 7 + k] = y[kStride * b + 13 + k];
  }

  // MuJoCo's semi-implicit Euler: velocities first, then positions with the new velocities; the
  // orientation rotates by exp(h w) in the body frame.
  template <class H>
  SG_HD void step_euler(S* y, const H& h) const {
    BodyVelocity<S> acc[kMaxBodies];
    accelerations(y, acc);
    for (int b = 0; b < model_->count; ++b) {
      S* s = y + kStride * b;
      for (int k = 0; k < 3; ++k) {
        s[10 + k] += h * acc[b].lin[k];
        s[13 + k] += h * acc[b].ang[k];
        s[k] += h * s[10 + k];
      }
      const Vec3<S> turn(h * s[13], h * s[14], h * s[15]);
      const Quat<S> q = normalized(Quat<S>(s[3], s[4], s[5], s[6]) * quat_exp(turn));
      s[3] = q.w, s[4] = q.x, s[5] = q.y, s[6] = q.z;
    }
  }

  // Moreau midpoint: forces at q + h/2 v, q+ = q + h/2 (v + v+).
  template <class H>
  SG_HD void step_moreau(S* y, const H& h) const {
    S mid[kMaxDim];
    for (int i = 0; i < dim(); ++i) mid[i] = y[i];
    for (int b = 0; b < model_->count; ++b) {
      S* s = mid + kStride * b;
      for (int k = 0; k < 3; ++k) s[k] += 0.5 * h * s[10 + k];
      for (int k = 0; k < 3; ++k) s[7 + k] = 0.5 * h * s[13 + k];
    }
    BodyVelocity<S> acc[kMaxBodies];
    accelerations(mid, acc);
    BodyVelocity<S> vel[kMaxBodies];  // velocities after the step's forces (and impulses)
    for (int b = 0; b < model_->count; ++b) {
      const S* s = y + kStride * b;
      for (int k = 0; k < 3; ++k) {
        vel[b].lin[k] = s[10 + k] + h * acc[b].lin[k];
        vel[b].ang[k] = s[13 + k] + h * acc[b].ang[k];
      }
    }
    if (model_->contact == ContactModel::hard) apply_hard_impulses(mid, vel);
    for (int b = 0; b < model_->count; ++b) {
      S* s = y + kStride * b;
      for (int k = 0; k < 3; ++k) {
        const S v_new = vel[b].lin[k];
        const S w_new = vel[b].ang[k];
        s[k] += 0.5 * h * (s[10 + k] + v_new);
        s[7 + k] = 0.5 * h * (s[13 + k] + w_new);
        s[10 + k] = v_new;
        s[13 + k] = w_new;
      }
    }
    after_accept(y);
  }

  // Position (0) or velocity (1) coordinate of a body, for losses.
  SG_HD S coordinate(const S* y, int quantity, int body, int axis) const {
    return y[kStride * body + (quantity == 0 ? 0 : 10) + axis];
  }

  // Sum of the normal-direction contact force magnitudes acting on a body (for trajectory plots).
  SG_HD S contact_force(const S* y, int body) const {
    ConstraintRow<S>* rows = scratch_.rows;
    BodyVelocity<S> acc[kMaxBodies];
    const int n = solve_contacts(y, false, rows, acc, 2);
    S total = 0.0;
    for (int i = 0; i < n; ++i)
      if (rows[i].body_a == body || rows[i].body_b == body) total += rows[i].force;
    return total;
  }

  // Contacts of the current state (for the 3-D view): count written, up to capacity.
  SG_HD int contacts(const S* y, Contact<S>* out, int capacity, bool with_cfd) const {
    ContactRecord* records = scratch_.records;
    decode_states(y, scratch_.states);
    const int n = collect_contacts(scratch_.states, with_cfd, records);
    int written = 0;
    for (int i = 0; i < n && written < capacity; ++i) out[written++] = records[i].contact;
    return written;
  }

 private:
  struct ContactRecord {
    int body_a, body_b;  // body_a = -1 for the plane
    Contact<S> contact;
    PairParams<S> params;
  };

  // Hard contact (analytic-smoothing paper, engine-notes section 6) at the Moreau midpoint: one 3-row block
  // per contact (normal, two tangents), Delassus G = J M^-1 J', free velocity c = J v_free, Gauss-Seidel with
  // the sigmoid weights and the friction-cone prox, then v += M^-1 J' p.
  SG_HD void apply_hard_impulses(const S* mid, BodyVelocity<S>* vel) const {
    const RigidModel<S>& m = *model_;
    BodyState<S>* states = scratch_.states;
    decode_states(mid, states);
    // Smoothed contact acts on separated pairs too: look a few sigmoid widths beyond contact.
    const double kappa = value(m.hard.kappa);
    const double band = kappa < kInf ? 10.0 / kappa : 0.0;
    ContactRecord* records = scratch_.records;
    int nc = collect_contacts(states, false, records, band);
    if (nc > kMaxHardContacts) nc = kMaxHardContacts;
    if (nc == 0) return;
    HardScratch& hs = scratch_.hard;
    hs.problem.nc = nc;
    for (int j = 0; j < nc; ++j) {
      const ContactRecord& rec = records[j];
      for (int a = 0; a < 3; ++a) hs.rows[3 * j + a] = row_along(states, rec, rec.contact.frame[a]);
      hs.problem.depth[j] = rec.params.margin - rec.contact.dist;
      hs.problem.mu[j] = rec.params.friction;
    }
    for (int r = 0; r < 3 * nc; ++r) {
      hs.problem.c[r] = relative_velocity(hs.rows[r], vel);
      for (int q = 0; q < 3 * nc; ++q) hs.problem.G[r][q] = delassus_entry(hs.rows[r], hs.rows[q]);
    }
    solve_gauss_seidel(hs.problem, m.hard.kappa, m.hard.iterations, hs.impulse);
    for (int r = 0; r < 3 * nc; ++r) {
      const ConstraintRow<S>& row = hs.rows[r];
      if (row.body_a >= 0) apply_row_force(row.ja, inv_mass_[row.body_a], hs.impulse[r], vel[row.body_a]);
      if (row.body_b >= 0) apply_row_force(row.jb, inv_mass_[row.body_b], hs.impulse[r], vel[row.body_b]);
    }
  }

  // The Jacobian of the relative velocity along dir at the contact point (body b minus body a); shared by
  // the soft-constraint rows and the hard-contact blocks.
  SG_HD ConstraintRow<S> row_along(const BodyState<S>* states, const ContactRecord& rec,
                                   const Vec3<S>& dir) const {
    ConstraintRow<S> row;
    row.body_a = rec.body_a;
    row.body_b = rec.body_b;
    row.ja = {Vec3<S>(), Vec3<S>()};
    row.jb = {Vec3<S>(), Vec3<S>()};
    if (rec.body_b >= 0)
      row.jb = point_jacobian(dir, rec.contact.pos - states[rec.body_b].pos, states[rec.body_b].rot);
    if (rec.body_a >= 0) {
      const RowJacobian<S> j =
          point_jacobian(dir, rec.contact.pos - states[rec.body_a].pos, states[rec.body_a].rot);
      row.ja = {-j.lin, -j.ang};
    }
    return row;
  }

  SG_HD static S relative_velocity(const ConstraintRow<S>& row, const BodyVelocity<S>* vel) {
    S v = 0.0;
    if (row.body_a >= 0) v += row_dot(row.ja, vel[row.body_a]);
    if (row.body_b >= 0) v += row_dot(row.jb, vel[row.body_b]);
    return v;
  }

  // (J M^-1 J')_rq over the bodies the two rows share.
  SG_HD S delassus_entry(const ConstraintRow<S>& r, const ConstraintRow<S>& q) const {
    S g = 0.0;
    auto add = [&](int body, const RowJacobian<S>& a, const RowJacobian<S>& b) {
      const InverseMass<S>& im = inv_mass_[body];
      g += im.inv_mass * dot(a.lin, b.lin) + a.ang.x * b.ang.x * im.inv_inertia.x +
           a.ang.y * b.ang.y * im.inv_inertia.y + a.ang.z * b.ang.z * im.inv_inertia.z;
    };
    if (r.body_a >= 0 && r.body_a == q.body_a) add(r.body_a, r.ja, q.ja);
    if (r.body_a >= 0 && r.body_a == q.body_b) add(r.body_a, r.ja, q.jb);
    if (r.body_b >= 0 && r.body_b == q.body_a) add(r.body_b, r.jb, q.ja);
    if (r.body_b >= 0 && r.body_b == q.body_b) add(r.body_b, r.jb, q.jb);
    return g;
  }

  SG_HD void inverse_mass_of(int b) {
    const RigidBody<S>& body = model_->bodies[b];
    MassInertia<S> mi = geom_mass_inertia(body.shape, body.size, body.density);
    if (body.mass > 0.0) {  // a given mass scales the shape's inertia
      const S scale = body.mass / mi.mass;
      mi.mass = body.mass;
      mi.inertia = mi.inertia * scale;
    }
    mass_[b] = mi.mass;
    inertia_[b] = mi.inertia;
    inv_mass_[b] = {1.0 / mi.mass, Vec3<S>(1.0 / mi.inertia.x, 1.0 / mi.inertia.y, 1.0 / mi.inertia.z)};
  }

  // MuJoCo's combination for a pair with equal solmix: averaged solref and solimp, the larger friction,
  // condim and margin.
  SG_HD static PairParams<S> combine(const Surface<S>& a, const Surface<S>& b) {
    PairParams<S> p;
    p.friction = max(a.friction, b.friction);
    for (int k = 0; k < 2; ++k) p.solref[k] = 0.5 * (a.solref[k] + b.solref[k]);
    for (int k = 0; k < 5; ++k) p.solimp[k] = 0.5 * (a.solimp[k] + b.solimp[k]);
    p.condim = a.condim > b.condim ? a.condim : b.condim;
    p.margin = a.margin > b.margin ? a.margin : b.margin;
    return p;
  }

  SG_HD void decode_states(const S* y, BodyState<S>* states) const {
    for (int b = 0; b < model_->count; ++b) states[b] = body_state(y, b);
  }

  SG_HD int collect_contacts(const BodyState<S>* states, bool with_cfd, ContactRecord* out,
                             double extra_band = 0.0) const {
    const RigidModel<S>& m = *model_;
    const double cfd_width = (with_cfd ? value(m.cfd.solimp[2]) : 0.0) + extra_band;
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
        const PairParams<S> params = combine(m.plane, body.surface);
        const CollisionOptions opt{params.margin + cfd_width, m.softness};
        const Pose<S> plane_pose{Vec3<S>(0.0, 0.0, m.plane_height), Quat<S>()};
        add(-1, b, params,
            collide(GeomType::plane, plane_pose, Vec3<S>(), body.shape, pose, body.size, opt, buf));
      }
      if (!m.collide_bodies) continue;
      for (int c = b + 1; c < m.count; ++c) {
        const RigidBody<S>& other = m.bodies[c];
        if (!pair_supported(body.shape, other.shape)) continue;
        const BodyState<S>& so = states[c];
        const PairParams<S> params = combine(body.surface, other.surface);
        const CollisionOptions opt{params.margin + cfd_width, m.softness};
        add(b, c, params,
            collide(body.shape, pose, body.size, other.shape, Pose<S>{so.pos, so.quat}, other.size, opt,
                    buf));
      }
    }
    return n;
  }

  // Rows of one contact; returns how many were written.
  SG_HD int contact_rows(const BodyState<S>* states, const ContactRecord& rec, bool with_cfd,
                         ConstraintRow<S>* rows) const {
    const RigidModel<S>& m = *model_;
    const PairParams<S>& pp = rec.params;
    const S r = rec.contact.dist - pp.margin;
    const double width = value(m.cfd.solimp[2]);
    // Active at r <= 0 like MuJoCo (dist <= margin); CFD extends this to the width.
    if (r > 0.0 && !(with_cfd && r < width)) return 0;
    S d;
    S pos_term;
    if (with_cfd) {
      d = r < 0.0 ? mujoco_impedance(pp.solimp, r) : mujoco_impedance(m.cfd.solimp, m.cfd.solimp[2] - r);
      pos_term = -softplus(-r, m.cfd.beta);
    } else {
      d = mujoco_impedance(pp.solimp, r);
      pos_term = r;
    }
    const MujocoSpring<S> spring = mujoco_spring(pp.solref, pp.solimp, m.refsafe, timestep_);
    S inv_weight = 0.0;  // A_hat: the translational inverse weights of the two bodies
    if (rec.body_a >= 0) inv_weight += inv_mass_[rec.body_a].inv_mass;
    if (rec.body_b >= 0) inv_weight += inv_mass_[rec.body_b].inv_mass;
    S R_normal = (1.0 - d) / d * inv_weight;
    if (R_normal < 1e-15) R_normal = S(1e-15);
    const Vec3<S>* frame = rec.contact.frame;
    Vec3<S> dirs[4];
    int count = 1;
    S R = R_normal;
    if (pp.condim >= 3) {
      const S mu = pp.friction;
      dirs[0] = frame[0] + frame[1] * mu;
      dirs[1] = frame[0] - frame[1] * mu;
      dirs[2] = frame[0] + frame[2] * mu;
      dirs[3] = frame[0] - frame[2] * mu;
      count = 4;
      // MuJoCo's diagonal approximation of an edge row n +- mu t is A_hat (1 + mu^2) (mj_diagApprox), and
      // all edges share R_py = 2 mu^2 R / impratio (checked against MuJoCo 2.2.2: tests/mujoco).
      R = 2.0 * mu * mu * (1.0 + mu * mu) * R_normal / m.impratio;
      if (R < 1e-15) R = S(1e-15);
    } else {
      dirs[0] = frame[0];
    }
    for (int i = 0; i < count; ++i) {
      ConstraintRow<S>& row = rows[i];
      row = row_along(states, rec, dirs[i]);
      S jv = 0.0;  // the row's relative velocity J v
      if (rec.body_b >= 0)
        jv += dot(row.jb.lin, states[rec.body_b].vel) + dot(row.jb.ang, states[rec.body_b].angvel);
      if (rec.body_a >= 0)
        jv += dot(row.ja.lin, states[rec.body_a].vel) + dot(row.ja.ang, states[rec.body_a].angvel);
      row.aref = -spring.B * jv - spring.K * d * pos_term;
      row.R = R;
    }
    return count;
  }

  SG_HD void unconstrained(const BodyState<S>* states, BodyVelocity<S>* acc) const {
    const RigidModel<S>& m = *model_;
    for (int b = 0; b < m.count; ++b) {
      const RigidBody<S>& body = m.bodies[b];
      const BodyState<S>& st = states[b];
      Vec3<S> force = m.gravity * mass_[b] - st.vel * body.damping;
      Vec3<S> torque_world;
      for (int k = 0; k < body.force_count; ++k) {
        const TimedForce<S>& tf = body.forces[k];
        if (interval_ < tf.from_step || interval_ >= tf.to_step) continue;
        force += tf.force;
        torque_world += tf.torque;
      }
      const Vec3<S>& w = st.angvel;
      const Vec3<S> Iw(inertia_[b].x * w.x, inertia_[b].y * w.y, inertia_[b].z * w.z);
      const Vec3<S> torque = mul_transpose(st.rot, torque_world) - cross(w, Iw) - w * body.damping;
      acc[b].lin = force * inv_mass_[b].inv_mass;
      acc[b].ang = {torque.x * inv_mass_[b].inv_inertia.x, torque.y * inv_mass_[b].inv_inertia.y,
                    torque.z * inv_mass_[b].inv_inertia.z};
    }
  }

  // slot keeps the solver's active-set guesses of different callers apart (plain, CFD, readouts), so a
  // straight-through run's plain solves follow exactly the same path as a run without CFD.
  SG_HD int solve_contacts(const S* y, bool with_cfd, ConstraintRow<S>* rows, BodyVelocity<S>* acc,
                           int slot) const {
    BodyState<S>* states = scratch_.states;
    decode_states(y, states);
    unconstrained(states, acc);
    if (model_->contact != ContactModel::mujoco) return 0;
    ContactRecord* records = scratch_.records;
    const int nc = collect_contacts(states, with_cfd, records);
    int n = 0;
    for (int i = 0; i < nc && n + 4 <= kMaxRigidRows; ++i)
      n += contact_rows(states, records[i], with_cfd, rows + n);
    solve_newton(rows, n, mass_, inertia_, model_->count, acc, model_->iterations, scratch_.newton, slot);
    return n;
  }

  SG_HD void accelerations_with(const S* y, bool with_cfd, BodyVelocity<S>* acc) const {
    solve_contacts(y, with_cfd, scratch_.rows, acc, with_cfd ? 1 : 0);
  }

  // Contact scratch space, built once per system (per run) rather than per right-hand-side evaluation.
  // Mutable for the same reason as interval_: the solvers hold the system const.
  static constexpr int kMaxHardContacts = 16;
  struct HardScratch {
    GaussSeidelProblem<S, kMaxHardContacts> problem;
    ConstraintRow<S> rows[3 * kMaxHardContacts];
    S impulse[3 * kMaxHardContacts];
  };
  struct Scratch {
    HardScratch hard;
    BodyState<S> states[kMaxBodies];
    ContactRecord records[kMaxRigidContacts];
    ConstraintRow<S> rows[kMaxRigidRows];
    NewtonWorkspace<S, kMaxBodies> newton;
  };

  const RigidModel<S>* model_;
  double timestep_;
  mutable long interval_ = 0;
  mutable Scratch scratch_;
  S mass_[kMaxBodies];
  Vec3<S> inertia_[kMaxBodies];
  InverseMass<S> inv_mass_[kMaxBodies];
};

}  // namespace sg
