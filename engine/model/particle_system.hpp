#pragma once
// The particle model as a dynamical system the integrators can step: ODE right-hand side for force-based
// contact (penalty, MuJoCo), and whole-step maps for the impulse models (elastic impact inside semi-implicit
// Euler; hard contact inside Moreau midpoint stepping). State y = [q (3n), v (3n)].
//
// For the adaptive solvers it is a hybrid system (engine/integrate/events.hpp): the mode says, per particle,
// whether its contact acts and, for MuJoCo's contact, whether the force's max(0, .) is on its positive piece.
// With the mode frozen the force laws are continued past their switches, and each evaluation reports the
// margins: the signed distance (contact off) or its negative (on), and the unclamped force (row on) or its
// negative (off).
#include "engine/contact/elastic_impact.hpp"
#include "engine/contact/gauss_seidel.hpp"
#include "engine/contact/mujoco_soft.hpp"
#include "engine/contact/penalty.hpp"
#include "engine/integrate/events.hpp"
#include "engine/model/particle_model.hpp"

namespace sg {

// What a particle system carries from one step to the next (its mode), for checkpoints; the same for every
// scalar, so that a double run's checkpoints restore a taped run.
struct ParticleMemo {
  bool frozen;
  bool in_contact[kMaxParticles];
  bool row_on[kMaxParticles];
  MarginTracker tracker;
};

template <class S>
struct ParticleSystem {
  using Scalar = S;
  static constexpr int kMaxDim = ParticleModel<S>::kMaxDim;

  static constexpr bool kFoldsState = false;  // the state needs no re-parametrisation after a step
  static constexpr bool kHybrid = true;

  const ParticleModel<S>* model;
  double timestep;  // the fixed step, for MuJoCo's refsafe

  // The hybrid mode (mutable: the solvers hold the system const and tell it where it is).
  mutable bool frozen = false;
  mutable bool in_contact[kMaxParticles] = {};
  mutable bool row_on[kMaxParticles] = {};
  mutable MarginTracker tracker;

  using Memo = ParticleMemo;
  SG_HD Memo memo() const {
    Memo m{frozen, {}, {}, tracker};
    for (int i = 0; i < kMaxParticles; ++i) {
      m.in_contact[i] = in_contact[i];
      m.row_on[i] = row_on[i];
    }
    return m;
  }
  SG_HD void restore(const Memo& m) const {
    frozen = m.frozen;
    tracker = m.tracker;
    for (int i = 0; i < kMaxParticles; ++i) {
      in_contact[i] = m.in_contact[i];
      row_on[i] = m.row_on[i];
    }
  }

  SG_HD void begin_interval(long) const {}
  SG_HD bool forces_change_at(long) const { return false; }  // particles have no timed forces
  SG_HD void after_accept(S*) const {}

  SG_HD int dim() const { return model->dim(); }

  SG_HD void initial_state(S* y) const {
    const int n = model->count;
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        y[3 * i + k] = model->particles[i].pos[k];
        y[3 * n + 3 * i + k] = model->particles[i].vel[k];
      }
  }

  // Position (0) or velocity (1) coordinate of a particle, for losses.
  SG_HD S coordinate(const S* y, int quantity, int body, int axis) const {
    return y[3 * body + axis + (quantity == 0 ? 0 : model->nq())];
  }

  // Signed distance of particle i to the plane (negative: penetrating).
  SG_HD S distance(const S* q, int i) const {
    return q[3 * i + 2] - (model->plane_height + model->particles[i].radius);
  }

  // Normal force on particle i from the force-based contact models (zero for impulse models).
  SG_HD S normal_force(const S* q, const S* v, int i) const {
    const ParticleModel<S>& m = *model;
    if (!m.plane_enabled) return S(0.0);
    const S r = distance(q, i);
    const S vn = v[3 * i + 2];
    switch (m.contact) {
      case ContactModel::penalty:
        if (frozen) return frozen_penalty_force(r, vn, i);
        return penalty_normal_force(m.penalty.k, m.penalty.c, r, vn);
      case ContactModel::mujoco: {
        if (frozen) return frozen_mujoco_force(r, vn, i);
        return mujoco_contact_force(m.mujoco.solref, m.mujoco.solimp, m.mujoco.refsafe, timestep, r, vn,
                                    m.gravity.z, inverse_mass(i))
            .force;
      }
      case ContactModel::hard: {  // the impulse a Moreau step from here would apply, as an average force
        S vfree[3];
        for (int k = 0; k < 3; ++k) vfree[k] = v[3 * i + k] + timestep * m.gravity[k];
        const S before = vfree[2];
        apply_hard_contact(q, vfree, i);
        return m.particles[i].mass * (vfree[2] - before) / timestep;
      }
      default:
        return S(0.0);
    }
  }

  SG_HD void acceleration(const S* q, const S* v, S* a) const {
    const ParticleModel<S>& m = *model;
    for (int i = 0; i < m.count; ++i) {
      a[3 * i + 0] = m.gravity.x;
      a[3 * i + 1] = m.gravity.y;
      a[3 * i + 2] = m.gravity.z + normal_force(q, v, i) / m.particles[i].mass;
    }
  }

  // ODE right-hand side: q' = v, v' = a(q, v).
  SG_HD SG_NOINLINE void rhs(const S* y, S* ydot) const {
    const int nq = model->nq();
    tracker.begin();
    for (int i = 0; i < nq; ++i) ydot[i] = y[nq + i];
    acceleration(y, y + nq, ydot + nq);
  }

  // The hybrid interface (engine/integrate/events.hpp). Only the ODE contact models switch.
  SG_HD bool switches() const {
    return model->plane_enabled &&
           (model->contact == ContactModel::penalty || model->contact == ContactModel::mujoco);
  }
  SG_HD void set_frozen(bool on) const { frozen = on && switches(); }
  SG_HD MarginTracker& margins() const { return tracker; }
  SG_HD bool saltation_applies() const { return true; }

  SG_HD void mode_from_state(const S* y) const {
    if (!frozen) return;
    const int nq = model->nq();
    for (int i = 0; i < model->count; ++i) {
      in_contact[i] = distance(y, i) < 0.0;
      row_on[i] = in_contact[i] && unclamped_mujoco_force(distance(y, i), y[nq + 3 * i + 2], i) > 0.0;
    }
  }

  SG_HD double margin_at(const S* y, EventId* which) const {
    S ydot[kMaxDim];
    rhs(y, ydot);
    *which = tracker.last_witness;
    return tracker.last;
  }

  SG_HD EventId apply_event(const S* y, const EventId& id) const {
    const int i = id.b;
    EventId done = id;
    if (id.row < 0) {
      in_contact[i] = !in_contact[i];
      done.kind = in_contact[i] ? EventKind::onset : EventKind::separation;
      if (in_contact[i])
        row_on[i] = unclamped_mujoco_force(distance(y, i), y[model->nq() + 3 * i + 2], i) > 0.0;
    } else {
      row_on[i] = !row_on[i];
      done.kind = row_on[i] ? EventKind::row_on : EventKind::row_off;
    }
    return done;
  }

  // The switching function of a contact event and its rate of change (the normal velocity).
  SG_HD S event_value(const S* y, const EventId& id) const { return distance(y, id.b); }
  SG_HD double event_rate(const S* y, const EventId& id) const {
    return value(y[model->nq() + 3 * id.b + 2]);
  }

  // Semi-implicit Euler (MuJoCo's "Euler"): v += h a(q, v); q += h v. Elastic impacts happen inside it.
  template <class H>
  SG_HD void step_euler(S* y, const H& h) const {
    const int nq = model->nq();
    S a[kMaxDim / 2];
    acceleration(y, y + nq, a);
    for (int i = 0; i < nq; ++i) y[nq + i] += h * a[i];
    const bool elastic = model->contact == ContactModel::elastic && model->plane_enabled;
    for (int i = 0; i < model->count; ++i)
      for (int k = 0; k < 3; ++k) {
        S& x = y[3 * i + k];
        S& v = y[nq + 3 * i + k];
        if (elastic && k == 2) {
          const S ground = model->plane_height + model->particles[i].radius;
          elastic_impact_step(x, v, ground, model->elastic.restitution, model->elastic.toi, value(h));
        } else {
          x += h * v;
        }
      }
  }

  // Moreau midpoint step: forces at q_mid = q + h/2 v; hard contact impulses by Gauss-Seidel;
  // q+ = q + h/2 (v + v+).
  template <class H>
  SG_HD void step_moreau(S* y, const H& h) const {
    const ParticleModel<S>& m = *model;
    const int nq = m.nq();
    S qmid[kMaxDim / 2], a[kMaxDim / 2], vnew[kMaxDim / 2];
    for (int i = 0; i < nq; ++i) qmid[i] = y[i] + 0.5 * h * y[nq + i];
    acceleration(qmid, y + nq, a);
    for (int i = 0; i < nq; ++i) vnew[i] = y[nq + i] + h * a[i];
    if (m.contact == ContactModel::hard && m.plane_enabled) {
      // Particles touch only the plane, so their contacts decouple: one 3-row problem each.
      for (int i = 0; i < m.count; ++i) apply_hard_contact(qmid, vnew + 3 * i, i);
    }
    for (int i = 0; i < nq; ++i) {
      y[i] = y[i] + 0.5 * h * (y[nq + i] + vnew[i]);
      y[nq + i] = vnew[i];
    }
  }

 private:
  SG_HD S inverse_mass(int i) const { return 1.0 / model->particles[i].mass; }

  SG_HD S unclamped_mujoco_force(const S& r, const S& vn, int i) const {
    if (model->contact != ContactModel::mujoco) return S(1.0);
    const MujocoParams<S>& mj = model->mujoco;
    return mujoco_contact_row(mj.solref, mj.solimp, mj.refsafe, timestep, r, vn, model->gravity.z,
                              inverse_mass(i))
        .force;
  }

  SG_HD static EventId contact_id(int i, int row, EventKind kind) {
    EventId id;
    id.kind = kind;
    id.b = i;
    id.row = row;
    return id;
  }
  // The contact's distance margin: free, it acts once the distance falls below 0; acting, it stops above.
  SG_HD void note_contact(const S& r, int i) const {
    tracker.note(value(in_contact[i] ? S(-r) : r),
                 contact_id(i, -1, in_contact[i] ? EventKind::separation : EventKind::onset));
  }

  // The penalty law while the mode holds the contact on, continued past r = 0; the margin is the distance.
  SG_HD S frozen_penalty_force(const S& r, const S& vn, int i) const {
    note_contact(r, i);
    if (!in_contact[i]) return S(0.0);
    return -model->penalty.k * r - model->penalty.c * vn;
  }

  SG_HD S frozen_mujoco_force(const S& r, const S& vn, int i) const {
    note_contact(r, i);
    if (!in_contact[i]) return S(0.0);
    const S f = unclamped_mujoco_force(r, vn, i);
    tracker.note(value(row_on[i] ? f : S(-f)),
                 contact_id(i, 0, row_on[i] ? EventKind::row_off : EventKind::row_on));
    return row_on[i] ? f : S(0.0);
  }

  // vfree: the particle's velocity after the step's forces, replaced by the velocity after the impulse.
  SG_HD void apply_hard_contact(const S* qmid, S* vfree, int i) const {
    const ParticleModel<S>& m = *model;
    GaussSeidelProblem<S, 1> pb;
    pb.nc = 1;
    const S inv_mass = 1.0 / m.particles[i].mass;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) pb.G[a][b] = a == b ? inv_mass : S(0.0);
    // Contact frame (normal z, tangents x and y): c = J v_free.
    pb.c[0] = vfree[2];
    pb.c[1] = vfree[0];
    pb.c[2] = vfree[1];
    pb.depth[0] = -distance(qmid, i);
    pb.mu[0] = m.hard.friction;
    S p[3];
    solve_gauss_seidel(pb, m.hard.kappa, m.hard.iterations, p);
    vfree[2] += inv_mass * p[0];
    vfree[0] += inv_mass * p[1];
    vfree[1] += inv_mass * p[2];
  }
};

}  // namespace sg
