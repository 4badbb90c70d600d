#pragma once
// The scenes compared against MuJoCo, as RigidModel<double> (MuJoCo's XML is written from them). Each body
// and the plane get the same Surface, so MuJoCo's pair combination (average solref/solimp, max friction and
// condim) returns it unchanged on both sides.
#include "engine/model/rigid_model.hpp"

namespace sg::mjcmp {

struct ComparisonScene {
  RigidModel<double> model;
  double timestep = 0.01;
  long steps = 100;
};

inline void set_all_surfaces(RigidModel<double>& m, const Surface<double>& s) {
  m.plane = s;
  for (int i = 0; i < m.count; ++i) m.bodies[i].surface = s;
}

// (a) A 10 cm steel-density ball dropped from 40 cm onto a frictionless plane (condim 1), MuJoCo's default
// solref/solimp and timestep: free fall, impact at about 0.29 s, then the soft contact settles.
inline ComparisonScene sphere_drop() {
  ComparisonScene sc;
  sc.timestep = 0.002;
  sc.steps = 500;
  RigidModel<double>& m = sc.model;
  m.count = 1;
  m.bodies[0].shape = GeomType::sphere;
  m.bodies[0].size = {0.1, 0.1, 0.1};
  m.bodies[0].density = 1000.0;
  m.bodies[0].pos = {0.0, 0.0, 0.5};
  Surface<double> s;
  s.condim = 1;
  set_all_surfaces(m, s);
  m.iterations = 200;
  return sc;
}

// (b) A 5 cm ball launched along the plane (1 mm above it) with friction 0.5: it slides, friction spins it
// up, and it rolls from about t = 2 v0 / (7 mu g) = 0.12 s on.
inline ComparisonScene rolling_sphere() {
  ComparisonScene sc;
  sc.timestep = 0.002;
  sc.steps = 300;
  RigidModel<double>& m = sc.model;
  m.count = 1;
  m.bodies[0].shape = GeomType::sphere;
  m.bodies[0].size = {0.05, 0.05, 0.05};
  m.bodies[0].density = 1000.0;
  m.bodies[0].pos = {0.0, 0.0, 0.051};
  m.bodies[0].vel = {2.0, 0.5, 0.0};
  Surface<double> s;
  s.friction = 0.5;
  s.condim = 3;
  set_all_surfaces(m, s);
  m.iterations = 200;
  return sc;
}

// (c) DiffMJX's cube toss (engine-notes section 7) at v_z = -2: half-size 0.05, density 100, tilted 60 deg
// about x, gravity (0, 0, -2), solref (0.005, 1), solimp (0, 0.95, 0.001, 0.5, 2), refsafe off, 1 s.
inline ComparisonScene box_toss() {
  ComparisonScene sc;
  sc.timestep = 0.01;
  sc.steps = 100;
  RigidModel<double>& m = sc.model;
  m.gravity = {0.0, 0.0, -2.0};
  m.refsafe = false;
  m.count = 1;
  m.bodies[0].shape = GeomType::box;
  m.bodies[0].size = {0.05, 0.05, 0.05};
  m.bodies[0].density = 100.0;
  m.bodies[0].pos = {0.0, 0.0, 0.2};
  m.bodies[0].euler_deg = {60.0, 0.0, 0.0};
  m.bodies[0].vel = {0.0, -0.1, -2.0};
  Surface<double> s;  // MuJoCo's default friction 1 and condim 3
  s.solref[0] = 0.005;
  s.solref[1] = 1.0;
  const double solimp[5] = {0.0, 0.95, 0.001, 0.5, 2.0};
  for (int k = 0; k < 5; ++k) s.solimp[k] = solimp[k];
  set_all_surfaces(m, s);
  m.iterations = 200;
  return sc;
}

// (d) DiffMJX's billiards shot (engine-notes section 7) with u0 = 0: force (4, 0, 0) N on the cue ball during
// the first step, 300 steps of 0.01 s; both balls start resting on the table.
inline ComparisonScene billiards() {
  ComparisonScene sc;
  sc.timestep = 0.01;
  sc.steps = 300;
  RigidModel<double>& m = sc.model;
  m.plane_height = -0.015;
  m.count = 2;
  const double xs[2] = {-0.375, -0.2};
  for (int i = 0; i < 2; ++i) {
    RigidBody<double>& b = m.bodies[i];
    b.shape = GeomType::sphere;
    b.size = {0.042, 0.042, 0.042};
    b.mass = 0.17;
    b.pos = {xs[i], 0.0, 0.027};
  }
  m.bodies[0].force_count = 1;
  m.bodies[0].forces[0] = {{4.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0, 1};
  Surface<double> s;
  s.friction = 0.2;
  s.condim = 3;
  s.solref[0] = 0.01;
  s.solref[1] = 0.2;
  const double solimp[5] = {0.9, 0.95, 0.01, 0.5, 2.0};
  for (int k = 0; k < 5; ++k) s.solimp[k] = solimp[k];
  set_all_surfaces(m, s);
  m.iterations = 200;
  return sc;
}

// (f) MuJoCo's convex collider (MPR) between free bodies: a tilted cylinder dropped onto an ellipsoid lying
// on the plane, a ball dropped onto the cylinder, spun and thrown sideways so that they tumble over each
// other.
inline ComparisonScene convex_pile() {
  ComparisonScene sc;
  sc.timestep = 0.002;
  sc.steps = 600;
  RigidModel<double>& m = sc.model;
  m.count = 3;
  const GeomType shapes[3] = {GeomType::ellipsoid, GeomType::cylinder, GeomType::sphere};
  const Vec3<double> sizes[3] = {{0.08, 0.06, 0.05}, {0.04, 0.06, 0.0}, {0.03, 0.0, 0.0}};
  const Vec3<double> at[3] = {{0.0, 0.0, 0.0502}, {0.02, 0.01, 0.22}, {-0.02, 0.0, 0.4}};
  const Vec3<double> euler[3] = {{0.0, 0.0, 15.0}, {30.0, 20.0, 0.0}, {0.0, 0.0, 0.0}};
  for (int i = 0; i < 3; ++i) {
    RigidBody<double>& b = m.bodies[i];
    b.shape = shapes[i];
    b.size = sizes[i];
    b.density = 1000.0;
    b.pos = at[i];
    b.euler_deg = euler[i];
  }
  m.bodies[1].angvel = {2.0, -1.0, 3.0};
  m.bodies[2].vel = {0.3, 0.1, 0.0};
  Surface<double> s;
  s.friction = 0.6;
  set_all_surfaces(m, s);
  m.iterations = 200;
  return sc;
}

}  // namespace sg::mjcmp
