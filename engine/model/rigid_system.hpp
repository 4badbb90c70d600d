#pragma once
// Free rigid bodies as a dynamical system for the integrators: Newton-Euler dynamics
// (engine/rigid/free_dynamics.hpp) with MuJoCo-style soft frictional contact (pyramidal cone,
// engine/rigid/soft_rows.hpp, solved by engine/rigid/contact_solver.hpp), Contacts From Distance, hard
// contact inside Moreau steps, and the rotation integrated exactly under Runge-Kutta (engine-notes section 3:
// a rotation vector phi accumulated within a step and folded into the quaternion after each accepted step).
//
// For the adaptive solvers it is a hybrid system (engine/integrate/events.hpp): with the mode frozen
// (engine/rigid/contact_mode.hpp) each evaluation uses the mode's contacts, laws and active rows and reports
// the margins; the mode changes at located switches (apply_event), and a two-fold of a sliding contact
// becomes the grazing mode (engine/rigid/grazing.hpp).
#include <limits>

#include "engine/integrate/events.hpp"
#include "engine/rigid/contact_solver.hpp"
#include "engine/rigid/hard_impulses.hpp"

namespace sg {

// What a rigid system carries from one step to the next (the mode and where the solve is), for checkpoints;
// the same for every scalar, so that a double run's checkpoints restore a taped run.
struct RigidMemo {
  long interval;
  bool frozen;
  ContactMode<kMaxRigidContacts> mode;
  ContactMode<kMaxRigidContacts> surrogate;  // straight-through CFD's surrogate mode
  MarginTracker tracker;
  PackedGuesses guesses;  // the contact solver's (they decide the rounding of its solutions)
};

template <class S>
class RigidSystem {
 public:
  using Scalar = S;
  static constexpr int kMaxDim = RigidModel<S>::kMaxDim;
  static constexpr int kStride = RigidModel<S>::kStride;
  static constexpr bool kFoldsState = true;  // phi is folded into the quaternion after each step
  static constexpr bool kHybrid = true;

  SG_HD RigidSystem(const RigidModel<S>* model, double timestep)
      : model_(model), mass_(*model), solver_(model, &mass_, &pairs_) {
    build_pair_table(*model, timestep, pairs_);
  }
  RigidSystem(const RigidSystem&) = delete;  // the solver points at mass_ and pairs_
  // A second system with this one's per-run constants (masses and pair table, their tape nodes included) and
  // a fresh mode: each replay thread of a checkpointed adjoint steps its own.
  struct Replica {};
  RigidSystem(const RigidSystem& other, Replica)
      : model_(other.model_), mass_(other.mass_), pairs_(other.pairs_), solver_(model_, &mass_, &pairs_) {}
  RigidSystem& operator=(const RigidSystem&) = delete;

  SG_HD int dim() const { return model_->dim(); }
  SG_HD const RigidModel<S>& model() const { return *model_; }
  SG_HD S mass(int body) const { return mass_.mass[body]; }
  SG_HD Vec3<S> inertia(int body) const { return mass_.inertia[body]; }

  // Output step the solver is in: timed forces act during chosen output steps. Mutable on purpose: the
  // solvers hold the system const and tell it where they are.
  SG_HD void begin_interval(long i) const { interval_ = i; }
  // Whether a timed force starts or stops at output time i.
  SG_HD bool forces_change_at(long i) const {
    for (int b = 0; b < model_->count; ++b)
      for (int k = 0; k < model_->bodies[b].force_count; ++k) {
        const TimedForce<S>& f = model_->bodies[b].forces[k];
        if (f.from_step == i || f.to_step == i) return true;
      }
    return false;
  }

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
    if (!cfd.enabled) return simulated_accelerations(y, false, acc, true);
    if (!cfd.straight_through) return simulated_accelerations(y, true, acc, true);
    // The simulated model's derivatives would be replaced by the surrogate's: its solve gives values only
    // (the same values), which saves the implicit derivative of a solve whose derivative nobody reads.
    simulated_accelerations(y, false, acc, !has_derivatives_v<S>);
    BodyVelocity<S> surrogate[kMaxBodies];
    if (surrogate_held()) {
      // Held in its own mode, its switches ending steps too, in every scalar (the same steps with and
      // without derivatives).
      surrogate_accelerations(surrogate, has_derivatives_v<S>);
    } else if constexpr (has_derivatives_v<S>) {
      // Otherwise (fixed steps, events or surrogate_events off) MuJoCo's rules at each evaluation, from the
      // contacts the simulated model just collected (out to the CFD width).
      free_accelerations(*model_, mass_, solver_.states(), interval_, surrogate);
      solver_.solve_rules(true, cfd_band(true), surrogate, 1);
    }
    if constexpr (has_derivatives_v<S>)
      for (int b = 0; b < model_->count; ++b)
        for (int k = 0; k < 3; ++k) {
          acc[b].lin[k] = straight_through(acc[b].lin[k], surrogate[b].lin[k]);
          acc[b].ang[k] = straight_through(acc[b].ang[k], surrogate[b].ang[k]);
        }
  }

  // ODE right-hand side on [pos, quat, phi, v, w] per body.
  SG_HD SG_NOINLINE void rhs(const S* y, S* ydot) const {
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

  // The continuous adjoint's side of the fold (engine/gradient/backsolve_adjoint.hpp): the adjoint a of
  // y = (q, phi) becomes that of (q (x) exp(phi), 0), the same orientation. A change dq' of the folded
  // quaternion is dq = dq' (x) exp(-phi), so a_q' = a_q (x) exp(phi) (the transpose of right
  // multiplication by a unit quaternion multiplies by its conjugate); a change dphi' at 0 is dphi' =
  // Jr(phi) dphi, so a_phi' = Jr(phi)^-T a_phi = dexp_inv(-phi, a_phi).
  SG_HD void fold_adjoint(const double* y, double* a) const {
    for (int b = 0; b < model_->count; ++b) {
      const double* s = y + kStride * b;
      double* g = a + kStride * b;
      const Vec3<double> phi(s[7], s[8], s[9]);
      const Quat<double> aq = Quat<double>(g[3], g[4], g[5], g[6]) * quat_exp(phi);
      const Vec3<double> ap = dexp_inv(Vec3<double>(-phi.x, -phi.y, -phi.z), Vec3<double>(g[7], g[8], g[9]));
      g[3] = aq.w, g[4] = aq.x, g[5] = aq.y, g[6] = aq.z;
      g[7] = ap.x, g[8] = ap.y, g[9] = ap.z;
    }
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
      BodyState<S> states[kMaxBodies];
      decode_states(*model_, mid, states);
      if (!apply_hard_impulses(*model_, pairs_, states, mass_.inverse, vel, hard_))
        for (int b = 0; b < model_->count; ++b) vel[b].lin[0] = std::numeric_limits<double>::quiet_NaN();
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

  // Sum of the normal-direction contact force magnitudes acting on a body (for trajectory plots), by
  // MuJoCo's rules.
  SG_HD S contact_force(const S* y, int body) const {
    BodyVelocity<S> acc[kMaxBodies];
    solver_.collect(y, collection_band(false));
    free_accelerations(*model_, mass_, solver_.states(), interval_, acc);
    const int n = solver_.solve_rules(false, 0.0, acc, 2);
    S total = 0.0;
    for (int i = 0; i < n; ++i)
      if (solver_.rows()[i].body_a == body || solver_.rows()[i].body_b == body)
        total += solver_.rows()[i].force;
    return total;
  }

  // contact.model "hard": the normal impulse the last Moreau step's contacts gave `body` (0 without hard
  // contact or before a step).
  SG_HD S hard_normal_impulse(int body) const { return sg::hard_normal_impulse(hard_, body); }

  // Contacts of the current state (for the 3-D view): count written, up to capacity.
  SG_HD int contacts(const S* y, Contact<S>* out, int capacity, bool with_cfd) const {
    const int n = solver_.collect(y, cfd_band(with_cfd));
    int written = 0;
    for (int i = 0; i < n && written < capacity; ++i) out[written++] = solver_.record(i).contact;
    return written;
  }

  // ---- The hybrid interface (engine/integrate/events.hpp) ----

  // Frozen modes apply to MuJoCo's soft contact only (hard contact steps by Moreau, never adaptively).
  SG_HD void set_frozen(bool on) const { frozen_ = on && model_->contact == ContactModel::mujoco; }
  SG_HD MarginTracker& margins() const { return tracker_; }
  using Memo = RigidMemo;
  SG_HD Memo memo() const { return {interval_, frozen_, mode_, surrogate_, tracker_, solver_.guesses()}; }
  SG_HD void restore(const Memo& m) const {
    interval_ = m.interval;
    frozen_ = m.frozen;
    mode_ = m.mode;
    surrogate_ = m.surrogate;
    tracker_ = m.tracker;
    solver_.restore_guesses(m.guesses);
  }
  // Straight-through CFD differentiates the CFD surrogate along the simulated trajectory; the surrogate has
  // no switches of its own there, so the simulated model's jumps add no saltation term to its tangents.
  SG_HD bool saltation_applies() const { return !(model_->cfd.enabled && model_->cfd.straight_through); }

  // The mode MuJoCo's rules give at y: acting contacts (r <= 0, or inside the CFD width with CFD in the
  // forward simulation) and the active set of Newton's solution.
  SG_HD void mode_from_state(const S* y) const {
    if (!frozen_) return;
    mode_.count = 0;
    const ModeLaws l = laws();
    const int nc = solver_.collect(y, l.width);
    for (int i = 0; i < nc; ++i) {
      const ContactRecord<S>& rec = solver_.record(i);
      RowLaw law;
      if (!law_at(S(rec.contact.dist - rec.params().margin), l.forward_cfd, l.width, &law)) continue;
      if (mode_.find(key_of(rec)) < 0)
        mode_.add(key_of(rec), law == RowLaw::cfd_band ? ContactLevel::band : ContactLevel::contact);
    }
    BodyVelocity<S> acc[kMaxBodies];
    newton_over_mode(y, nullptr, acc);
    if (surrogate_held()) surrogate_from_state(y);
  }

  // The margins need no derivatives (event location records nothing): the simulated model only, without a
  // straight-through surrogate.
  SG_HD SG_NOINLINE double margin_at(const S* y, EventId* which) const {
    tracker_.begin();
    BodyVelocity<S> acc[kMaxBodies];
    simulated_accelerations(y, forward_cfd(), acc, false);
    if (surrogate_held()) surrogate_accelerations(acc, false);
    *which = tracker_.last_witness;
    return tracker_.last;
  }

  // Switches the mode for the crossed function `id` at y; returns what happened. The simulated model's
  // onsets and separations switch a straight-through surrogate between its band and contact too.
  SG_HD EventId apply_event(const S* y, const EventId& id) const {
    if (surrogate_event(id.surface)) return apply_surrogate_event(y, id);
    const EventId done = apply_model_event(y, id);
    if (surrogate_held() && done.row < 0) follow_model_event(y, done);
    return done;
  }

  // The switching function of a contact event at y (with derivatives), and its rate of change r' = J_n v.
  SG_HD S event_value(const S* y, const EventId& id) const {
    const ContactRecord<S>* rec = find_record(y, ContactKey{id.a, id.b, id.feature});
    if (!rec) return S(0.0);
    return rec->contact.dist - rec->params().margin - (id.surface == 1 ? cfd_width() : 0.0);
  }
  SG_HD double event_rate(const S* y, const EventId& id) const {
    const ContactRecord<S>* rec = find_record(y, ContactKey{id.a, id.b, id.feature});
    if (!rec) return 0.0;
    const BodyState<S>* states = solver_.states();
    return value(row_velocity(row_along(states, *rec, rec->contact.frame[0]), states));
  }

 private:
  // The simulated model's switch for `id` at y.
  SG_HD EventId apply_model_event(const S* y, const EventId& id) const {
    const TapePause<S> values_only(true);  // a new mode: no derivatives
    const ContactKey key{id.a, id.b, id.feature};
    const int e = mode_.find(key);
    EventId done = id;
    if (id.row >= 0) return flip_row(mode_, e, id);
    const bool cfd = forward_cfd();
    BodyVelocity<S> acc[kMaxBodies];
    if (e < 0) {
      mode_.add(key, cfd ? ContactLevel::band : ContactLevel::contact);
      done.kind = EventKind::onset;
      done.surface = cfd ? 1 : 0;
    } else {
      ModeEntry& entry = mode_.entries[e];
      switch (entry.level) {
        case ContactLevel::band:
          done.surface = id.kind == EventKind::onset ? 0 : 1;
          if (id.kind == EventKind::onset) {
            entry.level = ContactLevel::contact;
          } else {
            mode_.remove(e);
          }
          break;
        case ContactLevel::contact:
          done.kind = EventKind::separation;
          done.surface = 0;
          if (cfd) {
            entry.level = ContactLevel::band;
          } else {
            mode_.remove(e);
          }
          break;
        case ContactLevel::grazing:
          if (id.kind == EventKind::press) {  // continuous: the full force is what acts at s = 1
            entry.level = ContactLevel::contact;
            return done;
          }
          done.kind = EventKind::lift;
          mode_.remove(e);
          newton_over_mode(y, nullptr, acc);
          return done;
      }
    }
    newton_over_mode(y, nullptr, acc);
    if (!cfd) maybe_graze(y, key, &done);
    return done;
  }

  // ---- A straight-through CFD surrogate held in a mode of its own (docs/engine.md, "Straight-through
  // CFD"): its rows switch on and off, and contacts enter and leave its band, where the simulated model
  // does not switch; its tangents' field is smooth only between those switches, so they end steps too.
  SG_HD bool surrogate_held() const {
    const CfdParams<S>& cfd = model_->cfd;
    return frozen_ && cfd.enabled && cfd.straight_through && cfd.surrogate_events;
  }
  SG_HD ModeLaws surrogate_laws() const {
    return ModeLaws{true, value(model_->cfd.solimp[2]), kLookahead, true};
  }

  // The surrogate's accelerations in its mode on the contacts just collected; margins to the tracker.
  SG_HD void surrogate_accelerations(BodyVelocity<S>* acc, bool derivatives) const {
    const TapePause<S> values_only(!derivatives);
    free_accelerations(*model_, mass_, solver_.states(), interval_, acc);
    solver_.solve_mode(surrogate_, surrogate_laws(), tracker_, acc, derivatives);
  }

  // The surrogate's mode at y: touching at r <= 0 (where the simulated model's contacts act), band out to
  // the CFD width, Newton's active set.
  SG_HD void surrogate_from_state(const S* y) const {
    surrogate_.count = 0;
    const ModeLaws l = surrogate_laws();
    const int nc = solver_.collect(y, l.width + kLookahead);
    for (int i = 0; i < nc; ++i) {
      const ContactRecord<S>& rec = solver_.record(i);
      const double r = value(rec.contact.dist) - rec.params().margin;
      if (r < l.width && surrogate_.find(key_of(rec)) < 0)
        surrogate_.add(key_of(rec), r <= 0.0 ? ContactLevel::contact : ContactLevel::band);
    }
    newton_over_surrogate(y);
  }

  SG_HD void newton_over_surrogate(const S* y) const {
    const TapePause<S> values_only(true);
    BodyVelocity<S> acc[kMaxBodies];
    solver_.collect(y, value(model_->cfd.solimp[2]) + kLookahead);
    free_accelerations(*model_, mass_, solver_.states(), interval_, acc);
    solver_.newton_over_mode(surrogate_, surrogate_laws(), nullptr, acc);
  }

  // A switch of the surrogate's own: a row, or a contact entering or leaving the band at its outer edge.
  SG_HD EventId apply_surrogate_event(const S* y, const EventId& id) const {
    const ContactKey key{id.a, id.b, id.feature};
    const int e = surrogate_.find(key);
    if (id.row >= 0) return flip_row(surrogate_, e, id);
    EventId done = id;
    if (e < 0) {
      surrogate_.add(key, ContactLevel::band);
      done.kind = EventKind::onset;
    } else {
      surrogate_.remove(e);
      done.kind = EventKind::separation;
    }
    newton_over_surrogate(y);
    return done;
  }

  // The simulated model's contact starts or stops acting at r = 0: the surrogate's switches from its band to
  // the contact's laws there, or back.
  SG_HD void follow_model_event(const S* y, const EventId& done) const {
    const bool touching = done.kind == EventKind::onset || done.kind == EventKind::graze;
    if (!touching && done.kind != EventKind::separation && done.kind != EventKind::lift) return;
    const ContactKey key{done.a, done.b, done.feature};
    const ContactLevel level = touching ? ContactLevel::contact : ContactLevel::band;
    const int e = surrogate_.find(key);
    if (e < 0) {
      surrogate_.add(key, level);
    } else {
      surrogate_.entries[e].level = level;
    }
    newton_over_surrogate(y);
  }

  static constexpr double kLookahead = 1e-3;  // see ModeLaws::lookahead
  // The length scale that classifies contact crossings (maybe_graze), as an absolute and a relative part:
  // a crossing whose free hop stays below kCrossingScale (1 + |pos|) is tangential, one below kGrazeFraction
  // of that starts the grazing mode at a two-fold. Fixed, not the integrator's tolerance: the tangential
  // policy and the grazing mode decide which hybrid system is integrated and differentiated, and every
  // tolerance must integrate the same one. With the tolerance as the scale (until issue #41) billiards'
  // post-impact hops of 1e-8 to 1e-7 m got no saltation at rtol 1e-6 (49 of 51 crossings at u0 = 0.25)
  // and a hop of 1.3e-9 m landed in the grazing mode without one: AD was off from
  // tight FD by a median 26% at rtol 1e-6 and 2.6% at 1e-8 with the very same located events, 0.016% and
  // 0.002% with this scale (docs/engine.md, "Contact events"). 1e-10 is the classification that was right
  // at rtol 1e-10; the hops it resolves cost billiards no extra steps at rtol 1e-6.
  static constexpr double kCrossingScale = 1e-10;
  // Hops lower than this fraction of the crossing scale become grazing: far below any hop that changes the
  // friction history measurably (a struck ball's micrometre hop must not be averaged away).
  static constexpr double kGrazeFraction = 1e-3;

  SG_HD bool forward_cfd() const { return model_->cfd.enabled && !model_->cfd.straight_through; }
  SG_HD double cfd_width() const { return forward_cfd() ? value(model_->cfd.solimp[2]) : 0.0; }
  SG_HD double cfd_band(bool with_cfd) const { return with_cfd ? value(model_->cfd.solimp[2]) : 0.0; }
  SG_HD ModeLaws laws() const { return ModeLaws{forward_cfd(), cfd_width(), kLookahead}; }

  // How far out the simulated model collects contacts: its own laws (and the frozen mode's look-ahead), and
  // in a straight-through dual run the CFD width too, so that the surrogate reuses the same contacts.
  SG_HD double collection_band(bool with_cfd) const {
    double band = frozen_ ? cfd_width() + kLookahead : cfd_band(with_cfd);
    if ((has_derivatives_v<S> || frozen_) && model_->cfd.enabled && model_->cfd.straight_through) {
      const double width = value(model_->cfd.solimp[2]) + (frozen_ ? kLookahead : 0.0);
      if (width > band) band = width;
    }
    return band;
  }

  // The simulated model's accelerations: the frozen mode's, or MuJoCo's rules.
  SG_HD void simulated_accelerations(const S* y, bool with_cfd, BodyVelocity<S>* acc,
                                     bool derivatives) const {
    solver_.collect(y, collection_band(with_cfd));  // recorded: a straight-through surrogate reuses it
    // Values only: nothing on a reverse-mode tape (a straight-through run's tape held 80% such nodes).
    const TapePause<S> values_only(!derivatives);
    free_accelerations(*model_, mass_, solver_.states(), interval_, acc);
    if (frozen_) {
      solver_.solve_mode(mode_, laws(), tracker_, acc, derivatives);
    } else {
      solver_.solve_rules(with_cfd, cfd_band(with_cfd), acc, with_cfd ? 1 : 0);
    }
  }

  SG_HD const ContactRecord<S>* find_record(const S* y, const ContactKey& key) const {
    solver_.collect(y, cfd_width() + kLookahead);
    return solver_.find(key);
  }

  // Newton's solution at y with the mode's contacts (except skip); the rows' activity goes into the mode.
  SG_HD void newton_over_mode(const S* y, const ContactKey* skip, BodyVelocity<S>* acc) const {
    solver_.collect(y, cfd_width() + kLookahead);
    free_accelerations(*model_, mass_, solver_.states(), interval_, acc);
    solver_.newton_over_mode(mode_, laws(), skip, acc);
  }

  // After an onset or a separation at the plain boundary: a crossing so slow that the free hop it starts or
  // ends stays below the crossing scale (kCrossingScale) is tangential; at a two-fold (the free motion falls
  // back, the contact pushes out) a hop far below it starts the grazing mode.
  SG_HD void maybe_graze(const S* y, const ContactKey& key, EventId* done) const {
    const ContactRecord<S>* found = find_record(y, key);
    if (!found) return;
    const ContactRecord<S> rec = *found;
    const BodyState<S>* states = solver_.states();
    const ConstraintRow<S> normal = row_along(states, rec, rec.contact.frame[0]);
    const double vn = value(row_velocity(normal, states));
    const double pos = value(norm(states[key.b].pos));
    BodyVelocity<S> with[kMaxBodies], without[kMaxBodies];
    const bool was_on = mode_.find(key) >= 0;
    if (!was_on) mode_.add(key, ContactLevel::contact);
    newton_over_mode(y, &key, without);
    newton_over_mode(y, nullptr, with);
    const double a_free = value(row_times_bodies(normal, without));
    const double a_contact = value(row_times_bodies(normal, with));
    const bool two_fold = a_free < 0.0 && a_contact > 0.0;
    // The height of the free hop this crossing starts or ends: the same for a take-off and its landing.
    const double height = vn * vn / (2.0 * std::fabs(a_free));
    const double scale = kCrossingScale * (1.0 + pos);
    done->tangential = height <= scale;
    const int e = mode_.find(key);
    if (two_fold && height <= kGrazeFraction * scale) {
      mode_.entries[e].level = ContactLevel::grazing;
      done->kind = EventKind::graze;
    } else if (!was_on) {
      mode_.remove(e);
      newton_over_mode(y, nullptr, with);
    }
  }

  const RigidModel<S>* model_;
  RigidMass<S> mass_;
  PairTable<S> pairs_;
  RigidContactSolver<S> solver_;
  // Mutable: the integrators hold the system const and tell it where it is and which mode holds.
  mutable HardScratch<S> hard_;
  mutable long interval_ = 0;
  mutable bool frozen_ = false;
  mutable ContactMode<kMaxRigidContacts> mode_;
  mutable ContactMode<kMaxRigidContacts> surrogate_;
  mutable MarginTracker tracker_;
};

}  // namespace sg
