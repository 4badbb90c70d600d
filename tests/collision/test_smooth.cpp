// The smooth detector: proxies, convergence to the exact detector as softness -> 0, forward-mode
// derivatives against central differences, and continuity of derivatives where the exact detector
// switches cases.
#include <doctest/doctest.h>

#include "collision_test_util.hpp"
#include "engine/collision/smooth_ops.hpp"

using namespace sg;
using namespace sg::test;

namespace {

// A scalar summary of a contact set: sum of (margin - dist)^2 (a force-like weight that vanishes at the
// margin) plus a generic combination of positions, so both distances and positions are exercised.
template <class S>
S summary(const Contact<S>* c, int n, double margin) {
  S total(0.0);
  for (int i = 0; i < n; ++i)
    total += sq(S(margin - c[i].dist)) + c[i].pos.x * 0.3 + c[i].pos.y * 0.7 - c[i].pos.z;
  return total;
}

// AD and FD agree: |ad - fd| <= 1e-6 (1 + |ad|) with h = 1e-6.
void check_ad_fd(double ad, double fd) {
  CAPTURE(ad);
  CAPTURE(fd);
  CHECK(std::fabs(ad - fd) <= 1e-6 * (1.0 + std::fabs(ad)));
}

}  // namespace

TEST_CASE("smooth ops: exact at s = 0, bounded error and exact far from the switch for s > 0") {
  CHECK(smooth_max(1.0, 2.0, 0.0) == 2.0);
  CHECK(smooth_min(1.0, 2.0, 0.0) == 1.0);
  CHECK(smooth_abs(-3.0, 0.0) == 3.0);
  CHECK(smooth_clamp(1.5, -1.0, 1.0, 0.0) == 1.0);
  CHECK(smooth_sign(0.0, 0.0) == 1.0);
  CHECK(smooth_sign(-1e-300, 0.0) == -1.0);
  const double s = 0.01;
  for (double d : {-0.1, -0.01, 0.0, 0.003, 0.05}) {
    const double m = smooth_max(d, 0.0, s);
    CHECK(m >= std::max(d, 0.0));
    CHECK(m - std::max(d, 0.0) <= s * std::log(2.0) + 1e-15);
  }
  CHECK(smooth_max(0.3, 0.0, s) - 0.3 < 1e-14);  // 30 softnesses away: exp(-30) s
  CHECK(std::fabs(smooth_clamp(0.3, -1.0, 1.0, s) - 0.3) < 1e-15);
  CHECK(smooth_abs(0.0, s) == doctest::Approx(s * std::log(2.0)).epsilon(1e-14));
  CHECK(smooth_sign(0.02, s) == doctest::Approx(std::tanh(2.0)).epsilon(1e-15));
  // At the bound the clamp's slope is exactly 1/2 (logistic at 0).
  CHECK(tangent(smooth_clamp(seeded<D1>(1.0, 0), -1.0, 1.0, s), 0) == doctest::Approx(0.5).epsilon(1e-12));
  double x[3] = {0.1, 0.5, 0.2}, w[3];
  softmax_weights(x, 3, 0.0, w);
  CHECK((w[0] == 0.0 && w[1] == 1.0 && w[2] == 0.0));
  softmax_weights(x, 3, 0.1, w);
  CHECK(w[0] + w[1] + w[2] == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(w[1] / w[0] == doctest::Approx(std::exp(4.0)).epsilon(1e-12));
  softmax_weights(x, 3, 1e-3, w);
  CHECK((w[1] == 1.0 && w[0] < 1e-100 && w[2] < 1e-100));
}

TEST_CASE("smooth detector converges to the exact one as softness -> 0 (error < 1e-5 at s = 1e-6)") {
  // Errors shrink monotonically with s. Clamps converge exponentially; the cylinder's direction bias is
  // first order (about s / sin(tilt)), hence the 1e-5 bound at s = 1e-6.
  Contact<double> ce[kMaxContactsPerPair], cs[kMaxContactsPerPair];
  const Pose<double> cap{{0, 0, 0}, from_euler_xyz(10.0, 20.0, 0.0)};
  const Pose<double> sph{{0.04, 0.02, 0.098}, {}};  // near the end of the segment: clamps nearly active
  const Pose<double> other{{0.05, 0.06, 0.08}, from_euler_xyz(70.0, -10.0, 30.0)};
  const Pose<double> cyl{{0, 0, 0.05}, from_euler_xyz(30.0, 15.0, 0.0)};
  const Pose<double> box{{0, 0, 0.06}, from_euler_xyz(12.0, -7.0, 40.0)};
  const Plane<double> ground{{0, 0, 0}, {0, 0, 1}};
  double previous[4] = {1e300, 1e300, 1e300, 1e300};
  for (double s : {1e-2, 1e-3, 1e-4, 1e-6}) {
    const CollisionOptions exact{0.01, 0.0}, smooth{0.01, s}, exact_all{1.0, 0.0}, smooth_all{1.0, s};
    double err[4] = {0, 0, 0, 0};
    REQUIRE(collide_sphere_capsule(sph, 0.03, cap, 0.05, 0.1, exact_all, ce) == 1);
    REQUIRE(collide_sphere_capsule(sph, 0.03, cap, 0.05, 0.1, smooth_all, cs) == 1);
    err[0] = std::fabs(ce[0].dist - cs[0].dist) + norm(ce[0].pos - cs[0].pos);
    REQUIRE(collide_capsule_capsule(cap, 0.05, 0.1, other, 0.03, 0.08, exact_all, ce) == 1);
    REQUIRE(collide_capsule_capsule(cap, 0.05, 0.1, other, 0.03, 0.08, smooth_all, cs) == 1);
    err[1] = std::fabs(ce[0].dist - cs[0].dist) + norm(ce[0].pos - cs[0].pos);
    // Cylinder: the exact contacts must reappear in the smooth set (same rim points, tiny bias).
    const int ne = collide_plane_cylinder(ground, cyl, 0.04, 0.05, exact, ce);
    const int ns = collide_plane_cylinder(ground, cyl, 0.04, 0.05, smooth, cs);
    REQUIRE(ne >= 1);
    for (int i = 0; i < ne; ++i) {
      double best = 1e300;
      for (int j = 0; j < ns; ++j)
        best = std::min(best, std::fabs(ce[i].dist - cs[j].dist) + norm(ce[i].pos - cs[j].pos));
      err[2] = std::max(err[2], best);
    }
    // Box with a small margin: the same corners in both modes, identical values.
    const int nb = collide_plane_box(ground, box, V(0.05, 0.05, 0.05), exact, ce);
    REQUIRE(collide_plane_box(ground, box, V(0.05, 0.05, 0.05), smooth, cs) == nb);
    for (int i = 0; i < nb; ++i) err[3] = std::max(err[3], std::fabs(ce[i].dist - cs[i].dist));
    for (int k = 0; k < 4; ++k) {
      CAPTURE(k);
      CAPTURE(s);
      CHECK(err[k] <= previous[k] + 1e-15);
      previous[k] = err[k];
    }
  }
  for (int k = 0; k < 4; ++k) CHECK(previous[k] < 1e-5);
}

TEST_CASE("smooth detector: forward-mode derivatives equal central differences for every pair") {
  const double s = 0.005, margin = 0.05, h = 1e-6;
  const CollisionOptions opt{margin, s};
  const GeomType types[] = {GeomType::sphere, GeomType::capsule, GeomType::box, GeomType::cylinder,
                            GeomType::ellipsoid};
  const V sizes[] = {{0.05, 0, 0}, {0.05, 0.07, 0}, {0.05, 0.05, 0.05}, {0.04, 0.05, 0}, {0.05, 0.05, 0.1}};
  for (int t = 0; t < 5; ++t) {
    // Rotation angle about a fixed oblique axis, and the height, as the differentiated parameters.
    const V axis = V(0.3, 1.0, 0.2) / norm(V(0.3, 1.0, 0.2));
    auto by_angle = [&](D1 angle) {
      Pose<D1> plane_pose;
      const Pose<D1> pose{{D1(0.01), D1(-0.02), D1(0.07)}, from_axis_angle(Vec3<D1>(axis), angle)};
      Contact<D1> c[kMaxContactsPerPair];
      const int n =
          collide(GeomType::plane, plane_pose, Vec3<D1>(), types[t], pose, Vec3<D1>(sizes[t]), opt, c);
      return summary(c, n, margin);
    };
    auto by_height = [&](D1 z) {
      Pose<D1> plane_pose;
      const Pose<D1> pose{{D1(0.01), D1(-0.02), z}, Quat<D1>(from_euler_xyz(25.0, 40.0, 10.0))};
      Contact<D1> c[kMaxContactsPerPair];
      const int n =
          collide(GeomType::plane, plane_pose, Vec3<D1>(), types[t], pose, Vec3<D1>(sizes[t]), opt, c);
      return summary(c, n, margin);
    };
    CAPTURE(geom_type_name(types[t]));
    double ad, fd;
    derivative_pair(by_angle, 0.9, h, &ad, &fd);
    check_ad_fd(ad, fd);
    derivative_pair(by_height, 0.06, h, &ad, &fd);
    check_ad_fd(ad, fd);
  }
  // Round pairs, differentiated w.r.t. a rotation angle of geom 2 and a position of geom 1.
  auto round = [&](GeomType a, GeomType b, const V& sa, const V& sb, bool angle) {
    return [=](D1 p) {
      const D1 px = angle ? D1(0.02) : p;
      const D1 ang = angle ? p : D1(0.7);
      const Pose<D1> p1{{px, D1(0.01), D1(0.0)}, Quat<D1>(from_euler_xyz(15.0, 60.0, -20.0))};
      const Pose<D1> p2{{D1(0.0), D1(0.03), D1(0.09)}, from_axis_angle(Vec3<D1>(V(0.6, 0.0, 0.8)), ang)};
      Contact<D1> c[kMaxContactsPerPair];
      const int n = collide(a, p1, Vec3<D1>(sa), b, p2, Vec3<D1>(sb), CollisionOptions{margin, s}, c);
      return summary(c, n, margin);
    };
  };
  const V sph(0.04, 0, 0), caps(0.03, 0.08, 0);
  double ad, fd;
  for (bool angle : {true, false}) {
    derivative_pair(round(GeomType::sphere, GeomType::sphere, sph, sph, angle), angle ? 0.7 : 0.02, h, &ad,
                    &fd);
    check_ad_fd(ad, fd);
    derivative_pair(round(GeomType::sphere, GeomType::capsule, sph, caps, angle), angle ? 0.7 : 0.02, h, &ad,
                    &fd);
    check_ad_fd(ad, fd);
    derivative_pair(round(GeomType::capsule, GeomType::capsule, caps, caps, angle), angle ? 0.7 : 0.02, h,
                    &ad, &fd);
    check_ad_fd(ad, fd);
  }
}

TEST_CASE("case switches: exact derivative jumps, smooth derivative is continuous and equals FD") {
  // Each case: f(mode, p) with the exact detector switching at p0. Exact: one-sided difference
  // quotients differ by more than `jump`. Smooth (s = 5 mm): AD = central FD at p0 and AD(p0 -+ 1e-6)
  // differ by less than 1e-3 (the smooth slope varies on the scale of s).
  struct Case {
    const char* name;
    double p0;
    double jump;
  };
  const double s = 0.005;

  // Sphere sliding past the +z end of a capsule (clamp of the axial coordinate): contact pos.z.
  auto sphere_capsule = [&](double soft) {
    return [=](D1 z) {
      const Pose<D1> sphere{{D1(0.12), D1(0.0), z}, {}};
      const Pose<D1> capsule{{D1(0.0), D1(0.0), D1(0.0)}, {}};
      Contact<D1> c[kMaxContactsPerPair];
      REQUIRE(collide_sphere_capsule(sphere, D1(0.05), capsule, D1(0.05), D1(0.1),
                                     CollisionOptions{0.1, soft}, c) == 1);
      return c[0].pos.z;
    };
  };
  // A capsule along y sliding along x past the end of a capsule along x: closest point clamps to its end.
  auto capsule_capsule = [&](double soft) {
    return [=](D1 x) {
      const Pose<D1> a{{D1(0.0), D1(0.0), D1(0.0)}, Quat<D1>(from_axis_angle(V(0, 1, 0), kPiT / 2))};
      const Pose<D1> b{{x, D1(0.0), D1(0.12)}, Quat<D1>(from_axis_angle(V(1, 0, 0), kPiT / 2))};
      Contact<D1> c[kMaxContactsPerPair];
      REQUIRE(collide_capsule_capsule(a, D1(0.05), D1(0.1), b, D1(0.05), D1(0.1), CollisionOptions{0.1, soft},
                                      c) == 1);
      return c[0].pos.x;
    };
  };
  // Box edge-down at 45 degrees about x with a wide margin: exact mode swaps which side corners are
  // among the 4 deepest at 45 degrees; smooth mode keeps all corners inside the margin.
  auto box = [&](double soft) {
    return [=](D1 angle) {
      const Pose<D1> pose{{D1(0.0), D1(0.0), D1(0.07)}, from_axis_angle(Vec3<D1>(V(1, 0, 0)), angle)};
      Contact<D1> c[kMaxContactsPerPair];
      const int n =
          collide_plane_box(Plane<D1>{}, pose, Vec3<D1>(V(0.05, 0.05, 0.05)), CollisionOptions{0.2, soft}, c);
      return summary(c, n, 0.2);
    };
  };
  // Exact cylinder lying on its side: the "near cap" flips at 90 degrees.
  auto cylinder = [&](double soft) {
    return [=](D1 angle) {
      const Pose<D1> pose{{D1(0.0), D1(0.0), D1(0.039)}, from_axis_angle(Vec3<D1>(V(1, 0, 0)), angle)};
      Contact<D1> c[kMaxContactsPerPair];
      const int n =
          collide_plane_cylinder(Plane<D1>{}, pose, D1(0.04), D1(0.05), CollisionOptions{0.1, soft}, c);
      return summary(c, n, 0.1);
    };
  };

  const double hq = 1e-7, hd = 1e-6;
  auto check_case = [&](const Case& k, auto make) {
    CAPTURE(k.name);
    auto exact = make(0.0);
    const double left = (value(exact(D1(k.p0))) - value(exact(D1(k.p0 - hq)))) / hq;
    const double right = (value(exact(D1(k.p0 + hq))) - value(exact(D1(k.p0)))) / hq;
    CHECK(std::fabs(left - right) > k.jump);
    auto smooth = make(s);
    double ad, fd;
    derivative_pair(smooth, k.p0, hd, &ad, &fd);
    check_ad_fd(ad, fd);
    const double ad_minus = tangent(smooth(seeded<D1>(k.p0 - hd, 0)), 0);
    const double ad_plus = tangent(smooth(seeded<D1>(k.p0 + hd, 0)), 0);
    CHECK(std::fabs(ad_plus - ad_minus) < 1e-3);
  };
  check_case({"sphere-capsule end", 0.1, 0.3}, sphere_capsule);
  check_case({"capsule-capsule end", 0.1, 0.2}, capsule_capsule);
  check_case({"box corner swap", kPiT / 4, 0.01}, box);
  check_case({"cylinder cap swap", kPiT / 2, 0.01}, cylinder);
}
