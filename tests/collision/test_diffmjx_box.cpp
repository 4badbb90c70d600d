// DiffMJX's softjax-smoothed plane-box manifold (collision.mode "diffmjx"): the fork's contacts at fixed
// poses against the pure-Python replica of it, its derivatives, and the pairs the mode covers.
#include <doctest/doctest.h>

#include "collision_test_util.hpp"
#include "engine/collision/softjax_ops.hpp"

using namespace sg;
using namespace sg::test;

namespace {

const V kHalf(0.05, 0.05, 0.05);

CollisionOptions diffmjx(double softness, double margin = 1.0) {
  return {margin, softness, Detector::diffmjx};
}

Pose<double> ground() {
  return {V(0, 0, 0), Q()};
}

struct RefContact {
  double dist;
  double pos[3];
};

struct RefPose {
  const char* name;
  double softness;
  double quat[4];
  double pos[3];
  RefContact contacts[4];
};

// The replica's soft branch (/work/scratch/diffmjx_box_replica: sim.collide "mjx_soft" without its
// dist < 0 filter, built on soft_manifold.py's sargmax, smax, relu, ge), printed with repr. Plane z = 0,
// cube of half size 0.05; the box rotated about x with its lowest corner touching, and a generic pose
// 1 mm deep. Contacts a, b, c, d; only b differs (by about 1e-8 in its weights).
const RefPose kPoses[] = {
    {"60 deg, edge down",
     0.1,
     {0.8660254037844387, 0.49999999999999994, 0.0, 0.0},
     {0.0, 0.0, 0.06830127018922194},
     {{0.005006830361669071, {0.0, 0.012547132546630348, 0.002503415180834524}},
      {0.005006830377918613, {0.0, 0.012547132353833607, 0.0025034151889592824}},
      {0.005006830361669071, {0.0, 0.012547132546630348, 0.002503415180834524}},
      {0.005006830361669071, {0.0, 0.012547132546630348, 0.002503415180834524}}}},
    {"45 deg",
     0.1,
     {0.9238795325112867, 0.3826834323650898, 0.0, 0.0},
     {0.0, 0.0, 0.07071067811865475},
     {{0.004021554960281386, {0.0, 6.489353814384013e-18, 0.002010777480140686}},
      {0.00402155481912041, {0.0, 6.489353814186562e-18, 0.002010777409560216}},
      {0.004021554960281386, {0.0, 6.489353814384013e-18, 0.002010777480140686}},
      {0.004021554960281376, {0.0, 6.489353814384013e-18, 0.0020107774801406907}}}},
    {"10 deg",
     0.1,
     {0.9961946980917455, 0.08715574274765817, 0.0, 0.0},
     {0.0, 0.0, 0.05792279653395692},
     {{0.0061673193598665715, {0.0, -0.01138399761508469, 0.0030836596799332927}},
      {0.006167319499255775, {0.0, -0.011383996758025776, 0.0030836597496278857}},
      {0.0061673193598665715, {0.0, -0.01138399761508469, 0.0030836596799332927}},
      {0.0061673193598665715, {0.0, -0.01138399761508469, 0.0030836596799332927}}}},
    {"flat",
     0.1,
     {1.0, 0.0, 0.0, 0.0},
     {0.0, 0.0, 0.05},
     {{0.0009745353006150641, {0.0, 0.0, 0.0004872676503075549}},
      {0.0009745353006150641, {0.0, 0.0, 0.0004872676503075549}},
      {0.0009745353006150641, {0.0, 0.0, 0.0004872676503075549}},
      {0.0009745353006150641, {0.0, 0.0, 0.0004872676503075549}}}},
    {"generic, 1 mm deep",
     0.1,
     {0.8431324835125489, 0.44274875033211364, 0.044296244782429106, 0.30189236827632504},
     {0.3, -0.2, 0.07749948043756905},
     {{0.009592341707708472, {0.29151934984707273, -0.19826143283419276, 0.004796170853854257}},
      {0.009592341592117082, {0.29151935008421354, -0.1982614326967689, 0.004796170796058569}},
      {0.009592341707708472, {0.29151934984707273, -0.19826143283419276, 0.004796170853854257}},
      {0.009592341707708472, {0.29151934984707273, -0.19826143283419276, 0.004796170853854257}}}},
    {"10 deg, softness 0.02",
     0.02,
     {0.9961946980917455, 0.08715574274765817, 0.0, 0.0},
     {0.0, 0.0, 0.05792279653395692},
     {{1.52536686634835e-07, {0.0, -0.04055711369236479, 7.626834332541709e-08}},
      {1.525367215126121e-07, {0.0, -0.04055711369216698, 7.62683607683482e-08}},
      {1.52536686634835e-07, {0.0, -0.04055711369236479, 7.626834332541709e-08}},
      {1.52536686634835e-07, {0.0, -0.04055711369236479, 7.626834332541709e-08}}}},
    {"generic, softness 0.02",
     0.02,
     {0.8431324835125489, 0.44274875033211364, 0.044296244782429106, 0.30189236827632504},
     {0.3, -0.2, 0.07749948043756905},
     {{-0.0009996012278957642, {0.2657031089635088, -0.21270474056219693, -0.0004998006139478646}},
      {-0.00099960122788451, {0.2657031089635563, -0.2127047405621649, -0.0004998006139422368}},
      {-0.0009996012278957642, {0.2657031089635088, -0.21270474056219693, -0.0004998006139478646}},
      {-0.0009996012278957642, {0.2657031089635088, -0.21270474056219693, -0.0004998006139478646}}}},
};

Pose<double> pose_of(const RefPose& r) {
  return {V(r.pos[0], r.pos[1], r.pos[2]), Q(r.quat[0], r.quat[1], r.quat[2], r.quat[3])};
}

}  // namespace

TEST_CASE(
    "softjax ops: argmax standardises before the softmax, relu and abs are softplus and sigmoid forms") {
  const double x[3] = {1.0, 2.0, 4.0};
  double w[3];
  softjax::argmax(x, 0.1, w);
  // mean 7/3, population variance 14/9: z = sigmoid((x - mean)/sqrt(var + 1e-6)) / 0.1, then softmax.
  const double mean = 7.0 / 3.0, sd = std::sqrt(14.0 / 9.0 + 1e-6);
  double e[3], total = 0.0;
  for (int i = 0; i < 3; ++i) total += e[i] = std::exp(10.0 / (1.0 + std::exp(-(x[i] - mean) / sd)));
  for (int i = 0; i < 3; ++i) CHECK(w[i] == doctest::Approx(e[i] / total).epsilon(1e-14));
  // Scale-free: multiplying x by 1000 changes the weights only through the 1e-6 under the root.
  const double big[3] = {1000.0, 2000.0, 4000.0};
  double wb[3];
  softjax::argmax(big, 0.1, wb);
  for (int i = 0; i < 3; ++i) CHECK(wb[i] == doctest::Approx(w[i]).epsilon(1e-5));
  CHECK(softjax::max(x, 0.1) == doctest::Approx(w[0] * 1.0 + w[1] * 2.0 + w[2] * 4.0).epsilon(1e-15));
  CHECK(softjax::relu(0.0, 0.1) == doctest::Approx(0.1 * std::log(2.0)).epsilon(1e-15));
  CHECK(softjax::relu(5.0, 0.1) == doctest::Approx(5.0).epsilon(1e-15));
  CHECK(softjax::greater_equal(0.3, 0.3, 0.1) > 0.5);  // a tie counts as greater
  CHECK(softjax::abs(-0.2, 0.1) == doctest::Approx(0.2 * std::tanh(1.0)).epsilon(1e-14));
}

TEST_CASE("diffmjx box: contacts at the tabulated poses equal the Python replica's to 1e-14 m") {
  for (const RefPose& r : kPoses) {
    CAPTURE(r.name);
    Contact<double> c[kMaxContactsPerPair];
    const int n =
        collide(GeomType::plane, ground(), V(), GeomType::box, pose_of(r), kHalf, diffmjx(r.softness), c);
    REQUIRE(n == 4);
    for (int k = 0; k < 4; ++k) {
      CAPTURE(k);
      CHECK(c[k].feature == k);
      CHECK(std::fabs(c[k].dist - r.contacts[k].dist) <= 1e-14);
      CHECK(close(c[k].pos, V(r.contacts[k].pos[0], r.contacts[k].pos[1], r.contacts[k].pos[2]), 1e-14));
      // The exact frame (MuJoCo's make_frame), as the fork: +z, then +y and -x.
      CHECK(close(c[k].frame[0], V(0, 0, 1), 0.0));
      CHECK(close(c[k].frame[1], V(0, 1, 0), 0.0));
      CHECK(close(c[k].frame[2], V(-1, 0, 0), 0.0));
    }
  }
}

TEST_CASE("diffmjx box: the touching cube's contacts sit 1-6 mm short of the plane, inside the box") {
  // docs/collision.md: with softness 0.1 the blend of the lowest corners turns on only after sinking.
  const double expected_mm[] = {5.0, 4.0, 6.2, 1.0};
  for (int i = 0; i < 4; ++i) {
    Contact<double> c[kMaxContactsPerPair];
    collide(GeomType::plane, ground(), V(), GeomType::box, pose_of(kPoses[i]), kHalf, diffmjx(0.1), c);
    CHECK(c[0].dist * 1e3 == doctest::Approx(expected_mm[i]).epsilon(0.03));
  }
}

TEST_CASE(
    "diffmjx box: the margin filters the four contacts together, and the manifold is invariant under "
    "rotation") {
  const Pose<double> pose = pose_of(kPoses[0]);  // dist 5.0 mm
  Contact<double> c[kMaxContactsPerPair];
  CHECK(collide(GeomType::plane, ground(), V(), GeomType::box, pose, kHalf, diffmjx(0.1, 0.0), c) == 0);
  CHECK(collide(GeomType::plane, ground(), V(), GeomType::box, pose, kHalf, diffmjx(0.1, 0.006), c) == 4);
  // Rotating plane and box together rotates the contacts and keeps the distances (a general normal).
  std::mt19937 rng(7);
  const Pose<double> g = pose_of(kPoses[4]);
  Contact<double> base[kMaxContactsPerPair];
  REQUIRE(collide(GeomType::plane, ground(), V(), GeomType::box, g, kHalf, diffmjx(0.1), base) == 4);
  for (int trial = 0; trial < 5; ++trial) {
    const Q turn = random_quat(rng);
    const V shift(0.1 * trial, -0.3, 0.2);
    const Pose<double> plane{shift, turn};
    const Pose<double> box{shift + rotate(turn, g.pos), turn * g.rot};
    Contact<double> r[kMaxContactsPerPair];
    REQUIRE(collide(GeomType::plane, plane, V(), GeomType::box, box, kHalf, diffmjx(0.1), r) == 4);
    for (int k = 0; k < 4; ++k) {
      CHECK(std::fabs(r[k].dist - base[k].dist) <= 1e-14);
      CHECK(close(r[k].pos, shift + rotate(turn, base[k].pos), 1e-14));
      CHECK(close(r[k].frame[0], rotate(turn, V(0, 0, 1)), 1e-14));
    }
  }
}

TEST_CASE("diffmjx box: forward-mode derivatives equal central differences") {
  const RefPose& r = kPoses[4];
  for (int k = 0; k < 4; ++k) {
    // Distance and position height w.r.t. a rotation about x and w.r.t. the centre height.
    auto at = [&](auto angle, auto height, int what) {
      using S = decltype(angle);
      const Quat<S> turn = from_axis_angle(Vec3<S>(S(1.0), S(0.0), S(0.0)), angle);
      const Quat<S> q0(S(r.quat[0]), S(r.quat[1]), S(r.quat[2]), S(r.quat[3]));
      const Pose<S> pose{Vec3<S>(S(r.pos[0]), S(r.pos[1]), height), turn * q0};
      Contact<S> c[kMaxContactsPerPair];
      const Pose<S> plane{Vec3<S>(), Quat<S>()};
      collide(GeomType::plane, plane, Vec3<S>(), GeomType::box, pose, Vec3<S>(S(0.05), S(0.05), S(0.05)),
              diffmjx(0.1), c);
      return what == 0 ? c[k].dist : (what == 1 ? c[k].pos.y : c[k].pos.z);
    };
    for (int what = 0; what < 3; ++what) {
      double ad, fd;
      derivative_pair([&](D1 a) { return at(a, D1(r.pos[2]), what); }, 0.1, 1e-6, &ad, &fd);
      CHECK(std::fabs(ad - fd) <= 1e-7 * (1.0 + std::fabs(ad)));
      derivative_pair([&](D1 z) { return at(D1(0.1), z, what); }, r.pos[2], 1e-6, &ad, &fd);
      CHECK(std::fabs(ad - fd) <= 1e-7 * (1.0 + std::fabs(ad)));
    }
  }
}

TEST_CASE("diffmjx mode: sphere and ellipsoid as exact, capsule, cylinder and body pairs unsupported") {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const Pose<double> pose{V(0.1, -0.2, 0.04), random_quat(rng)};
    for (GeomType t : {GeomType::sphere, GeomType::ellipsoid}) {
      const V size(0.05, 0.07, 0.1);
      Contact<double> a[kMaxContactsPerPair], b[kMaxContactsPerPair];
      const int na = collide(GeomType::plane, ground(), V(), t, pose, size, diffmjx(0.1, 0.0), a);
      const int nb = collide(GeomType::plane, ground(), V(), t, pose, size, CollisionOptions{}, b);
      REQUIRE(na == nb);
      for (int k = 0; k < na; ++k) {
        CHECK(a[k].dist == b[k].dist);
        CHECK(close(a[k].pos, b[k].pos, 0.0));
        for (int f = 0; f < 3; ++f) CHECK(close(a[k].frame[f], b[k].frame[f], 0.0));
      }
    }
  }
  for (GeomType t : {GeomType::capsule, GeomType::cylinder}) {
    CHECK_FALSE(pair_supported(GeomType::plane, t, Detector::diffmjx));
    Contact<double> c[kMaxContactsPerPair];
    CHECK(collide(GeomType::plane, ground(), V(), t, Pose<double>{V(0, 0, 0), Q()}, V(0.05, 0.1, 0),
                  diffmjx(0.1), c) == 0);
  }
  CHECK_FALSE(pair_supported(GeomType::sphere, GeomType::sphere, Detector::diffmjx));
  CHECK(pair_supported(GeomType::box, GeomType::plane, Detector::diffmjx));
  CHECK(pair_supported(GeomType::sphere, GeomType::sphere));  // softgrad's detector unchanged
}
