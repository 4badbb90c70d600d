// Mat3 and quaternion identities.
#include <doctest/doctest.h>

#include "collision_test_util.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/quat.hpp"

using namespace sg;
using namespace sg::test;

namespace {

Mat3<double> rot_x(double deg) {
  const double a = deg * kPiT / 180.0, c = std::cos(a), s = std::sin(a);
  return Mat3<double>::from_columns({1, 0, 0}, {0, c, s}, {0, -s, c});
}
Mat3<double> rot_y(double deg) {
  const double a = deg * kPiT / 180.0, c = std::cos(a), s = std::sin(a);
  return Mat3<double>::from_columns({c, 0, -s}, {0, 1, 0}, {s, 0, c});
}
Mat3<double> rot_z(double deg) {
  const double a = deg * kPiT / 180.0, c = std::cos(a), s = std::sin(a);
  return Mat3<double>::from_columns({c, s, 0}, {-s, c, 0}, {0, 0, 1});
}
bool mat_close(const Mat3<double>& a, const Mat3<double>& b, double tol) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (std::fabs(a(i, j) - b(i, j)) > tol) return false;
  return true;
}

}  // namespace

TEST_CASE("mat3: products, transpose, columns, skew and outer (tol 1e-14)") {
  const Mat3<double> a = Mat3<double>::from_columns({1, 2, 3}, {-1, 0.5, 4}, {2, -3, 1});
  const Mat3<double> b = Mat3<double>::from_columns({0.3, -2, 1}, {5, 1, -1}, {0, 2, 7});
  const V v(0.7, -1.3, 2.1), w(-0.4, 0.9, 1.6);
  CHECK(close(Mat3<double>::identity() * v, v, 1e-14));
  CHECK(close(Mat3<double>::diag({2, 3, 4}) * v, V(2 * v.x, 3 * v.y, 4 * v.z), 1e-14));
  CHECK(mat_close(transpose(a * b), transpose(b) * transpose(a), 1e-12));
  CHECK(close((a * b) * v, a * (b * v), 1e-12));
  CHECK(close(a.col(1), V(-1, 0.5, 4), 0.0));
  CHECK(close(a.row(0), V(1, -1, 2), 0.0));
  CHECK(close(mul_transpose(a, v), transpose(a) * v, 1e-14));
  CHECK(close(skew(v) * w, cross(v, w), 1e-14));
  CHECK(mat_close(transpose(skew(v)), skew(v) * -1.0, 0.0));
  CHECK(close(outer(v, w) * b.col(0), v * dot(w, b.col(0)), 1e-13));
}

TEST_CASE("quat: rotation identities on random unit quaternions (tol 1e-12)") {
  std::mt19937 rng(7);
  for (int k = 0; k < 50; ++k) {
    const Q p = random_quat(rng), q = random_quat(rng);
    const V v(0.3 * k - 2.0, 1.0, -0.5 + 0.1 * k);
    const Mat3<double> r = to_mat3(q);
    CHECK(close(rotate(q, v), r * v, 1e-12));
    CHECK(close(rotate(p * q, v), rotate(p, rotate(q, v)), 1e-12));
    CHECK(mat_close(r * transpose(r), Mat3<double>::identity(), 1e-12));
    CHECK(dot(cross(r.col(0), r.col(1)), r.col(2)) == doctest::Approx(1.0).epsilon(1e-12));  // det = +1
    const Q one = q * conjugate(q);
    CHECK(one.w == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(std::fabs(one.x) + std::fabs(one.y) + std::fabs(one.z) < 1e-12);
    CHECK(close(rotate(conjugate(q), rotate(q, v)), v, 1e-12));
    CHECK(norm(normalized(Q(2.0 * q.w, 2.0 * q.x, 2.0 * q.y, 2.0 * q.z))) ==
          doctest::Approx(1.0).epsilon(1e-15));
  }
}

TEST_CASE("quat: axis-angle and quat_exp agree, quat_log inverts quat_exp (tol 1e-13)") {
  const V axis = V(1.0, -2.0, 0.5) / norm(V(1.0, -2.0, 0.5));
  CHECK(close(rotate(from_axis_angle(V(0, 0, 1), kPiT / 2), V(1, 0, 0)), V(0, 1, 0), 1e-15));
  for (double angle : {0.0, 1e-9, 1e-4, 0.05, 0.0999, 0.1001, 0.7, 2.5, 3.1}) {
    const Q a = from_axis_angle(axis, angle);
    const Q e = quat_exp(axis * angle);
    CHECK(std::fabs(a.w - e.w) + std::fabs(a.x - e.x) + std::fabs(a.y - e.y) + std::fabs(a.z - e.z) < 1e-13);
    CHECK(norm(e) == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(close(quat_log(e), axis * angle, 1e-12));
  }
}

TEST_CASE("quat: quat_exp has its exact derivative [0, a/2] at phi = 0 (forward mode, tol 1e-15)") {
  const V a(0.3, -0.8, 0.5);
  const D1 t = seeded<D1>(0.0, 0);
  const Quat<D1> q = quat_exp(Vec3<D1>(a.x * t, a.y * t, a.z * t));
  CHECK(std::fabs(tangent(q.w, 0)) < 1e-15);
  CHECK(tangent(q.x, 0) == doctest::Approx(a.x / 2).epsilon(1e-15));
  CHECK(tangent(q.y, 0) == doctest::Approx(a.y / 2).epsilon(1e-15));
  CHECK(tangent(q.z, 0) == doctest::Approx(a.z / 2).epsilon(1e-15));
  // Across the series/closed-form threshold (|phi| = 0.1) values and derivatives match to 1e-12.
  const V u = a / norm(a);
  for (double th : {0.1 - 1e-9, 0.1 + 1e-9}) {
    const D1 s = seeded<D1>(th, 0);
    const Quat<D1> qs = quat_exp(Vec3<D1>(u.x * s, u.y * s, u.z * s));
    CHECK(tangent(qs.w, 0) == doctest::Approx(-0.5 * std::sin(th / 2)).epsilon(1e-12));
    CHECK(tangent(qs.x, 0) == doctest::Approx(0.5 * u.x * std::cos(th / 2)).epsilon(1e-12));
  }
}

TEST_CASE("quat: from_euler_xyz is MuJoCo's intrinsic xyz in degrees (tol 1e-13)") {
  const double ax = 30.0, ay = -40.0, az = 75.0;
  const Mat3<double> expected = rot_x(ax) * rot_y(ay) * rot_z(az);
  CHECK(mat_close(to_mat3(from_euler_xyz(ax, ay, az)), expected, 1e-13));
  // A single 90 degree turn about x takes y to z.
  CHECK(close(rotate(from_euler_xyz(90.0, 0.0, 0.0), V(0, 1, 0)), V(0, 0, 1), 1e-15));
  // Intrinsic: the second turn is about the already rotated y axis, so z ends on x (extrinsic: on -y).
  CHECK(close(rotate(from_euler_xyz(90.0, 90.0, 0.0), V(0, 0, 1)), V(1, 0, 0), 1e-15));
}
