// Plane against sphere, capsule, box, cylinder and ellipsoid: analytic cases, brute-force surface
// sampling, contact counts, normals and frames, margins.
#include <doctest/doctest.h>

#include <algorithm>

#include "collision_test_util.hpp"

using namespace sg;
using namespace sg::test;

namespace {

const Plane<double> kGround{{0, 0, 0}, {0, 0, 1}};

int plane_collide(GeomType type, const Pose<double>& pose, const V& size, const CollisionOptions& opt,
                  Contact<double>* out) {
  Pose<double> ground;  // identity pose: the plane z = 0 with normal +z
  return collide(GeomType::plane, ground, V(0, 0, 0), type, pose, size, opt, out);
}

// Every contact: unit normal equal to the plane normal, orthonormal right-handed frame, position
// dist/2 above the deepest point, distance within the margin.
void check_contacts(const Contact<double>* c, int n, const V& normal, const CollisionOptions& opt) {
  for (int i = 0; i < n; ++i) {
    CHECK(close(c[i].frame[0], normal, 1e-14));
    for (int a = 0; a < 3; ++a) {
      CHECK(norm(c[i].frame[a]) == doctest::Approx(1.0).epsilon(1e-12));
      for (int b = a + 1; b < 3; ++b) CHECK(std::fabs(dot(c[i].frame[a], c[i].frame[b])) < 1e-12);
    }
    CHECK(dot(cross(c[i].frame[0], c[i].frame[1]), c[i].frame[2]) == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(c[i].dist <= opt.margin);
  }
}

double min_dist(const Contact<double>* c, int n) {
  double m = 1e300;
  for (int i = 0; i < n; ++i) m = std::min(m, c[i].dist);
  return m;
}

}  // namespace

TEST_CASE("plane-sphere: analytic distance, position midway, margin (tol 1e-15)") {
  Contact<double> c[kMaxContactsPerPair];
  CollisionOptions opt;
  Pose<double> pose{{0.3, -0.2, 0.04}, {}};
  REQUIRE(collide_plane_sphere(kGround, pose, 0.05, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.01).epsilon(1e-13));
  CHECK(close(c[0].pos, V(0.3, -0.2, -0.005), 1e-15));
  check_contacts(c, 1, V(0, 0, 1), opt);
  pose.pos.z = 0.06;  // 1 cm apart: dropped without margin, reported with a 2 cm margin
  CHECK(collide_plane_sphere(kGround, pose, 0.05, opt, c) == 0);
  opt.margin = 0.02;
  REQUIRE(collide_plane_sphere(kGround, pose, 0.05, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(0.01).epsilon(1e-13));
  // A tilted plane through (0, 0, 1) with normal (1, 0, 1)/sqrt2.
  const Plane<double> tilted{{0, 0, 1}, V(1, 0, 1) / std::sqrt(2.0)};
  opt.margin = 0.0;
  REQUIRE(collide_plane_sphere(tilted, Pose<double>{{0, 0, 0}, {}}, 0.8, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-1.0 / std::sqrt(2.0) - 0.8).epsilon(1e-14));
  check_contacts(c, 1, tilted.normal, opt);
}

TEST_CASE("plane-capsule: lying gives 2 contacts, upright 1 (tol 1e-14)") {
  Contact<double> c[kMaxContactsPerPair];
  const CollisionOptions opt{0.001, 0.0};
  const V size(0.05, 0.07, 0.0);
  // Lying along x, resting 1 mm deep.
  const Pose<double> lying{{0, 0, 0.049}, from_axis_angle(V(0, 1, 0), kPiT / 2)};
  REQUIRE(plane_collide(GeomType::capsule, lying, size, opt, c) == 2);
  CHECK(c[0].dist == doctest::Approx(-0.001).epsilon(1e-10));
  CHECK(c[1].dist == doctest::Approx(-0.001).epsilon(1e-10));
  CHECK(std::fabs(std::fabs(c[0].pos.x - c[1].pos.x) - 0.14) < 1e-14);
  check_contacts(c, 2, V(0, 0, 1), opt);
  // Upright: only the lower end sphere.
  const Pose<double> upright{{0, 0, 0.119}, {}};
  REQUIRE(plane_collide(GeomType::capsule, upright, size, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.001).epsilon(1e-10));
  CHECK(close(c[0].pos, V(0, 0, -0.0005), 1e-14));
}

TEST_CASE("plane-box: flat gives 4 corners, on an edge 2, at most 4 deepest in exact mode (tol 1e-14)") {
  Contact<double> c[kMaxContactsPerPair];
  const CollisionOptions opt{0.0, 0.0};
  const V half(0.05, 0.05, 0.05);
  const Pose<double> flat{{0, 0, 0.049}, {}};
  REQUIRE(plane_collide(GeomType::box, flat, half, opt, c) == 4);
  for (int i = 0; i < 4; ++i) {
    CHECK(c[i].dist == doctest::Approx(-0.001).epsilon(1e-10));
    CHECK(std::fabs(c[i].pos.x) == doctest::Approx(0.05));
    CHECK(std::fabs(c[i].pos.y) == doctest::Approx(0.05));
  }
  check_contacts(c, 4, V(0, 0, 1), opt);
  // On an edge: rotated 45 degrees about x, edge 1 mm into the ground.
  const double lift = 0.05 * std::sqrt(2.0) - 0.001;
  const Pose<double> edge{{0, 0, lift}, from_axis_angle(V(1, 0, 0), kPiT / 4)};
  REQUIRE(plane_collide(GeomType::box, edge, half, opt, c) == 2);
  CHECK(c[0].dist == doctest::Approx(-0.001).epsilon(1e-9));
  CHECK(c[1].dist == doctest::Approx(-0.001).epsilon(1e-9));
  CHECK(std::fabs(c[0].pos.x - c[1].pos.x) == doctest::Approx(0.1).epsilon(1e-12));
  // Huge margin: all 8 corners qualify by distance but exact mode keeps the 4 deepest, deepest first.
  const CollisionOptions wide{1.0, 0.0};
  std::mt19937 rng(3);
  for (int k = 0; k < 20; ++k) {
    const Pose<double> p{{0, 0, 0.2}, random_quat(rng)};
    const int n = plane_collide(GeomType::box, p, V(0.05, 0.08, 0.03), wide, c);
    CHECK(n == 4);
    for (int i = 1; i < n; ++i) CHECK(c[i - 1].dist <= c[i].dist);
  }
}

TEST_CASE("plane-cylinder: upright 3, lying 2, tilted 1 or 2 (tol 1e-12)") {
  Contact<double> c[kMaxContactsPerPair];
  const CollisionOptions opt{0.0, 0.0};
  const V size(0.04, 0.05, 0.0);
  // Standing on its -z cap 1 mm deep: rim point + the other two triangle corners.
  const Pose<double> upright{{0, 0, 0.049}, {}};
  REQUIRE(plane_collide(GeomType::cylinder, upright, size, opt, c) == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(c[i].dist == doctest::Approx(-0.001).epsilon(1e-9));
    CHECK(std::hypot(c[i].pos.x, c[i].pos.y) == doctest::Approx(0.04).epsilon(1e-12));
  }
  // The three points form an equilateral triangle (side r sqrt3).
  CHECK(norm(c[0].pos - c[1].pos) == doctest::Approx(0.04 * std::sqrt(3.0)).epsilon(1e-12));
  CHECK(norm(c[1].pos - c[2].pos) == doctest::Approx(0.04 * std::sqrt(3.0)).epsilon(1e-12));
  // Lying on its side: the two ends of the bottom line.
  const Pose<double> lying{{0, 0, 0.039}, from_axis_angle(V(1, 0, 0), kPiT / 2)};
  REQUIRE(plane_collide(GeomType::cylinder, lying, size, opt, c) == 2);
  CHECK(c[0].dist == doctest::Approx(-0.001).epsilon(1e-9));
  CHECK(c[1].dist == doctest::Approx(-0.001).epsilon(1e-9));
  CHECK(std::fabs(c[0].pos.y - c[1].pos.y) == doctest::Approx(0.1).epsilon(1e-12));
  check_contacts(c, 2, V(0, 0, 1), opt);
}

// Events and located modes follow a contact by its feature: each cap's rim point keeps its name while the
// axis tilts through horizontal and the nearer cap changes (MuJoCo's order stays: the deeper rim first).
TEST_CASE("plane-cylinder: a rim point keeps its feature as the axis passes horizontal (tol 1e-7 m)") {
  Contact<double> c[kMaxContactsPerPair];
  const CollisionOptions opt{0.0, 0.0};
  const V size(0.04, 0.05, 0.0);
  for (double tilt : {-1e-6, 1e-6}) {
    CAPTURE(tilt);
    // The body's z axis points along -y, its +z cap is at y = -0.05 and is the lower one for tilt > 0.
    const Pose<double> lying{{0, 0, 0.039}, from_axis_angle(V(1, 0, 0), kPiT / 2 + tilt)};
    REQUIRE(plane_collide(GeomType::cylinder, lying, size, opt, c) == 2);
    CHECK(c[0].dist <= c[1].dist);
    for (int i = 0; i < 2; ++i) {
      // Off by the tilt times the radius at most; a swapped name would be 0.1 m off.
      CHECK(std::fabs(c[i].pos.y - (c[i].feature == 0 ? -0.05 : 0.05)) < 1e-7);
      CHECK(std::fabs(c[i].pos.x) < 1e-7);
    }
    CHECK(c[0].feature == (tilt > 0 ? 0 : 1));
  }
}

TEST_CASE("plane pairs: deepest contact equals the brute-force minimum over sampled surfaces (tol 1e-4 r)") {
  // Sampling can only miss the deepest point, so sampled >= exact, by at most the grid error.
  std::mt19937 rng(11);
  const CollisionOptions opt{10.0, 0.0};  // everything reported
  Contact<double> c[kMaxContactsPerPair];
  const GeomType types[] = {GeomType::sphere, GeomType::capsule, GeomType::box, GeomType::cylinder,
                            GeomType::ellipsoid};
  const V sizes[] = {{0.05, 0, 0}, {0.05, 0.07, 0}, {0.05, 0.03, 0.08}, {0.04, 0.05, 0}, {0.05, 0.03, 0.1}};
  for (int t = 0; t < 5; ++t) {
    for (int k = 0; k < 10; ++k) {
      const Pose<double> pose{{0.1, -0.2, 0.03 + 0.01 * k}, random_quat(rng)};
      const int n = plane_collide(types[t], pose, sizes[t], opt, c);
      REQUIRE(n >= 1);
      double sampled = 1e300;
      for (const V& p : sample_surface(types[t], pose, sizes[t], 200)) sampled = std::min(sampled, p.z);
      const double exact = min_dist(c, n);
      CAPTURE(geom_type_name(types[t]));
      CHECK(sampled >= exact - 1e-12);
      CHECK(sampled - exact <= 1e-4 * 0.1);
      check_contacts(c, n, V(0, 0, 1), opt);
    }
  }
}

TEST_CASE("plane-ellipsoid: analytic support distance for axis-aligned and rotated poses (tol 1e-14)") {
  Contact<double> c[kMaxContactsPerPair];
  const CollisionOptions opt{0.0, 0.0};
  const V axes(0.05, 0.05, 0.1);
  REQUIRE(plane_collide(GeomType::ellipsoid, Pose<double>{{0, 0, 0.09}, {}}, axes, opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.01).epsilon(1e-12));
  // Tilted by 80 degrees about x: depth below centre sqrt(b^2 sin^2 + c^2 cos^2).
  const double a = 80.0 * kPiT / 180.0;
  const double depth =
      std::sqrt(0.05 * 0.05 * std::sin(a) * std::sin(a) + 0.1 * 0.1 * std::cos(a) * std::cos(a));
  REQUIRE(plane_collide(GeomType::ellipsoid, Pose<double>{{0, 0, 0.05}, from_euler_xyz(80.0, 0.0, 0.0)}, axes,
                        opt, c) == 1);
  CHECK(c[0].dist == doctest::Approx(0.05 - depth).epsilon(1e-12));
}
