// MuJoCo's mass, inertia and A_hat (body_invweight0) for each primitive against ours: the trajectories can
// only agree if the bodies do.
#include <doctest/doctest.h>

#include "tests/mujoco/comparison_scenes.hpp"
#include "tests/mujoco/mujoco_scene.hpp"

#include "engine/model/rigid_system.hpp"

using namespace sg;
using namespace sg::mjcmp;

namespace {

RigidModel<double> one_body(GeomType shape, Vec3<double> size, double density, double mass) {
  RigidModel<double> m;
  m.count = 1;
  m.bodies[0].shape = shape;
  m.bodies[0].size = size;
  m.bodies[0].density = density;
  m.bodies[0].mass = mass;
  m.bodies[0].pos = {0.0, 0.0, 1.0};
  return m;
}

}  // namespace

TEST_CASE("mass and principal inertia of every primitive match MuJoCo's body_mass and body_inertia") {
  struct Case {
    GeomType shape;
    Vec3<double> size;
    double density, mass;
  };
  const Case cases[] = {
      {GeomType::sphere, {0.1, 0.1, 0.1}, 1000.0, 0.0},
      {GeomType::sphere, {0.042, 0.042, 0.042}, 1000.0, 0.17},
      {GeomType::box, {0.05, 0.05, 0.05}, 100.0, 0.0},
      {GeomType::box, {0.1, 0.05, 0.02}, 700.0, 0.0},
      {GeomType::capsule, {0.05, 0.07, 0.0}, 50.0, 0.0},
      {GeomType::cylinder, {0.04, 0.05, 0.0}, 100.0, 0.0},
      {GeomType::ellipsoid, {0.05, 0.05, 0.1}, 200.0, 0.0},
      {GeomType::ellipsoid, {0.03, 0.05, 0.1}, 200.0, 0.0},
  };
  for (const Case& c : cases) {
    CAPTURE(geom_type_name(c.shape));
    CAPTURE(c.size.x);
    const RigidModel<double> model = one_body(c.shape, c.size, c.density, c.mass);
    const RigidSystem<double> sys(&model, 0.01);
    auto sim = make_mujoco(model, 0.01);
    // Same closed-form formulas on both sides: agreement to rounding (relative 1e-12).
    CHECK(sys.mass(0) == doctest::Approx(sim->m->body_mass[1]).epsilon(1e-12));
    for (int k = 0; k < 3; ++k)
      CHECK(sys.inertia(0)[k] == doctest::Approx(sim->m->body_inertia[3 + k]).epsilon(1e-12));
    // Our A_hat for a normal row is 1/m; MuJoCo's is body_invweight0[0], the mean translational inverse
    // inertia at qpos0, which is 1/m for a free body whose centre of mass is its origin.
    CHECK(1.0 / sys.mass(0) == doctest::Approx(sim->m->body_invweight0[2]).epsilon(1e-12));
  }
}
