#pragma once
// The rigid-body model: free bodies, each with one primitive geom at its origin, against a ground plane
// and each other. Plain data with fixed capacity, like the particle model (copied per sweep point, converted
// between scalar types, GPU-ready).
#include <string>

#include "engine/collision/geom_type.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/contact/cfd.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"
#include "engine/model/particle_model.hpp"

namespace sg {

inline constexpr int kMaxBodies = 8;
inline constexpr int kMaxTimedForces = 4;

// Contact properties of a geom (MuJoCo's names); a pair combines two of them.
template <class S>
struct Surface {
  S friction = 1.0;  // sliding friction (torsional and rolling are not modelled: condim <= 3)
  S solref[2] = {0.02, 1.0};
  S solimp[5] = {0.9, 0.95, 0.001, 0.5, 2.0};
  int condim = 3;
  double margin = 0.0;
};

// A force and torque (world frame) applied during output steps from_step <= i < to_step.
template <class S>
struct TimedForce {
  Vec3<S> force, torque;
  int from_step = 0, to_step = 1;
};

template <class S>
struct RigidBody {
  GeomType shape = GeomType::sphere;
  Vec3<S> size{0.05, 0.05, 0.05};
  S density = 1000.0;
  S mass = 0.0;  // 0: from shape and density
  Vec3<S> pos;
  Vec3<S> euler_deg;  // initial orientation, MuJoCo's intrinsic xyz
  Vec3<S> vel;        // linear, world frame
  Vec3<S> angvel;     // body frame, as MuJoCo's free joint
  Surface<S> surface;
  S damping = 0.0;
  int force_count = 0;
  TimedForce<S> forces[kMaxTimedForces];
};

template <class S>
struct RigidModel {
  Vec3<S> gravity{0.0, 0.0, -9.81};
  bool plane_enabled = true;
  S plane_height = 0.0;
  Surface<S> plane;
  bool collide_bodies = true;
  int count = 0;
  RigidBody<S> bodies[kMaxBodies];

  ContactModel contact = ContactModel::mujoco;
  S impratio = 1.0;
  int iterations = 100;
  bool refsafe = true;
  CfdParams<S> cfd;
  HardParams<S> hard;     // contact.model "hard": kappa and Gauss-Seidel iterations (friction is per pair)
  double softness = 0.0;  // smooth collision detection (0: exact), or softjax's softness for diffmjx
  Detector detector = Detector::softgrad;  // collision.mode diffmjx: DiffMJX's soft box manifold
  // model.run_as "tree": runs as a joint tree of one free joint per body (engine/model/tree_from_rigid.hpp),
  // which also takes contact.mujoco.cone "elliptic".
  bool as_tree = false;
  bool elliptic = false;

  // ODE state per body: pos (3), quat (4, held fixed within a step), phi (3, rotation accumulated in the
  // step), v (3, world), w (3, body).
  static constexpr int kStride = 16;
  static constexpr int kMaxDim = kStride * kMaxBodies;
  SG_HD int dim() const { return kStride * count; }
};

template <class T, class S>
Surface<T> convert_surface(const Surface<S>& s) {
  Surface<T> r;
  r.friction = T(value(s.friction));
  for (int i = 0; i < 2; ++i) r.solref[i] = T(value(s.solref[i]));
  for (int i = 0; i < 5; ++i) r.solimp[i] = T(value(s.solimp[i]));
  r.condim = s.condim;
  r.margin = s.margin;
  return r;
}

template <class T, class S>
Vec3<T> convert_vec(const Vec3<S>& v) {
  return {T(value(v.x)), T(value(v.y)), T(value(v.z))};
}

template <class T, class S>
RigidModel<T> convert_model(const RigidModel<S>& m) {
  RigidModel<T> r;
  r.gravity = convert_vec<T>(m.gravity);
  r.plane_enabled = m.plane_enabled;
  r.plane_height = T(value(m.plane_height));
  r.plane = convert_surface<T>(m.plane);
  r.collide_bodies = m.collide_bodies;
  r.count = m.count;
  for (int i = 0; i < m.count; ++i) {
    const RigidBody<S>& b = m.bodies[i];
    RigidBody<T>& o = r.bodies[i];
    o.shape = b.shape;
    o.size = convert_vec<T>(b.size);
    o.density = T(value(b.density));
    o.mass = T(value(b.mass));
    o.pos = convert_vec<T>(b.pos);
    o.euler_deg = convert_vec<T>(b.euler_deg);
    o.vel = convert_vec<T>(b.vel);
    o.angvel = convert_vec<T>(b.angvel);
    o.surface = convert_surface<T>(b.surface);
    o.damping = T(value(b.damping));
    o.force_count = b.force_count;
    for (int k = 0; k < b.force_count; ++k)
      o.forces[k] = {convert_vec<T>(b.forces[k].force), convert_vec<T>(b.forces[k].torque),
                     b.forces[k].from_step, b.forces[k].to_step};
  }
  r.contact = m.contact;
  r.impratio = T(value(m.impratio));
  r.iterations = m.iterations;
  r.refsafe = m.refsafe;
  r.cfd = convert_cfd<T>(m.cfd);
  r.hard = {T(value(m.hard.kappa)), m.hard.iterations, T(value(m.hard.friction))};
  r.softness = m.softness;
  r.detector = m.detector;
  r.as_tree = m.as_tree;
  r.elliptic = m.elliptic;
  return r;
}

// Calls f(path, S&) for every differentiable scalar, with the scene file's dotted path.
template <class S, class F>
void visit_model_params(RigidModel<S>& m, F&& f) {
  auto vec = [&](const std::string& p, Vec3<S>& v) {
    for (int k = 0; k < 3; ++k) f(p + "." + std::to_string(k), v[k]);
  };
  auto surface = [&](const std::string& p, Surface<S>& s) {
    f(p + ".friction.0", s.friction);
    for (int k = 0; k < 2; ++k) f(p + ".solref." + std::to_string(k), s.solref[k]);
    for (int k = 0; k < 5; ++k) f(p + ".solimp." + std::to_string(k), s.solimp[k]);
  };
  vec("model.gravity", m.gravity);
  f("model.plane.height", m.plane_height);
  surface("model.plane", m.plane);
  for (int i = 0; i < m.count; ++i) {
    const std::string p = "model.bodies." + std::to_string(i);
    RigidBody<S>& b = m.bodies[i];
    vec(p + ".size", b.size);
    f(p + ".density", b.density);
    f(p + ".mass", b.mass);
    vec(p + ".pos", b.pos);
    vec(p + ".euler", b.euler_deg);
    vec(p + ".vel", b.vel);
    vec(p + ".angvel", b.angvel);
    surface(p, b.surface);
    f(p + ".damping", b.damping);
    for (int k = 0; k < b.force_count; ++k) {
      vec(p + ".forces." + std::to_string(k) + ".force", b.forces[k].force);
      vec(p + ".forces." + std::to_string(k) + ".torque", b.forces[k].torque);
    }
  }
  f("contact.mujoco.impratio", m.impratio);
  visit_cfd_params(m.cfd, f);
  f("contact.hard.kappa", m.hard.kappa);  // the schema's order: after contact.cfd
}

}  // namespace sg
