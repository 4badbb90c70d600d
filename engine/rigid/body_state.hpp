#pragma once
// Where a rigid body is and how it moves, decoded from the ODE state, and its mass properties.
#include "engine/contact/constraint_rows.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"
#include "engine/model/rigid_model.hpp"
#include "engine/rigid/inertia.hpp"
#include "engine/rigid/rotation.hpp"

namespace sg {

template <class S>
struct BodyState {
  Vec3<S> pos;
  Quat<S> quat;
  Mat3<S> rot;
  Vec3<S> vel, angvel;
};

// ODE state per body: pos (3), quat (4, held fixed within a step), phi (3, the rotation accumulated in the
// step), v (3, world frame), w (3, body frame); the orientation is quat (x) exp(phi).
template <class S>
SG_HD inline BodyState<S> decode_body(const S* y, int b) {
  const S* s = y + RigidModel<S>::kStride * b;
  BodyState<S> st;
  st.pos = {s[0], s[1], s[2]};
  st.quat = Quat<S>(s[3], s[4], s[5], s[6]) * quat_exp(Vec3<S>(s[7], s[8], s[9]));
  st.rot = to_mat3(st.quat);
  st.vel = {s[10], s[11], s[12]};
  st.angvel = {s[13], s[14], s[15]};
  return st;
}

// Mass and principal inertia from shape and density, or scaled to a given mass; and their inverses.
template <class S>
struct BodyMass {
  S mass;
  Vec3<S> inertia;
  InverseMass<S> inverse;
};

template <class S>
SG_HD inline BodyMass<S> body_mass(const RigidBody<S>& body) {
  MassInertia<S> mi = geom_mass_inertia(body.shape, body.size, body.density);
  if (body.mass > 0.0) {  // a given mass scales the shape's inertia
    const S scale = body.mass / mi.mass;
    mi.mass = body.mass;
    mi.inertia = mi.inertia * scale;
  }
  return {mi.mass,
          mi.inertia,
          {1.0 / mi.mass, Vec3<S>(1.0 / mi.inertia.x, 1.0 / mi.inertia.y, 1.0 / mi.inertia.z)}};
}

}  // namespace sg
