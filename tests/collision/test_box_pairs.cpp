// Sphere-box and box-box contacts: analytic cases, brute-force properties over random poses, stable contact
// names, and forward-mode derivatives against central differences. (MuJoCo 2.2.2 comparisons live in
// tests/mujoco/test_box_collisions.cpp.)
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "collision_test_util.hpp"

using namespace sg;
using namespace sg::test;

namespace {

const CollisionOptions kExact{0.0, 0.0};

// Signed distance of a world point to a box surface (negative inside), exact for points inside and on faces.
double box_signed_distance(const V& p, const Pose<double>& pose, const V& half) {
  const V local = rotate(conjugate(pose.rot), V(p - pose.pos));
  double outside2 = 0.0, inside = -1e300;
  for (int k = 0; k < 3; ++k) {
    const double e = std::fabs(local[k]) - half[k];
    if (e > 0.0) outside2 += e * e;
    inside = std::max(inside, e);
  }
  return outside2 > 0.0 ? std::sqrt(outside2) : inside;
}

int box_box(const Pose<double>& p1, const V& h1, const Pose<double>& p2, const V& h2, Contact<double>* out,
            double margin = 0.0) {
  return collide(GeomType::box, p1, h1, GeomType::box, p2, h2, CollisionOptions{margin, 0.0}, out);
}

std::set<int> features(const Contact<double>* c, int n) {
  std::set<int> f;
  for (int i = 0; i < n; ++i) f.insert(c[i].feature);
  return f;
}

}  // namespace

TEST_CASE("sphere-box: face, edge and corner regions and a centre inside (tol 1e-14)") {
  Contact<double> c[kMaxContactsPerPair];
  const V half(0.1, 0.2, 0.3);
  const Pose<double> box{{1.0, 2.0, 3.0}, from_euler_xyz(0.0, 0.0, 90.0)};  // local x = world y
  // Face region: 0.05 beyond the local +x face, radius 0.08: overlap 0.03, normal from sphere to box = -y.
  const Pose<double> s1{{1.0, 2.0 + 0.15, 3.0}, {}};
  Contact<double> face[kMaxContactsPerPair];
  REQUIRE(collide(GeomType::sphere, s1, V(0.08, 0, 0), GeomType::box, box, half, kExact, face) == 1);
  CHECK(face[0].dist == doctest::Approx(-0.03).epsilon(1e-12));
  CHECK(close(face[0].frame[0], V(0, -1, 0), 1e-14));
  CHECK(close(face[0].pos, V(1.0, 2.1 - 0.015, 3.0), 1e-14));  // midway between box face and sphere surface
  // Corner region: centre beyond a corner by (0.03, 0.04, 0) in local coordinates: distance 0.05 - r.
  const V corner_local(0.1 + 0.03, 0.2 + 0.04, 0.3);
  const Pose<double> s2{box.pos + rotate(box.rot, corner_local), {}};
  REQUIRE(collide(GeomType::sphere, s2, V(0.06, 0, 0), GeomType::box, box, half, kExact, c) == 1);
  CHECK(c[0].dist == doctest::Approx(0.05 - 0.06).epsilon(1e-12));
  CHECK(collide(GeomType::sphere, s2, V(0.04, 0, 0), GeomType::box, box, half, kExact, c) == 0);
  CHECK(collide(GeomType::sphere, s2, V(0.04, 0, 0), GeomType::box, box, half, CollisionOptions{0.02, 0.0},
                c) == 1);
  // Centre inside, nearest to the local -z face (0.05 inside it): leaves through it.
  const Pose<double> s3{box.pos + rotate(box.rot, V(0.0, 0.0, -0.25)), {}};
  REQUIRE(collide(GeomType::sphere, s3, V(0.01, 0, 0), GeomType::box, box, half, kExact, c) == 1);
  CHECK(c[0].dist == doctest::Approx(-0.05 - 0.01).epsilon(1e-12));
  CHECK(close(c[0].frame[0], rotate(box.rot, V(0, 0, 1)), 1e-14));  // from the sphere into the box
  // Either order: the normal flips.
  Contact<double> swapped[kMaxContactsPerPair];
  REQUIRE(collide(GeomType::box, box, half, GeomType::sphere, s1, V(0.08, 0, 0), kExact, swapped) == 1);
  CHECK(close(swapped[0].frame[0], V(0, 1, 0), 1e-14));
  CHECK(swapped[0].dist == face[0].dist);
  CHECK(close(swapped[0].pos, face[0].pos, 1e-15));
}

TEST_CASE("sphere-box: distance against brute-force sampling of the box surface over random poses") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.4, 0.4);
  const V half(0.1, 0.15, 0.2);
  Contact<double> c[kMaxContactsPerPair];
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Pose<double> box{{0, 0, 0}, random_quat(rng)};
    const Pose<double> sphere{{u(rng), u(rng), u(rng)}, {}};
    const double r = 0.05;
    if (box_signed_distance(sphere.pos, box, half) <= 0.0) continue;  // outside cases: a true distance
    if (collide(GeomType::sphere, sphere, V(r, 0, 0), GeomType::box, box, half, CollisionOptions{1.0, 0.0},
                c) != 1)
      continue;
    double best = 1e300;
    for (const V& p : sample_surface(GeomType::box, box, half, 40))
      best = std::min(best, norm(V(p - sphere.pos)));
    // Sampling overestimates the distance by at most half a grid diagonal (0.4 / 40 * sqrt(2) / 2).
    CHECK(best - r - c[0].dist >= -1e-12);
    CHECK(best - r - c[0].dist <= 0.0072);
    ++checked;
  }
  CHECK(checked > 100);
}

TEST_CASE("box-box: a smaller box pressed into a face gives its four corners (tol 1e-14)") {
  Contact<double> c[kMaxContactsPerPair];
  const Pose<double> big{{0, 0, 0}, {}};
  const Pose<double> small{{0.5 + 0.3 - 0.01, 0.05, -0.02}, {}};
  const int n = box_box(big, V(0.5, 0.5, 0.5), small, V(0.3, 0.2, 0.1), c);
  REQUIRE(n == 4);
  for (int i = 0; i < n; ++i) {
    CHECK(c[i].dist == doctest::Approx(-0.01).epsilon(1e-12));
    CHECK(close(c[i].frame[0], V(1, 0, 0), 1e-15));
    CHECK(c[i].pos.x == doctest::Approx(0.5 - 0.005).epsilon(1e-14));
    CHECK(std::fabs(std::fabs(c[i].pos.y - 0.05) - 0.2) < 1e-14);
    CHECK(std::fabs(std::fabs(c[i].pos.z + 0.02) - 0.1) < 1e-14);
  }
  CHECK(features(c, n).size() == 4);
  // Either order: the same points, normals flipped.
  Contact<double> d[kMaxContactsPerPair];
  REQUIRE(box_box(small, V(0.3, 0.2, 0.1), big, V(0.5, 0.5, 0.5), d) == 4);
  for (int i = 0; i < 4; ++i) CHECK(close(d[i].frame[0], V(-1, 0, 0), 1e-15));
  // Beyond the margin nothing, within it the four corners with a positive distance.
  const Pose<double> apart{{0.5 + 0.3 + 0.02, 0.05, -0.02}, {}};
  CHECK(box_box(big, V(0.5, 0.5, 0.5), apart, V(0.3, 0.2, 0.1), c) == 0);
  REQUIRE(box_box(big, V(0.5, 0.5, 0.5), apart, V(0.3, 0.2, 0.1), c, 0.03) == 4);
  CHECK(c[0].dist == doctest::Approx(0.02).epsilon(1e-12));
}

TEST_CASE("box-box: a square face turned 45 degrees on an equal face is clipped to an octagon") {
  Contact<double> c[kMaxContactsPerPair];
  const Pose<double> bottom{{0, 0, 0}, {}};
  const Pose<double> top{{0, 0, 2.0 - 0.001}, from_euler_xyz(0.0, 0.0, 45.0)};
  const int n = box_box(bottom, V(1, 1, 1), top, V(1, 1, 1), c);
  REQUIRE(n == 8);
  for (int i = 0; i < n; ++i) {
    CHECK(c[i].dist == doctest::Approx(-0.001).epsilon(1e-9));
    CHECK(close(c[i].frame[0], V(0, 0, 1), 1e-15));
    // On the octagon: inside the bottom face and inside the turned top face, on the boundary of one of them.
    const double a = std::max(std::fabs(c[i].pos.x), std::fabs(c[i].pos.y));
    const double b = (std::fabs(c[i].pos.x) + std::fabs(c[i].pos.y)) / std::sqrt(2.0);
    CHECK(a <= 1.0 + 1e-12);
    CHECK(b <= 1.0 + 1e-12);
    CHECK(std::max(a, b) == doctest::Approx(1.0).epsilon(1e-12));
  }
  CHECK(features(c, n).size() == 8);
}

TEST_CASE("box-box: a box standing on an edge touches along that edge (2 contacts)") {
  Contact<double> c[kMaxContactsPerPair];
  const Pose<double> floor{{0, 0, -1}, {}};
  // Rotated 45 degrees about x: its lowest edge (along x) at z = -sqrt(2) * 0.1 below its centre.
  const double drop = std::sqrt(2.0) * 0.1;
  const Pose<double> tilted{{0.1, 0.2, drop - 0.002}, from_euler_xyz(45.0, 0.0, 0.0)};
  const int n = box_box(floor, V(1, 1, 1), tilted, V(0.3, 0.1, 0.1), c);
  REQUIRE(n == 2);
  for (int i = 0; i < n; ++i) {
    CHECK(c[i].dist == doctest::Approx(-0.002).epsilon(1e-9));
    CHECK(std::fabs(std::fabs(c[i].pos.x - 0.1) - 0.3) < 1e-12);
    CHECK(c[i].pos.y == doctest::Approx(0.2).epsilon(1e-12));
  }
}

TEST_CASE("box-box: crossed edges give one contact between the edges' closest points") {
  Contact<double> c[kMaxContactsPerPair];
  // Box 1 balanced on an edge along x, box 2 above it hanging from an edge along y: the edges cross at 90
  // degrees and overlap by 0.003.
  const double s = std::sqrt(2.0);
  const Pose<double> lower{{0, 0, 0}, from_euler_xyz(45.0, 0.0, 0.0)};
  const Pose<double> upper{{0.02, -0.01, 2 * s * 0.1 - 0.003}, from_euler_xyz(0.0, 45.0, 0.0)};
  const int n = box_box(lower, V(0.4, 0.1, 0.1), upper, V(0.1, 0.4, 0.1), c);
  REQUIRE(n == 1);
  CHECK(c[0].dist == doctest::Approx(-0.003).epsilon(1e-9));
  CHECK(close(c[0].frame[0], V(0, 0, 1), 1e-12));
  CHECK(close(c[0].pos, V(0.02, 0.0, s * 0.1 - 0.0015), 1e-12));
  CHECK(c[0].feature >= 1024);
}

TEST_CASE("box-box over random poses: contacts on both surfaces, depth against sampling, no missed overlap") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.35, 0.35);
  const V h1(0.2, 0.15, 0.1), h2(0.12, 0.1, 0.18);
  Contact<double> c[kMaxContactsPerPair];
  int overlapping = 0, face_cases = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Pose<double> p1{{0, 0, 0}, random_quat(rng)};
    const Pose<double> p2{{u(rng), u(rng), u(rng)}, random_quat(rng)};
    const int n = box_box(p1, h1, p2, h2, c);
    // Sampled points of one box deep inside the other mean an overlap the detector must report.
    double deepest_sample = 0.0;
    for (const V& p : sample_surface(GeomType::box, p2, h2, 12))
      deepest_sample = std::min(deepest_sample, box_signed_distance(p, p1, h1));
    for (const V& p : sample_surface(GeomType::box, p1, h1, 12))
      deepest_sample = std::min(deepest_sample, box_signed_distance(p, p2, h2));
    if (deepest_sample < -1e-9) CHECK(n > 0);
    if (n == 0) continue;
    ++overlapping;
    double min_dist = 0.0;
    for (int i = 0; i < n; ++i) {
      CHECK(c[i].dist <= 1e-15);
      CHECK(norm(c[i].frame[0]) == doctest::Approx(1.0).epsilon(1e-14));
      min_dist = std::min(min_dist, c[i].dist);
      if (c[i].feature >= 1024) continue;
      // Face contacts: the incident point (pos + n dist/2) lies on one box and its foot (pos - n dist/2) on
      // the other, whichever is the reference.
      const V a = c[i].pos + c[i].frame[0] * (c[i].dist * 0.5);
      const V b = c[i].pos - c[i].frame[0] * (c[i].dist * 0.5);
      const double on_a =
          std::min(std::fabs(box_signed_distance(a, p1, h1)), std::fabs(box_signed_distance(a, p2, h2)));
      const double on_b =
          std::min(std::fabs(box_signed_distance(b, p1, h1)), std::fabs(box_signed_distance(b, p2, h2)));
      CHECK(on_a < 1e-9);
      CHECK(on_b < 1e-9);
      // The incident point is no deeper inside the other box than the contact says: its depth below the
      // reference face bounds its distance to every face of that box.
      CHECK(std::max(box_signed_distance(a, p1, h1), box_signed_distance(a, p2, h2)) >= c[i].dist - 1e-12);
      ++face_cases;
    }
    // The deepest contact is at most the translation along box 1's thinnest axis (z) that separates them:
    // its half size plus box 2's extent along it, which is at most box 2's half diagonal.
    CHECK(-min_dist <= h1.z + norm(h2) + 1e-12);
  }
  CHECK(overlapping > 60);
  CHECK(face_cases > 100);
}

TEST_CASE("box-box: moving box 2 along the normal changes every distance by the same amount (1e-12)") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  const V h1(0.2, 0.15, 0.1), h2(0.12, 0.1, 0.18);
  Contact<double> c[kMaxContactsPerPair], d[kMaxContactsPerPair];
  int tested = 0;
  for (int trial = 0; trial < 200 && tested < 40; ++trial) {
    const Pose<double> p1{{0, 0, 0}, random_quat(rng)};
    Pose<double> p2{{u(rng), u(rng), u(rng)}, random_quat(rng)};
    const int n = box_box(p1, h1, p2, h2, c, 0.05);
    if (n == 0) continue;
    p2.pos += c[0].frame[0] * 1e-4;
    if (box_box(p1, h1, p2, h2, d, 0.05) != n || features(c, n) != features(d, n)) continue;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (c[i].feature == d[j].feature) CHECK(d[j].dist - c[i].dist == doctest::Approx(1e-4).epsilon(1e-7));
    ++tested;
  }
  CHECK(tested >= 30);
}

TEST_CASE("box-box: equal boxes flush face to face keep four corner contacts under rounding jitter") {
  Contact<double> c[kMaxContactsPerPair];
  const V half(0.025, 0.025, 0.025);
  std::set<int> first;
  for (int k = 0; k < 50; ++k) {
    const double jitter = 1e-17 * (k % 7 - 3);
    const Pose<double> a{{0.0, 0.0, 0.025 + jitter}, {}};
    const Pose<double> b{{0.05 - 1e-5, jitter, 0.025 - jitter}, {}};
    const int n = box_box(a, half, b, half, c);
    REQUIRE(n == 4);
    for (int i = 0; i < n; ++i) {
      CHECK(c[i].feature < kClipEdgeTag);  // corners of box 2 on face 0 (+x) of box 1: features 0-7
      CHECK(c[i].frame[0].x == doctest::Approx(1.0));
    }
    if (k == 0) first = features(c, n);
    CHECK(features(c, n) == first);
  }
}

TEST_CASE("box-box and sphere-box: forward-mode derivatives equal central differences (1e-6)") {
  // A generic face contact, an edge-edge contact and a sphere in a box's edge region, each differentiated
  // with respect to a rotation angle and a position coordinate of geom 2.
  struct Case {
    GeomType a;
    V size_a;
    Pose<double> pose_a;
    V size_b;
    V pos_b;
    V euler_b;
  };
  const Case cases[] = {
      {GeomType::box,
       V(0.3, 0.2, 0.1),
       {{0, 0, 0}, from_euler_xyz(3.0, -4.0, 10.0)},
       V(0.1, 0.12, 0.08),
       V(0.05, 0.02, 0.17),
       V(8.0, 5.0, 30.0)},
      {GeomType::box,
       V(0.4, 0.1, 0.1),
       {{0, 0, 0}, from_euler_xyz(45.0, 0.0, 0.0)},
       V(0.1, 0.4, 0.1),
       V(0.02, -0.01, 0.28),
       V(3.0, 45.0, 4.0)},
      {GeomType::sphere,
       V(0.05, 0, 0),
       {{0.22, 0.16, 0.0}, {}},
       V(0.2, 0.15, 0.1),
       V(0.0, 0.0, 0.0),
       V(0.0, 0.0, 7.0)},
  };
  for (const Case& cs : cases) {
    for (int which = 0; which < 2; ++which) {
      auto f = [&](const D1& p) {
        Pose<D1> pa{Vec3<D1>(cs.pose_a.pos),
                    Quat<D1>(cs.pose_a.rot.w, cs.pose_a.rot.x, cs.pose_a.rot.y, cs.pose_a.rot.z)};
        Vec3<D1> pos(cs.pos_b);
        D1 angle(cs.euler_b.z);
        if (which == 0) angle = p;
        if (which == 1) pos.x = p;
        Pose<D1> pb{pos, from_euler_xyz(D1(cs.euler_b.x), D1(cs.euler_b.y), angle)};
        Contact<D1> out[kMaxContactsPerPair];
        const int n = collide(cs.a, pa, Vec3<D1>(cs.size_a), GeomType::box, pb, Vec3<D1>(cs.size_b),
                              CollisionOptions{0.1, 0.0}, out);
        REQUIRE(n >= 1);
        D1 sum = 0.0;  // every contact's distance and position, so that each one's derivative counts
        for (int i = 0; i < n; ++i)
          sum += out[i].dist * double(i + 1) + dot(out[i].pos, Vec3<D1>(1.0, 2.0, 3.0));
        return sum;
      };
      const double p0 = which == 0 ? cs.euler_b.z : cs.pos_b.x;
      double ad = 0.0, fd = 0.0;
      derivative_pair(f, p0, 1e-6, &ad, &fd);
      CHECK(std::fabs(ad - fd) <= 1e-6 * (1.0 + std::fabs(ad)));
    }
  }
}
