#pragma once
// The particle model: point masses (with an optional radius) moving in 3-D against a ground plane
// z = height. Plain data, trivially copyable, fixed capacity: a model can be copied per sweep point,
// converted between scalar types, and later shipped to a GPU without pointers.
#include <string>

#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr int kMaxParticles = 16;

enum class ContactModel : unsigned char { none, penalty, mujoco, elastic, hard };

template <class S>
struct Particle {
  S mass = 1.0;
  S radius = 0.0;
  Vec3<S> pos;  // initial position
  Vec3<S> vel;  // initial velocity
};

// f = k pen - c v_n while penetrating.
template <class S>
struct PenaltyParams {
  S k = 50.0;
  S c = 1.0;
};

// MuJoCo's soft constraint (engine-notes section 1), frictionless.
template <class S>
struct MujocoParams {
  S solref[2] = {0.02, 1.0};
  S solimp[5] = {0.9, 0.95, 0.001, 0.5, 2.0};
  bool refsafe = true;
};

// Ideal impact with restitution; toi = true moves the position with the time of impact (DiffTaichi).
template <class S>
struct ElasticParams {
  S restitution = 1.0;
  bool toi = false;
};

// Hard contact by Moreau time stepping and Gauss-Seidel, smoothed by sigmoid(kappa d); kappa = inf is hard.
template <class S>
struct HardParams {
  S kappa = kInf;
  int iterations = 10;
  S friction = 0.0;
};

template <class S>
struct ParticleModel {
  Vec3<S> gravity{0.0, 0.0, -9.81};
  bool plane_enabled = true;
  S plane_height = 0.0;
  int count = 1;
  Particle<S> particles[kMaxParticles];

  ContactModel contact = ContactModel::penalty;
  PenaltyParams<S> penalty;
  MujocoParams<S> mujoco;
  ElasticParams<S> elastic;
  HardParams<S> hard;

  // State layout for the solvers: y = [q (3 per particle), v (3 per particle)].
  static constexpr int kMaxDim = 6 * kMaxParticles;
  SG_HD int dim() const { return 6 * count; }
  SG_HD int nq() const { return 3 * count; }
};

// Copies a model into another scalar type (double -> Dual: all derivatives zero).
template <class T, class S>
ParticleModel<T> convert_model(const ParticleModel<S>& m) {
  ParticleModel<T> r;
  auto cv = [](const S& x) { return T(value(x)); };
  auto cv3 = [&](const Vec3<S>& v) { return Vec3<T>(cv(v.x), cv(v.y), cv(v.z)); };
  r.gravity = cv3(m.gravity);
  r.plane_enabled = m.plane_enabled;
  r.plane_height = cv(m.plane_height);
  r.count = m.count;
  for (int i = 0; i < m.count; ++i) {
    r.particles[i].mass = cv(m.particles[i].mass);
    r.particles[i].radius = cv(m.particles[i].radius);
    r.particles[i].pos = cv3(m.particles[i].pos);
    r.particles[i].vel = cv3(m.particles[i].vel);
  }
  r.contact = m.contact;
  r.penalty = {cv(m.penalty.k), cv(m.penalty.c)};
  for (int i = 0; i < 2; ++i) r.mujoco.solref[i] = cv(m.mujoco.solref[i]);
  for (int i = 0; i < 5; ++i) r.mujoco.solimp[i] = cv(m.mujoco.solimp[i]);
  r.mujoco.refsafe = m.mujoco.refsafe;
  r.elastic = {cv(m.elastic.restitution), m.elastic.toi};
  r.hard = {cv(m.hard.kappa), m.hard.iterations, cv(m.hard.friction)};
  return r;
}

// Calls f(path, S&) for every differentiable scalar of the model, with the scene file's dotted path.
// The sweep uses this to seed the swept parameter's tangent.
template <class S, class F>
void visit_model_params(ParticleModel<S>& m, F&& f) {
  static const char* axis[3] = {"0", "1", "2"};
  for (int k = 0; k < 3; ++k) f(std::string("model.gravity.") + axis[k], m.gravity[k]);
  f("model.plane.height", m.plane_height);
  for (int i = 0; i < m.count; ++i) {
    const std::string p = "model.particles." + std::to_string(i) + ".";
    f(p + "mass", m.particles[i].mass);
    f(p + "radius", m.particles[i].radius);
    for (int k = 0; k < 3; ++k) f(p + "pos." + axis[k], m.particles[i].pos[k]);
    for (int k = 0; k < 3; ++k) f(p + "vel." + axis[k], m.particles[i].vel[k]);
  }
  f("contact.penalty.k", m.penalty.k);
  f("contact.penalty.c", m.penalty.c);
  for (int k = 0; k < 2; ++k) f("contact.mujoco.solref." + std::to_string(k), m.mujoco.solref[k]);
  for (int k = 0; k < 5; ++k) f("contact.mujoco.solimp." + std::to_string(k), m.mujoco.solimp[k]);
  f("contact.elastic.restitution", m.elastic.restitution);
  f("contact.hard.kappa", m.hard.kappa);
  f("contact.hard.friction", m.hard.friction);
}

}  // namespace sg
