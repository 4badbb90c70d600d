// Sphere-sphere, sphere-capsule and capsule-capsule: analytic cases, brute-force segment sampling,
// normals from geom 1 to geom 2, parallel capsules.
#include <doctest/doctest.h>

#include <algorithm>

#include "collision_test_util.hpp"

using namespace sg;
using namespace sg::test;

namespace {

// Min distance between two segments p_i +- z_i h_i by dense sampling (length-0 segment for a sphere).
// The distance is 1-Lipschitz in each point, so the sampled value exceeds the true one by at most the
// sum of the two half spacings.
double sampled_segment_distance(const Pose<double>& p1, double h1, int n1, const Pose<double>& p2, double h2,
                                int n2) {
  const V z1 = rotate(p1.rot, V(0, 0, 1)), z2 = rotate(p2.rot, V(0, 0, 1));
  double best = 1e300;
  for (int i = 0; i <= n1; ++i) {
    const V a = p1.pos + z1 * (n1 == 0 ? 0.0 : h1 * (-1.0 + 2.0 * i / n1));
    for (int j = 0; j <= n2; ++j)
      best = std::min(best, norm(a - (p2.pos + z2 * (h2 * (-1.0 + 2.0 * j / n2)))));
  }
  return best;
}

void check_frame(const Contact<double>& c) {
  for (int a = 0; a < 3; ++a) {
    CHECK(norm(c.frame[a]) == doctest::Approx(1.0).epsilon(1e-12));
    for (int b = a + 1; b < 3; ++b) CHECK(std::fabs(dot(c.frame[a], c.frame[b])) < 1e-12);
  }
  CHECK(dot(cross(c.frame[0], c.frame[1]), c.frame[2]) == doctest::Approx(1.0).epsilon(1e-12));
}

}  // namespace

TEST_CASE("sphere-sphere: distance, normal from 1 to 2, midpoint, margin (tol 1e-15)") {
  Contact<double> c[kMaxContactsPerPair];
  CollisionOptions opt;
  const Pose<double> a{{0, 0, 0}, {}}, b{{0.3, 0.4, 0}, {}};
  REQUIRE(collide_sphere_sphere(a, 0.2, b, 0.31, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.01).epsilon(1e-12));
  CHECK(close(c[0].frame[0], V(0.6, 0.8, 0), 1e-15));
  CHECK(close(c[0].pos, V(0.6, 0.8, 0) * 0.195, 1e-15));
  check_frame(c[0]);
  CHECK(collide_sphere_sphere(a, 0.2, b, 0.29, opt, c) == 0);
  opt.margin = 0.02;
  CHECK(collide_sphere_sphere(a, 0.2, b, 0.29, opt, c) == 1);
  // Coincident centres fall back to a unit normal.
  REQUIRE(collide_sphere_sphere(a, 0.2, a, 0.1, opt, c) == 1);
  CHECK(norm(c[0].frame[0]) == doctest::Approx(1.0));
  CHECK(c[0].dist == doctest::Approx(-0.3));
}

TEST_CASE("sphere-capsule: side and end regions, normal points into the capsule (tol 1e-14)") {
  Contact<double> c[kMaxContactsPerPair];
  const CollisionOptions opt{0.0, 0.0};
  const Pose<double> cap{{0, 0, 0}, {}};  // along z, half length 0.1, radius 0.05
  // Beside the segment: distance to the axis minus radii.
  REQUIRE(collide_sphere_capsule(Pose<double>{{0.09, 0, 0.04}, {}}, 0.05, cap, 0.05, 0.1, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.01).epsilon(1e-12));
  CHECK(close(c[0].frame[0], V(-1, 0, 0), 1e-15));
  // Beyond the +z end: distance to the end point.
  REQUIRE(collide_sphere_capsule(Pose<double>{{0.03, 0, 0.14}, {}}, 0.02, cap, 0.05, 0.1, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(0.05 - 0.07).epsilon(1e-12));
  CHECK(close(c[0].frame[0], V(-0.6, 0, -0.8), 1e-14));
  check_frame(c[0]);
}

TEST_CASE(
    "round pairs: distances equal brute-force segment sampling (tol: half spacings, 8.5e-5 / 3.5e-6 m)") {
  // Sampled segment distances can only be larger, by at most the half spacings of the two grids.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.15, 0.15);
  const CollisionOptions opt{10.0, 0.0};
  Contact<double> c[kMaxContactsPerPair];
  for (int k = 0; k < 30; ++k) {
    const Pose<double> p1{{u(rng), u(rng), u(rng)}, random_quat(rng)};
    const Pose<double> p2{{u(rng), u(rng), u(rng)}, random_quat(rng)};
    const double r1 = 0.03, r2 = 0.02, h1 = 0.1, h2 = 0.07;
    REQUIRE(collide_capsule_capsule(p1, r1, h1, p2, r2, h2, opt, c) == 1);
    const double cc = sampled_segment_distance(p1, h1, 2000, p2, h2, 2000) - r1 - r2;
    CHECK(cc >= c[0].dist - 1e-12);
    CHECK(cc - c[0].dist <= 0.5 * (2 * h1 / 2000 + 2 * h2 / 2000));
    // The contact normal is along the closest-points line: moving geom 2 by +normal separates the pair.
    Pose<double> moved = p2;
    moved.pos += c[0].frame[0] * 1e-3;
    REQUIRE(collide_capsule_capsule(p1, r1, h1, moved, r2, h2, opt, c + 1) == 1);
    CHECK(c[1].dist == doctest::Approx(c[0].dist + 1e-3).epsilon(1e-9));
    check_frame(c[0]);

    REQUIRE(collide_sphere_capsule(p1, r1, p2, r2, h2, opt, c) == 1);
    const double sc = sampled_segment_distance(p1, 0.0, 0, p2, h2, 20000) - r1 - r2;
    CHECK(sc >= c[0].dist - 1e-12);
    CHECK(sc - c[0].dist <= 0.5 * 2 * h2 / 20000);
  }
}

TEST_CASE("capsule-capsule: crossing and parallel cases (tol 1e-12)") {
  Contact<double> c[kMaxContactsPerPair];
  const CollisionOptions opt{0.0, 0.0};
  // Crossing at right angles, 0.09 apart along z, radii 0.05: dist -0.01 at the crossing point.
  const Pose<double> a{{0, 0, 0}, from_axis_angle(V(0, 1, 0), kPiT / 2)};           // along x
  const Pose<double> b{{0.02, 0.03, 0.09}, from_axis_angle(V(1, 0, 0), kPiT / 2)};  // along y
  REQUIRE(collide_capsule_capsule(a, 0.05, 0.1, b, 0.05, 0.1, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.01).epsilon(1e-12));
  CHECK(close(c[0].frame[0], V(0, 0, 1), 1e-14));
  CHECK(close(c[0].pos, V(0.02, 0, 0.045), 1e-14));
  // Parallel, side by side and overlapping in extent: two contacts (MuJoCo's parallel branch).
  const Pose<double> d{{0.05, 0.09, 0}, a.rot};
  const int n = collide_capsule_capsule(a, 0.05, 0.1, d, 0.05, 0.1, opt, c);
  REQUIRE(n == 2);
  for (int i = 0; i < n; ++i) {
    CHECK(c[i].dist == doctest::Approx(-0.01).epsilon(1e-12));
    CHECK(close(c[i].frame[0], V(0, 1, 0), 1e-14));
  }
  CHECK(std::fabs(c[0].pos.x - c[1].pos.x) == doctest::Approx(0.15).epsilon(1e-12));
}
