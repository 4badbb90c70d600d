#pragma once
// The particle model as a dynamical system the integrators can step: ODE right-hand side for force-based
// contact (penalty, MuJoCo), and whole-step maps for the impulse models (elastic impact inside semi-implicit
// Euler; hard contact inside Moreau midpoint stepping). State y = [q (3n), v (3n)].
#include "engine/contact/elastic_impact.hpp"
#include "engine/contact/gauss_seidel.hpp"
#include "engine/contact/mujoco_soft.hpp"
#include "engine/contact/penalty.hpp"
#include "engine/model/particle_model.hpp"

namespace sg {

template <class S>
struct ParticleSystem {
  using Scalar = S;
  static constexpr int kMaxDim = ParticleModel<S>::kMaxDim;

  static constexpr bool kFoldsState = false;  // the state needs no re-parametrisation after a step

  const ParticleModel<S>* model;
  double timestep;  // the fixed step, for MuJoCo's refsafe

  SG_HD void begin_interval(long) const {}
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
        return penalty_normal_force(m.penalty.k, m.penalty.c, r, vn);
      case ContactModel::mujoco: {
        const S inv_mass = 1.0 / m.particles[i].mass;
        return mujoco_contact_force(m.mujoco.solref, m.mujoco.solimp, m.mujoco.refsafe, timestep, r, vn,
                                    m.gravity.z, inv_mass)
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
  SG_HD void rhs(const S* y, S* ydot) const {
    const int nq = model->nq();
    for (int i = 0; i < nq; ++i) ydot[i] = y[nq + i];
    acceleration(y, y + nq, ydot + nq);
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
