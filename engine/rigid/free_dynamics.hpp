#pragma once
// The bodies' motion without contact: mass properties, the states decoded from the ODE state, and the
// accelerations from gravity, damping, timed forces and the gyroscopic term (MuJoCo's free-joint conventions:
// linear velocity in the world frame, angular velocity in the body frame).
#include "engine/rigid/body_state.hpp"

namespace sg {

template <class S>
struct RigidMass {
  S mass[kMaxBodies];
  Vec3<S> inertia[kMaxBodies];
  InverseMass<S> inverse[kMaxBodies];

  SG_HD explicit RigidMass(const RigidModel<S>& model) {
    for (int i = 0; i < model.count; ++i) {
      const BodyMass<S> bm = body_mass(model.bodies[i]);
      mass[i] = bm.mass;
      inertia[i] = bm.inertia;
      inverse[i] = bm.inverse;
    }
  }
};

template <class S>
SG_HD inline void decode_states(const RigidModel<S>& model, const S* y, BodyState<S>* states) {
  for (int b = 0; b < model.count; ++b) states[b] = decode_body(y, b);
}

// interval: the output step the solver is in (timed forces act during chosen ones).
template <class S>
SG_HD inline void free_accelerations(const RigidModel<S>& m, const RigidMass<S>& mass,
                                     const BodyState<S>* states, long interval, BodyVelocity<S>* acc) {
  for (int b = 0; b < m.count; ++b) {
    const RigidBody<S>& body = m.bodies[b];
    const BodyState<S>& st = states[b];
    Vec3<S> force = m.gravity * mass.mass[b] - st.vel * body.damping;
    Vec3<S> torque_world;
    for (int k = 0; k < body.force_count; ++k) {
      const TimedForce<S>& tf = body.forces[k];
      if (interval < tf.from_step || interval >= tf.to_step) continue;
      force += tf.force;
      torque_world += tf.torque;
    }
    const Vec3<S>& w = st.angvel;
    const Vec3<S>& inertia = mass.inertia[b];
    const Vec3<S> Iw(inertia.x * w.x, inertia.y * w.y, inertia.z * w.z);
    const Vec3<S> torque = mul_transpose(st.rot, torque_world) - cross(w, Iw) - w * body.damping;
    const InverseMass<S>& inv = mass.inverse[b];
    acc[b].lin = force * inv.inv_mass;
    acc[b].ang = {torque.x * inv.inv_inertia.x, torque.y * inv.inv_inertia.y, torque.z * inv.inv_inertia.z};
  }
}

}  // namespace sg
