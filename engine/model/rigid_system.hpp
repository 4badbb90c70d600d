#pragma once
// Free rigid bodies as a dynamical system for the integrators: Newton-Euler dynamics with MuJoCo-style soft
// frictional contact (pyramidal cone, engine/rigid/soft_rows.hpp, solved by Newton on the primal), Contacts
// From Distance, hard contact inside Moreau steps, and the rotation integrated exactly under Runge-Kutta
// (engine-notes section 3: a rotation vector phi accumulated within a step and folded into the quaternion
// after each accepted step).
//
// For the adaptive solvers it is a hybrid system (engine/integrate/events.hpp): with the mode frozen
// (engine/rigid/contact_mode.hpp), each evaluation uses the mode's contacts, laws and active rows (one
// factorisation, no Newton search), continued past their switches, and reports the margins: the distances
// of free and acting contacts, each row's J a - aref, and the grazing weights.
#include "engine/contact/newton_solver.hpp"
#include "engine/integrate/events.hpp"
#include "engine/rigid/contact_mode.hpp"
#include "engine/rigid/grazing.hpp"
#include "engine/rigid/hard_impulses.hpp"

namespace sg {

inline constexpr int kMaxRigidRows = 4 * kMaxRigidContacts;

template <class S>
class RigidSystem {
 public:
  using Scalar = S;
  static constexpr int kMaxDim = RigidModel<S>::kMaxDim;
  static constexpr int kStride = RigidModel<S>::kStride;
  static constexpr bool kFoldsState = true;  // phi is folded into the quaternion after each step
  static constexpr bool kHybrid = true;

  RigidSystem(const RigidModel<S>* model, double timestep) : model_(model), timestep_(timestep) {
    for (int i = 0; i < model->count; ++i) {
      const BodyMass<S> bm = body_mass(model->bodies[i]);
      mass_[i] = bm.mass;
      inertia_[i] = bm.inertia;
      inv_mass_[i] = bm.inverse;
    }
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

  SG_HD BodyState<S> body_state(const S* y, int b) const { return decode_body(y, b); }

  // Accelerations of every body, with contact forces; straight-through CFD gives the values of the plain
  // model and the derivatives of the CFD model.
  SG_HD void accelerations(const S* y, BodyVelocity<S>* acc) const {
    const CfdParams<S>& cfd = model_->cfd;
    if (!cfd.enabled) return simulated_accelerations(y, false, acc);
    if (!cfd.straight_through) return simulated_accelerations(y, true, acc);
    simulated_accelerations(y, false, acc);
    if constexpr (is_dual_v<S>) {
      // The surrogate only supplies derivatives: solved afresh each time, never part of the mode, from the
      // contacts the simulated model just collected (out to the CFD width).
      BodyVelocity<S> surrogate[kMaxBodies];
      solve_collected(true, scratch_.rows, surrogate, 1);
      for (int b = 0; b < model_->count; ++b)
        for (int k = 0; k < 3; ++k) {
          acc[b].lin[k] = straight_through(acc[b].lin[k], surrogate[b].lin[k]);
          acc[b].ang[k] = straight_through(acc[b].ang[k], surrogate[b].ang[k]);
        }
    }
  }

  // ODE right-hand side on [pos, quat, phi, v, w] per body.
  SG_HD void rhs(const S* y, S* ydot) const {
    tracker_.begin();
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
    if (model_->contact == ContactModel::hard) {
      decode_states(mid, scratch_.states);
      apply_hard_impulses(*model_, scratch_.states, inv_mass_, vel, scratch_.hard);
    }
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
    ContactRecord<S>* records = scratch_.records;
    decode_states(y, scratch_.states);
    const int n = collect_contacts(*model_, scratch_.states, cfd_band(with_cfd), records);
    int written = 0;
    for (int i = 0; i < n && written < capacity; ++i) out[written++] = records[i].contact;
    return written;
  }

  // ---- The hybrid interface (engine/integrate/events.hpp) ----

  // Frozen modes apply to MuJoCo's soft contact only (hard contact steps by Moreau, never adaptively).
  SG_HD void set_frozen(bool on) const { frozen_ = on && model_->contact == ContactModel::mujoco; }
  // The integrator's tolerances: a hop lower than the position tolerance becomes grazing.
  SG_HD void begin_hybrid(double atol, double rtol) const {
    graze_atol_ = atol;
    graze_rtol_ = rtol;
  }
  SG_HD MarginTracker& margins() const { return tracker_; }
  // Straight-through CFD differentiates the CFD surrogate along the simulated trajectory; the surrogate has
  // no switches of its own there, so the simulated model's jumps add no saltation term to its tangents.
  SG_HD bool saltation_applies() const { return !(model_->cfd.enabled && model_->cfd.straight_through); }

  // The mode MuJoCo's rules give at y: acting contacts (r <= 0, or inside the CFD width with CFD in the
  // forward simulation) and the active set of Newton's solution.
  SG_HD void mode_from_state(const S* y) const {
    if (!frozen_) return;
    ContactMode<kMaxRigidContacts>& mode = mode_;
    mode.count = 0;
    decode_states(y, scratch_.states);
    const bool cfd = forward_cfd();
    const int nc = collect_contacts(*model_, scratch_.states, cfd_band(cfd), scratch_.records);
    for (int i = 0; i < nc; ++i) {
      const ContactRecord<S>& rec = scratch_.records[i];
      RowLaw law;
      if (!law_at(S(rec.contact.dist - rec.params.margin), cfd, cfd_width(), &law)) continue;
      if (mode.find(key_of(rec)) < 0)
        mode.add(key_of(rec), law == RowLaw::cfd_band ? ContactLevel::band : ContactLevel::contact);
    }
    BodyVelocity<S> acc[kMaxBodies];
    newton_over_mode(y, nullptr, acc);
  }

  // The margins need no derivatives: the simulated model only, without a straight-through surrogate.
  SG_HD double margin_at(const S* y, EventId* which) const {
    tracker_.begin();
    BodyVelocity<S> acc[kMaxBodies];
    if (frozen_) {
      frozen_accelerations(y, acc, false);
    } else {
      simulated_accelerations(y, forward_cfd(), acc);
    }
    *which = tracker_.last_witness;
    return tracker_.last;
  }

  // Switches the mode for the crossed function `id` at y; returns what happened.
  SG_HD EventId apply_event(const S* y, const EventId& id) const {
    ContactMode<kMaxRigidContacts>& mode = mode_;
    const ContactKey key{id.a, id.b, id.feature};
    const int e = mode.find(key);
    EventId done = id;
    if (id.row >= 0) {  // a row enters or leaves the active set: the force is 0 there, nothing jumps
      if (e < 0) return EventId{};
      const bool on = !mode.row_on(e, id.row);
      mode.set_row(e, id.row, on);
      done.kind = on ? EventKind::row_on : EventKind::row_off;
      return done;
    }
    const bool cfd = forward_cfd();
    BodyVelocity<S> acc[kMaxBodies];
    if (e < 0) {
      mode.add(key, cfd ? ContactLevel::band : ContactLevel::contact);
      done.kind = EventKind::onset;
      done.surface = cfd ? 1 : 0;
    } else {
      ModeEntry& entry = mode.entries[e];
      switch (entry.level) {
        case ContactLevel::band:
          done.surface = id.kind == EventKind::onset ? 0 : 1;
          if (id.kind == EventKind::onset) {
            entry.level = ContactLevel::contact;
          } else {
            mode.remove(e);
          }
          break;
        case ContactLevel::contact:
          done.kind = EventKind::separation;
          done.surface = 0;
          if (cfd) {
            entry.level = ContactLevel::band;
          } else {
            mode.remove(e);
          }
          break;
        case ContactLevel::grazing:
          if (id.kind == EventKind::press) {  // continuous: the full force is what acts at s = 1
            entry.level = ContactLevel::contact;
            return done;
          }
          done.kind = EventKind::lift;
          mode.remove(e);
          newton_over_mode(y, nullptr, acc);
          return done;
      }
    }
    newton_over_mode(y, nullptr, acc);
    if (!cfd) maybe_graze(y, key, &done);
    return done;
  }

  // The switching function of a contact event at y (with derivatives), and its rate of change r' = J_n v.
  SG_HD S event_value(const S* y, const EventId& id) const {
    const ContactRecord<S>* rec = find_record(y, ContactKey{id.a, id.b, id.feature});
    if (!rec) return S(0.0);
    return rec->contact.dist - rec->params.margin - (id.surface == 1 ? cfd_width() : 0.0);
  }
  SG_HD double event_rate(const S* y, const EventId& id) const {
    const ContactRecord<S>* rec = find_record(y, ContactKey{id.a, id.b, id.feature});
    if (!rec) return 0.0;
    return value(row_velocity(row_along(scratch_.states, *rec, rec->contact.frame[0]), scratch_.states));
  }

 private:
  // How far beyond their law's boundary the frozen evaluation looks for contacts: far enough that a contact
  // the mode holds stays visible while a step overshoots its separation.
  static constexpr double kLookahead = 1e-3;
  // Hops lower than this fraction of the position tolerance become grazing: far below what the solver
  // resolves, and short against the motion along the surface (a hop the solver could resolve, such as a
  // struck ball's micrometre hop, changes its friction history and must not be averaged away).
  static constexpr double kGrazeFraction = 1e-3;

  SG_HD bool forward_cfd() const { return model_->cfd.enabled && !model_->cfd.straight_through; }
  SG_HD double cfd_width() const { return forward_cfd() ? value(model_->cfd.solimp[2]) : 0.0; }
  SG_HD double cfd_band(bool with_cfd) const { return with_cfd ? value(model_->cfd.solimp[2]) : 0.0; }

  SG_HD static ContactKey key_of(const ContactRecord<S>& rec) {
    return ContactKey{rec.body_a, rec.body_b, rec.contact.feature};
  }
  SG_HD static EventId event_of(const ContactKey& k, EventKind kind, int row = -1, int surface = 0) {
    EventId id;
    id.kind = kind;
    id.a = k.a;
    id.b = k.b;
    id.feature = k.feature;
    id.row = row;
    id.surface = surface;
    return id;
  }

  SG_HD void decode_states(const S* y, BodyState<S>* states) const {
    for (int b = 0; b < model_->count; ++b) states[b] = decode_body(y, b);
  }

  SG_HD const ContactRecord<S>* find_record(const S* y, const ContactKey& key) const {
    decode_states(y, scratch_.states);
    const int n = collect_contacts(*model_, scratch_.states, cfd_width() + kLookahead, scratch_.records);
    for (int i = 0; i < n; ++i)
      if (key_of(scratch_.records[i]) == key) return &scratch_.records[i];
    return nullptr;
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

  SG_HD void simulated_accelerations(const S* y, bool with_cfd, BodyVelocity<S>* acc) const {
    if (frozen_) {
      frozen_accelerations(y, acc);
    } else {
      solve_contacts(y, with_cfd, scratch_.rows, acc, with_cfd ? 1 : 0);
    }
  }

  // How far out the simulated model collects contacts: its own laws (and the frozen mode's look-ahead), and
  // in a straight-through dual run the CFD width too, so that the surrogate reuses the same contacts.
  SG_HD double collection_band(bool with_cfd) const {
    double band = frozen_ ? cfd_width() + kLookahead : cfd_band(with_cfd);
    if (is_dual_v<S> && model_->cfd.enabled && model_->cfd.straight_through) {
      const double width = value(model_->cfd.solimp[2]);
      if (width > band) band = width;
    }
    return band;
  }

  SG_HD int collect(const S* y, double band) const {
    decode_states(y, scratch_.states);
    scratch_.record_count = collect_contacts(*model_, scratch_.states, band, scratch_.records);
    return scratch_.record_count;
  }

  // MuJoCo's rules at every evaluation: the contacts acting at y, Newton's active set. slot keeps the
  // solver's active-set guesses of different callers apart (plain, CFD, readouts), so a straight-through
  // run's plain solves follow exactly the same path as a run without CFD.
  SG_HD int solve_contacts(const S* y, bool with_cfd, ConstraintRow<S>* rows, BodyVelocity<S>* acc,
                           int slot) const {
    collect(y, collection_band(with_cfd));
    return solve_collected(with_cfd, rows, acc, slot);
  }

  // solve_contacts on the states and contacts collected last.
  SG_HD int solve_collected(bool with_cfd, ConstraintRow<S>* rows, BodyVelocity<S>* acc, int slot) const {
    const BodyState<S>* states = scratch_.states;
    unconstrained(states, acc);
    if (model_->contact != ContactModel::mujoco) return 0;
    const ContactRecord<S>* records = scratch_.records;
    const int nc = scratch_.record_count;
    int n = 0;
    for (int i = 0; i < nc && n + 4 <= kMaxRigidRows; ++i) {
      RowLaw law;
      if (!law_at(S(records[i].contact.dist - records[i].params.margin), with_cfd, cfd_band(with_cfd), &law))
        continue;
      n += soft_contact_rows(*model_, states, inv_mass_, records[i], law, timestep_, rows + n);
    }
    solve_newton(rows, n, mass_, inertia_, model_->count, acc, model_->iterations, scratch_.newton, slot);
    return n;
  }

  SG_HD RowLaw law_of(ContactLevel level) const {
    if (level == ContactLevel::band) return RowLaw::cfd_band;
    return forward_cfd() ? RowLaw::cfd_touching : RowLaw::plain;
  }

  // The rows of every contact the mode holds (except `skip`), in mode order; entries whose contact is no
  // longer reported are dropped. Returns the row count; row_entry maps rows to entries.
  SG_HD int mode_rows(const BodyState<S>* states, int nc, const ContactKey* skip, ConstraintRow<S>* rows,
                      int* row_entry) const {
    ContactMode<kMaxRigidContacts>& mode = mode_;
    int n = 0;
    for (int e = 0; e < mode.count;) {
      const ContactRecord<S>* rec = nullptr;
      for (int i = 0; i < nc && !rec; ++i)
        if (key_of(scratch_.records[i]) == mode.entries[e].key) rec = &scratch_.records[i];
      if (!rec) {
        mode.remove(e);
        continue;
      }
      if (!(skip && *skip == mode.entries[e].key) && n + 4 <= kMaxRigidRows) {
        const int c = soft_contact_rows(*model_, states, inv_mass_, *rec, law_of(mode.entries[e].level),
                                        timestep_, rows + n);
        for (int k = 0; k < c; ++k) row_entry[n + k] = e;
        n += c;
      }
      ++e;
    }
    return n;
  }

  // Newton's solution with the mode's contacts (except skip) acting fully; writes the rows' activity back
  // into the mode (all rows when skip is null).
  SG_HD void newton_over_mode(const S* y, const ContactKey* skip, BodyVelocity<S>* acc) const {
    BodyState<S>* states = scratch_.states;
    decode_states(y, states);
    unconstrained(states, acc);
    const int nc = collect_contacts(*model_, states, cfd_width() + kLookahead, scratch_.records);
    ConstraintRow<S>* rows = scratch_.rows;
    int* row_entry = scratch_.row_entry;
    const int n = mode_rows(states, nc, skip, rows, row_entry);
    solve_newton(rows, n, mass_, inertia_, model_->count, acc, model_->iterations, scratch_.newton, 2);
    for (int r = 0, k = 0; r < n; ++r) {
      k = (r > 0 && row_entry[r] == row_entry[r - 1]) ? k + 1 : 0;
      mode_.set_row(row_entry[r], k, scratch_.newton.active[r]);
    }
  }

  // After an onset or a separation at the plain boundary: a crossing so slow that the free hop it starts or
  // ends stays below the position tolerance is tangential; at a two-fold (the free motion falls back, the
  // contact pushes out) a hop far below the tolerance starts the grazing mode.
  SG_HD void maybe_graze(const S* y, const ContactKey& key, EventId* done) const {
    ContactMode<kMaxRigidContacts>& mode = mode_;
    const ContactRecord<S>* found = find_record(y, key);
    if (!found) return;
    const ContactRecord<S> rec = *found;
    const ConstraintRow<S> normal = row_along(scratch_.states, rec, rec.contact.frame[0]);
    const double vn = value(row_velocity(normal, scratch_.states));
    const double pos = value(norm(scratch_.states[key.b].pos));
    BodyVelocity<S> with[kMaxBodies], without[kMaxBodies];
    const bool was_on = mode.find(key) >= 0;
    if (!was_on) mode.add(key, ContactLevel::contact);
    newton_over_mode(y, &key, without);
    newton_over_mode(y, nullptr, with);
    const double a_free = value(row_times_bodies(normal, without));
    const double a_contact = value(row_times_bodies(normal, with));
    const bool two_fold = a_free < 0.0 && a_contact > 0.0;
    // The height of the free hop this crossing starts or ends: the same for a take-off and its landing.
    const double height = vn * vn / (2.0 * std::fabs(a_free));
    const double tolerance = graze_atol_ + graze_rtol_ * pos;
    done->tangential = height <= tolerance;
    const int e = mode.find(key);
    if (two_fold && height <= kGrazeFraction * tolerance) {
      mode.entries[e].level = ContactLevel::grazing;
      done->kind = EventKind::graze;
    } else if (!was_on) {
      mode.remove(e);
      newton_over_mode(y, nullptr, with);
    }
  }

  // The evaluation with the mode held fixed (see the header comment).
  // derivatives = false: values only (for switching margins).
  SG_HD void frozen_accelerations(const S* y, BodyVelocity<S>* acc, bool derivatives = true) const {
    const int nc = collect(y, collection_band(false));
    BodyState<S>* states = scratch_.states;
    unconstrained(states, acc);
    ContactMode<kMaxRigidContacts>& mode = mode_;
    const double width = cfd_width();
    ContactRecord<S>* records = scratch_.records;
    for (int e = 0; e < mode.count; ++e) mode.entries[e].seen = false;
    ConstraintRow<S>* rows = scratch_.rows;
    bool* active = scratch_.active;
    int* row_entry = scratch_.row_entry;
    GrazingContact<S>* grazing = scratch_.grazing;
    int n = 0, ng = 0;
    for (int i = 0; i < nc; ++i) {
      const ContactRecord<S>& rec = records[i];
      const ContactKey key = key_of(rec);
      const double r = value(rec.contact.dist) - rec.params.margin;
      const int e = mode.find(key);
      // Contacts farther out than the look-ahead (collected for a straight-through surrogate) are not seen:
      // the evaluation is the same as without them.
      if (r - width > kLookahead) continue;
      if (e < 0) {  // free: acts once it comes closer than the boundary
        tracker_.note(r - width, event_of(key, EventKind::onset, -1, width > 0.0 ? 1 : 0));
        continue;
      }
      ModeEntry& entry = mode.entries[e];
      if (entry.seen) continue;
      entry.seen = true;
      if (entry.level == ContactLevel::band) {
        tracker_.note(r, event_of(key, EventKind::onset));
        tracker_.note(width - r, event_of(key, EventKind::separation, -1, 1));
      } else if (entry.level == ContactLevel::contact) {
        tracker_.note(-r, event_of(key, EventKind::separation));
      }
      if (n + 4 > kMaxRigidRows) continue;
      const int c =
          soft_contact_rows(*model_, states, inv_mass_, rec, law_of(entry.level), timestep_, rows + n);
      for (int k = 0; k < c; ++k) {
        active[n + k] = mode.row_on(e, k);
        row_entry[n + k] = e;
      }
      if (entry.level == ContactLevel::grazing && ng < kMaxGrazing)
        grazing[ng++] = grazing_contact(states, rec, e, n, c);
      n += c;
    }
    for (int e = 0; e < mode.count; ++e)  // held contacts beyond the look-ahead: certainly separated
      if (!mode.entries[e].seen)
        tracker_.note(-kLookahead, event_of(mode.entries[e].key, EventKind::separation));
    if (!solve_with_active_set(rows, n, active, mass_, inertia_, model_->count, acc, scratch_.newton,
                               derivatives)) {
      tracker_.note(-1.0, EventId{});  // not positive definite: cannot happen with R > 0; leave the mode
      return;
    }
    for (int r = 0, k = 0; r < n; ++r) {
      k = (r > 0 && row_entry[r] == row_entry[r - 1]) ? k + 1 : 0;
      const double phi = value(row_times_bodies(rows[r], acc) - rows[r].aref);
      const ContactKey& key = mode.entries[row_entry[r]].key;
      tracker_.note(active[r] ? -phi : phi,
                    event_of(key, active[r] ? EventKind::row_off : EventKind::row_on, k));
    }
    if (ng > 0) hold_grazing(grazing, ng, rows, n, active, acc, derivatives);
  }

  SG_HD GrazingContact<S> grazing_contact(const BodyState<S>* states, const ContactRecord<S>& rec, int entry,
                                          int first_row, int row_count) const {
    GrazingContact<S> g;
    g.normal = row_along(states, rec, rec.contact.frame[0]);
    g.rate = row_velocity(g.normal, states);
    g.dist = rec.contact.dist - rec.params.margin;
    const MujocoSpring<S> spring =
        mujoco_spring(rec.params.solref, rec.params.solimp, model_->refsafe, timestep_);
    g.omega = 0.5 * spring.B * clamp(rec.params.solimp[1], 1e-4, 0.9999);  // 1 / timeconst
    g.first_row = first_row;
    g.row_count = row_count;
    g.entry = entry;
    return g;
  }

  // The grazing contacts' convex combinations (engine/rigid/grazing.hpp). A grazing contact whose bodies
  // carry other rows (coupled) needs the field without it solved: the other contacts' forces change too.
  SG_HD void hold_grazing(const GrazingContact<S>* g, int ng, ConstraintRow<S>* rows, int n,
                          const bool* active, BodyVelocity<S>* acc, bool derivatives) const {
    BodyVelocity<S>(*delta)[kMaxBodies] = scratch_.grazing_delta;
    bool coupled[kMaxGrazing];
    for (int k = 0; k < ng; ++k) {
      coupled[k] = shares_bodies(g[k], rows, n);
      if (!coupled[k]) own_force_acceleration(g[k], rows, inv_mass_, model_->count, delta[k]);
    }
    for (int k = 0; k < ng; ++k) {
      if (!coupled[k]) continue;
      bool* without = scratch_.active_without;
      for (int r = 0; r < n; ++r)
        without[r] = active[r] && (r < g[k].first_row || r >= g[k].first_row + g[k].row_count);
      BodyVelocity<S> free_acc[kMaxBodies];
      unconstrained(scratch_.states, free_acc);  // the states of this evaluation, still in scratch
      solve_with_active_set(rows, n, without, mass_, inertia_, model_->count, free_acc, scratch_.newton,
                            derivatives);
      for (int b = 0; b < model_->count; ++b) {
        delta[k][b].lin = acc[b].lin - free_acc[b].lin;
        delta[k][b].ang = acc[b].ang - free_acc[b].ang;
      }
    }
    S weights[kMaxGrazing];
    double physical[kMaxGrazing];
    const bool solved = apply_grazing(g, ng, delta, model_->count, acc, weights, physical);
    for (int k = 0; k < ng; ++k) {
      const ContactKey& key = mode_.entries[g[k].entry].key;
      const double s = solved ? physical[k] : -1.0;
      tracker_.note(s, event_of(key, EventKind::lift, -1, 2));  // surfaces 2, 3: the weight's two bounds
      tracker_.note(1.0 - s, event_of(key, EventKind::press, -1, 3));
    }
  }

  // Whether rows other than the grazing contact's own act on one of its bodies.
  SG_HD static bool shares_bodies(const GrazingContact<S>& g, const ConstraintRow<S>* rows, int n) {
    const int a = g.normal.body_a, b = g.normal.body_b;
    for (int r = 0; r < n; ++r) {
      if (r >= g.first_row && r < g.first_row + g.row_count) continue;
      const int ra = rows[r].body_a, rb = rows[r].body_b;
      if ((a >= 0 && (ra == a || rb == a)) || (b >= 0 && (ra == b || rb == b))) return true;
    }
    return false;
  }

  // Contact scratch space, built once per system (per run) rather than per right-hand-side evaluation.
  // Mutable for the same reason as interval_: the solvers hold the system const.
  struct Scratch {
    HardScratch<S> hard;
    BodyState<S> states[kMaxBodies];
    ContactRecord<S> records[kMaxRigidContacts];
    int record_count = 0;
    ConstraintRow<S> rows[kMaxRigidRows];
    bool active[kMaxRigidRows];
    int row_entry[kMaxRigidRows];
    GrazingContact<S> grazing[kMaxGrazing];
    BodyVelocity<S> grazing_delta[kMaxGrazing][kMaxBodies];
    bool active_without[kMaxRigidRows];
    NewtonWorkspace<kMaxBodies> newton;
  };

  const RigidModel<S>* model_;
  double timestep_;
  mutable long interval_ = 0;
  mutable Scratch scratch_;
  mutable bool frozen_ = false;
  mutable ContactMode<kMaxRigidContacts> mode_;
  mutable MarginTracker tracker_;
  mutable double graze_atol_ = 1e-6, graze_rtol_ = 1e-6;
  S mass_[kMaxBodies];
  Vec3<S> inertia_[kMaxBodies];
  InverseMass<S> inv_mass_[kMaxBodies];
};

}  // namespace sg
