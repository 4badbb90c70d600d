// The dispatcher: supported pairs, either argument order, planes from poses.
#include <doctest/doctest.h>

#include "collision_test_util.hpp"

using namespace sg;
using namespace sg::test;

TEST_CASE("dispatch: pair_supported is symmetric and lists exactly the implemented pairs") {
  const GeomType all[] = {GeomType::plane, GeomType::sphere,   GeomType::capsule,
                          GeomType::box,   GeomType::cylinder, GeomType::ellipsoid};
  int count = 0;
  for (GeomType a : all) {
    for (GeomType b : all) {
      CHECK(pair_supported(a, b) == pair_supported(b, a));
      if (pair_supported(a, b) && !(b < a)) ++count;
    }
  }
  // Every pair of the 6 types but plane-plane (MuJoCo has none either): plane x 5, the 15 solid pairs, 9 of
  // them MPR's (an ellipsoid or a cylinder with another solid).
  CHECK(count == 20);
  CHECK_FALSE(pair_supported(GeomType::plane, GeomType::plane));
  CHECK(pair_supported(GeomType::box, GeomType::box));
  CHECK(pair_supported(GeomType::sphere, GeomType::box));
  CHECK(pair_supported(GeomType::capsule, GeomType::box));
  CHECK(pair_supported(GeomType::box, GeomType::cylinder));
  CHECK(pair_supported(GeomType::ellipsoid, GeomType::plane));
  int convex = 0;
  for (GeomType a : all)
    for (GeomType b : all) convex += convex_pair(a, b) && !(b < a);
  CHECK(convex == 9);
  // Unsupported pairs write nothing.
  Contact<double> c[kMaxContactsPerPair];
  CHECK(collide(GeomType::plane, Pose<double>{}, V(1, 1, 0), GeomType::plane, Pose<double>{}, V(1, 1, 1),
                CollisionOptions{}, c) == 0);
}

TEST_CASE("dispatch: swapped order flips the normal and keeps distance and position (tol 1e-15)") {
  Contact<double> ab[kMaxContactsPerPair], ba[kMaxContactsPerPair];
  const CollisionOptions opt{0.01, 0.0};
  const Pose<double> sphere{{0.02, 0.0, 0.1}, {}};
  const Pose<double> capsule{{0.0, 0.0, 0.0}, from_euler_xyz(0.0, 90.0, 0.0)};
  REQUIRE(collide(GeomType::sphere, sphere, V(0.05, 0, 0), GeomType::capsule, capsule, V(0.06, 0.1, 0), opt,
                  ab) == 1);
  REQUIRE(collide(GeomType::capsule, capsule, V(0.06, 0.1, 0), GeomType::sphere, sphere, V(0.05, 0, 0), opt,
                  ba) == 1);
  CHECK(ab[0].dist == doctest::Approx(-0.01).epsilon(1e-12));
  CHECK(ba[0].dist == ab[0].dist);
  CHECK(close(ba[0].pos, ab[0].pos, 1e-15));
  CHECK(close(ba[0].frame[0], -ab[0].frame[0], 0.0));
  CHECK(close(ab[0].frame[0], V(0, 0, -1), 1e-15));  // from the sphere (above) down to the capsule
  CHECK(dot(cross(ba[0].frame[0], ba[0].frame[1]), ba[0].frame[2]) == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("dispatch: a plane geom takes its normal from the pose z axis (tol 1e-14)") {
  // A plane tilted 90 degrees about y: normal +x, through x = 1. A sphere at x = 1.04 radius 0.05.
  const Pose<double> wall{{1.0, 0.0, 0.0}, from_euler_xyz(0.0, 90.0, 0.0)};
  CHECK(close(plane_from_pose(wall).normal, V(1, 0, 0), 1e-15));
  Contact<double> c[kMaxContactsPerPair];
  REQUIRE(collide(GeomType::plane, wall, V(), GeomType::sphere, Pose<double>{{1.04, 0.3, 0.2}, {}},
                  V(0.05, 0, 0), CollisionOptions{}, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.01).epsilon(1e-12));
  CHECK(close(c[0].frame[0], V(1, 0, 0), 1e-15));
  CHECK(close(c[0].pos, V(0.995, 0.3, 0.2), 1e-14));
}

TEST_CASE("contact frame: exact follows MuJoCo's seed rule, smooth is continuous across |n_y| = 0.5") {
  Vec3<double> f[3];
  const V n1 = V(0.0, 0.49, std::sqrt(1 - 0.49 * 0.49));
  const V n2 = V(0.0, 0.51, std::sqrt(1 - 0.51 * 0.51));
  make_contact_frame(n1, false, f);
  const V t1 = f[1];
  make_contact_frame(n2, false, f);
  CHECK(norm(t1 - f[1]) > 0.5);  // MuJoCo's seed switches from y to z here
  make_contact_frame(n1, true, f);
  const V s1 = f[1];
  make_contact_frame(n2, true, f);
  CHECK(norm(s1 - f[1]) < 0.05);
  CHECK(close(s1, t1, 1e-15));  // identical to MuJoCo's frame where |n_y| < 0.5
  // Exactly +-y in smooth mode still yields an orthonormal frame.
  make_contact_frame(V(0, -1, 0), true, f);
  CHECK(std::fabs(dot(f[0], f[1])) < 1e-15);
  CHECK(norm(f[1]) == doctest::Approx(1.0));
}
