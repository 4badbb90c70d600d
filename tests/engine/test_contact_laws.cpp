// Contact laws against hand-computed references.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/contact/elastic_impact.hpp"
#include "engine/contact/gauss_seidel.hpp"
#include "engine/contact/mujoco_soft.hpp"
#include "engine/contact/penalty.hpp"

using namespace sg;

TEST_CASE("MuJoCo closed-form force equals the engine-notes worked example") {
  // Sphere of 2 kg, r = -0.3 mm, v_n = -0.3 m/s, default solref/solimp, gravity 9.81 (values from
  // MuJoCo 2.2.2).
  const double solref[2] = {0.02, 1.0};
  const double solimp[5] = {0.9, 0.95, 0.001, 0.5, 2.0};
  const auto f = mujoco_contact_force(solref, solimp, true, 0.002, -0.0003, -0.3, -9.81, 0.5);
  CHECK(f.impedance == doctest::Approx(0.909).epsilon(1e-12));
  CHECK(f.aref == doctest::Approx(32.3343).epsilon(1e-5));
  CHECK(f.R == doctest::Approx(0.050055).epsilon(1e-5));
  CHECK(f.force == doctest::Approx(76.6184).epsilon(1e-5));
}

TEST_CASE("MuJoCo impedance spline: endpoints, midpoint and power 1") {
  const double solimp[5] = {0.2, 0.8, 0.01, 0.5, 2.0};
  CHECK(mujoco_impedance(solimp, 0.0) == doctest::Approx(0.2));
  CHECK(mujoco_impedance(solimp, -0.01) == doctest::Approx(0.8));
  CHECK(mujoco_impedance(solimp, -0.02) == doctest::Approx(0.8));   // beyond the width
  CHECK(mujoco_impedance(solimp, -0.005) == doctest::Approx(0.5));  // y(mid) = mid
  const double linear[5] = {0.2, 0.8, 0.01, 0.5, 1.0};
  CHECK(mujoco_impedance(linear, -0.0025) == doctest::Approx(0.2 + 0.25 * 0.6));
}

TEST_CASE("a CFD spline with mid = 1 keeps its slope up to contact, MuJoCo's clamp does not") {
  // DiffMJX's CFD solimp: d_far 0, d_near 0.01, width 0.05, mid 1, power 2, evaluated at w - r
  // (engine/contact/cfd.hpp). MuJoCo clamps mid to 0.9999: its upper branch takes the last 5 um, where the
  // slope falls to 0.
  const double solimp[5] = {0.0, 0.01, 0.05, 1.0, 2.0};
  const double w = solimp[2];
  auto slope = [&](double r, bool lower_to_end) {  // d d / d r by central differences, h = 1e-9 m
    return (mujoco_impedance(solimp, w - (r + 1e-9), lower_to_end) -
            mujoco_impedance(solimp, w - (r - 1e-9), lower_to_end)) /
           2e-9;
  };
  const double far = slope(1e-3, true);  // about -2 (0.01 - 1e-4) / w x, x = 0.98
  CHECK(far == doctest::Approx(-2.0 * (0.01 - 1e-4) / w * (w - 1e-3) / w / 0.9999).epsilon(1e-5));
  CHECK(slope(1e-6, true) == doctest::Approx(far * (w - 1e-6) / (w - 1e-3)).epsilon(1e-5));  // smooth
  CHECK(std::fabs(slope(1e-6, false)) < 0.25 * std::fabs(far));  // MuJoCo's branch: the kink
  // Below x = 0.9999 both agree bit for bit.
  CHECK(mujoco_impedance(solimp, w - 1e-3, true) == mujoco_impedance(solimp, w - 1e-3, false));
}

TEST_CASE("MuJoCo solref direct form and refsafe") {
  const double solimp[5] = {0.9, 0.95, 0.001, 0.5, 2.0};
  const double direct[2] = {-1000.0, -20.0};
  const auto d = mujoco_spring(direct, solimp, true, 0.002);
  CHECK(d.K == doctest::Approx(1000.0 / (0.95 * 0.95)));
  CHECK(d.B == doctest::Approx(20.0 / 0.95));
  const double standard[2] = {0.002, 1.0};
  const auto safe = mujoco_spring(standard, solimp, true, 0.002);     // tc raised to 0.004
  const auto unsafe = mujoco_spring(standard, solimp, false, 0.002);  // tc kept at 0.002
  CHECK(safe.B == doctest::Approx(2.0 / (0.95 * 0.004)));
  CHECK(unsafe.B == doctest::Approx(2.0 / (0.95 * 0.002)));
}

TEST_CASE("penalty force acts only while penetrating") {
  CHECK(penalty_normal_force(50.0, 1.0, 0.1, -1.0) == 0.0);
  CHECK(penalty_normal_force(50.0, 1.0, -0.1, -1.0) == doctest::Approx(5.0 + 1.0));
}

TEST_CASE("elastic impact: naive and time-of-impact positions") {
  // From x = 0.05 moving at -1 with h = 0.1 the ground (0) is hit after tau = 0.05.
  double x = 0.05, v = -1.0;
  elastic_impact_step(x, v, 0.0, 1.0, true, 0.1);
  CHECK(x == doctest::Approx(0.05));  // 0.05 down, 0.05 up
  CHECK(v == doctest::Approx(1.0));
  x = 0.05, v = -1.0;
  elastic_impact_step(x, v, 0.0, 1.0, false, 0.1);
  CHECK(x == doctest::Approx(0.15));  // the whole step with the flipped velocity
}

TEST_CASE("friction cone prox") {
  double p[3] = {1.0, 3.0, 4.0};
  friction_cone_prox(p, 0.5);
  CHECK(p[0] == 1.0);
  CHECK(std::hypot(p[1], p[2]) == doctest::Approx(0.5));
  CHECK(p[1] / p[2] == doctest::Approx(0.75));
  double q[3] = {-1.0, 0.1, 0.1};
  friction_cone_prox(q, 0.5);
  CHECK(q[0] == 0.0);
  CHECK(q[1] == 0.0);
}

TEST_CASE("Gauss-Seidel: a single inelastic contact stops the normal velocity, smoothing scales it") {
  GaussSeidelProblem<double, 1> pb;
  pb.nc = 1;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) pb.G[a][b] = a == b ? 0.5 : 0.0;
  pb.c[0] = -2.0;
  pb.c[1] = pb.c[2] = 0.0;
  pb.depth[0] = 0.01;
  pb.mu[0] = 0.0;
  double p[3];
  solve_gauss_seidel(pb, kInf, 10, p);
  CHECK(p[0] == doctest::Approx(4.0));  // v+ = c + G p = 0
  solve_gauss_seidel(pb, 300.0, 10, p);
  CHECK(p[0] == doctest::Approx(4.0 / (1.0 + std::exp(-3.0))));
  pb.depth[0] = -0.01;  // separated: the hard model gives nothing
  solve_gauss_seidel(pb, kInf, 10, p);
  CHECK(p[0] == 0.0);
}
