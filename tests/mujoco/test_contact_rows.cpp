// One constraint evaluation compared row by row with MuJoCo's mjData: contact geometry, efc_vel, efc_aref,
// efc_R and the normal force. Pins the one known difference in R for pyramidal rows.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/mujoco/comparison_scenes.hpp"
#include "tests/mujoco/mujoco_scene.hpp"

#include "engine/model/rigid_system.hpp"

using namespace sg;
using namespace sg::mjcmp;

namespace {

// A 2 kg-ish ball 0.3 mm into the plane, sinking at 0.3 m/s, sliding and spinning (engine-notes section 1's
// reference state plus a tangential motion).
RigidModel<double> penetrating_ball(int condim, double friction) {
  RigidModel<double> m;
  m.count = 1;
  RigidBody<double>& b = m.bodies[0];
  b.shape = GeomType::sphere;
  b.size = {0.1, 0.1, 0.1};
  b.mass = 2.0;
  b.pos = {0.0, 0.0, 0.1 - 3e-4};
  b.vel = {0.4, -0.2, -0.3};
  b.angvel = {1.0, 2.0, -3.0};
  Surface<double> s;
  s.condim = condim;
  s.friction = friction;
  set_all_surfaces(m, s);
  m.iterations = 200;
  return m;
}

struct OurRow {
  double dist, vel, aref, R;
};

// Row terms as rigid_system.hpp builds them (its rows are private): the public impedance and spring
// functions, A_hat = 1/m, R_py = 2 mu^2 R_n / impratio. dir = n + sign mu t for row `row` of a pyramid.
OurRow our_row(const RigidModel<double>& m, const Contact<double>& c, int row, double timestep) {
  const RigidBody<double>& b = m.bodies[0];
  const Surface<double>& s = b.surface;
  Vec3<double> dir = c.frame[0];
  if (s.condim == 3) dir = c.frame[0] + c.frame[1 + row / 2] * (row % 2 == 0 ? s.friction : -s.friction);
  const Vec3<double> lever = c.pos - b.pos;  // identity orientation: body frame = world frame
  const double vel = dot(dir, b.vel + cross(b.angvel, lever));
  const double d = mujoco_impedance(s.solimp, c.dist);
  const MujocoSpring<double> k = mujoco_spring(s.solref, s.solimp, m.refsafe, timestep);
  double R = (1.0 - d) / d / b.mass;
  const double mu2 = s.friction * s.friction;  // an edge n +- mu t has diagApprox (1 + mu^2)/m
  if (s.condim == 3) R = 2.0 * mu2 * (1.0 + mu2) * R / m.impratio;
  return {c.dist, vel, -k.B * vel - k.K * d * c.dist, R};
}

}  // namespace

TEST_CASE("sphere on plane: contact, efc_vel, efc_aref and efc_R and the condim 1 force match MuJoCo") {
  const double h = 0.002;
  const RigidModel<double> model = penetrating_ball(1, 1.0);
  auto sim = make_mujoco(model, h);
  mj_forward(sim->m, sim->d);
  RigidSystem<double> sys(&model, h);
  double y[RigidModel<double>::kMaxDim];
  sys.initial_state(y);
  Contact<double> c[4];
  REQUIRE(sys.contacts(y, c, 4, false) == 1);
  REQUIRE(sim->d->ncon == 1);
  REQUIRE(sim->d->nefc == 1);
  const mjContact& mc = sim->d->contact[0];
  // Geometry from the same formulas: rounding only (1e-15 m, 1e-15 for unit vectors).
  CHECK(std::fabs(c[0].dist - mc.dist) < 1e-15);
  for (int k = 0; k < 3; ++k) {
    CHECK(std::fabs(c[0].pos[k] - mc.pos[k]) < 1e-15);
    for (int f = 0; f < 3; ++f) CHECK(std::fabs(c[0].frame[f][k] - mc.frame[3 * f + k]) < 1e-15);
  }
  const OurRow row = our_row(model, c[0], 0, h);
  CHECK(row.dist == doctest::Approx(sim->d->efc_pos[0]).epsilon(1e-12));
  CHECK(row.vel == doctest::Approx(sim->d->efc_vel[0]).epsilon(1e-12));
  CHECK(row.aref == doctest::Approx(sim->d->efc_aref[0]).epsilon(1e-12));
  CHECK(row.R == doctest::Approx(sim->d->efc_R[0]).epsilon(1e-12));
  // A single row has a closed-form force on both sides (MuJoCo's Newton converges to it): relative 1e-9.
  CHECK(sys.contact_force(y, 0) == doctest::Approx(sim->d->efc_force[0]).epsilon(1e-9));
  CHECK(sim->d->efc_force[0] > 10.0);  // the contact really pushes (about 76 N at rest; more when sinking)
}

TEST_CASE("pyramidal rows: same directions, aref and R as MuJoCo") {
  const double h = 0.002;
  for (double mu : {0.2, 0.5, 1.0}) {
    CAPTURE(mu);
    const RigidModel<double> model = penetrating_ball(3, mu);
    auto sim = make_mujoco(model, h);
    mj_forward(sim->m, sim->d);
    RigidSystem<double> sys(&model, h);
    double y[RigidModel<double>::kMaxDim];
    sys.initial_state(y);
    Contact<double> c[4];
    REQUIRE(sys.contacts(y, c, 4, false) == 1);
    REQUIRE(sim->d->nefc == 4);
    double mujoco_normal = 0.0;
    for (int i = 0; i < 4; ++i) {
      CAPTURE(i);
      const OurRow row = our_row(model, c[0], i, h);
      // MuJoCo orders the edges n + mu t1, n - mu t1, n + mu t2, n - mu t2, as ours.
      CHECK(row.vel == doctest::Approx(sim->d->efc_vel[i]).epsilon(1e-12));
      CHECK(row.aref == doctest::Approx(sim->d->efc_aref[i]).epsilon(1e-12));
      // R of an edge, with MuJoCo's diagApprox (1 + mu^2)/m of an edge n +- mu t.
      CHECK(row.R == doctest::Approx(sim->d->efc_R[i]).epsilon(1e-12));
      mujoco_normal += sim->d->efc_force[i];  // each edge's normal component is its force
    }
    // The solved normal force agrees (relative 1e-9: both solvers converge the 4 coupled rows to round-off).
    RigidSystem<double> sys_matched(&model, h);
    CHECK(sys_matched.contact_force(y, 0) == doctest::Approx(mujoco_normal).epsilon(1e-9));
  }
}

TEST_CASE("box corners against the plane: the same contacts as MuJoCo's box-plane collider") {
  ComparisonScene sc = box_toss();
  sc.model.bodies[0].pos.z = 0.05;  // the tilted cube pushed into the plane: two corners penetrate
  auto sim = make_mujoco(sc.model, sc.timestep);
  mj_forward(sim->m, sim->d);
  RigidSystem<double> sys(&sc.model, sc.timestep);
  double y[RigidModel<double>::kMaxDim];
  sys.initial_state(y);
  Contact<double> c[8];
  const int n = sys.contacts(y, c, 8, false);
  REQUIRE(n == sim->d->ncon);
  CHECK(n >= 2);
  for (int i = 0; i < n; ++i) {  // each of ours has a MuJoCo contact at the same point and depth (1e-12 m)
    bool found = false;
    for (int j = 0; j < sim->d->ncon; ++j) {
      const mjContact& mc = sim->d->contact[j];
      double gap = std::fabs(c[i].dist - mc.dist);
      for (int k = 0; k < 3; ++k) gap = std::fmax(gap, std::fabs(c[i].pos[k] - mc.pos[k]));
      found = found || gap < 1e-12;
    }
    CHECK(found);
  }
}
