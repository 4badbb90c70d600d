// dexp_inv and exact rotation integration.
#include <doctest/doctest.h>

#include "collision_test_util.hpp"
#include "engine/rigid/rotation.hpp"

using namespace sg;
using namespace sg::test;

namespace {

// d/dt log(exp(phi) (x) exp(t omega)) at t = 0 by central differences: the rate of phi that keeps
// q0 (x) exp(phi) moving with body angular velocity omega.
V log_exp_rate(const V& phi, const V& omega, double h) {
  const Q base = quat_exp(phi);
  const V plus = quat_log(base * quat_exp(omega * h));
  const V minus = quat_log(base * quat_exp(omega * -h));
  return (plus - minus) / (2.0 * h);
}

}  // namespace

TEST_CASE("rotation: dexp_inv matches finite differences of log(exp) (tol 1e-7)") {
  const V omega(0.7, -1.2, 0.4);
  const V dir = V(0.2, 0.9, -0.4) / norm(V(0.2, 0.9, -0.4));
  for (double theta : {0.0, 1e-6, 1e-3, 0.05, 0.0999, 0.1001, 0.5, 1.5, 2.8}) {
    const V phi = dir * theta;
    CHECK(close(dexp_inv(phi, omega), log_exp_rate(phi, omega, 1e-6), 1e-7));
  }
  CHECK(close(dexp_inv(V(0, 0, 0), omega), omega, 0.0));
  // Rotation about phi itself: phi just grows at the rate omega.
  CHECK(close(dexp_inv(dir * 1.3, dir * 2.0), dir * 2.0, 1e-14));
}

TEST_CASE(
    "rotation: dexp_inv is continuous with finite derivatives at phi = 0 and across the series switch") {
  const V omega(0.7, -1.2, 0.4);
  const D1 t = seeded<D1>(0.0, 0);
  const Vec3<D1> r = dexp_inv(Vec3<D1>(t * 0.3, t * -0.5, t * 0.8), Vec3<D1>(omega));
  // d/dt at 0 is (phi' x omega)/2 (the beta term is quadratic).
  const V expect = cross(V(0.3, -0.5, 0.8), omega) * 0.5;
  CHECK(tangent(r.x, 0) == doctest::Approx(expect.x).epsilon(1e-14));
  CHECK(tangent(r.y, 0) == doctest::Approx(expect.y).epsilon(1e-14));
  CHECK(tangent(r.z, 0) == doctest::Approx(expect.z).epsilon(1e-14));
  const V dir(0.0, 0.6, 0.8);
  CHECK(
      close(dexp_inv(dir * (0.1 - 1e-12), omega), dexp_inv(dir * (0.1 + 1e-12), omega), 5e-12));  // slope ~1
}

TEST_CASE("rotation: the phi ODE with folds matches direct quaternion integration (tol 1e-9)") {
  // Time-varying body rate, so phi and omega are not parallel and dexp_inv's correction terms matter.
  // Reference: RK4 on q_dot = q (x) [0, omega/2] with 10x smaller steps. Ours: RK4 on
  // phi_dot = dexp_inv(phi, omega) with a fold (q0 <- q0 (x) exp(phi), phi <- 0) every 10 steps.
  auto omega = [](double t) { return V(std::sin(3.0 * t), 2.0 * std::cos(2.0 * t), 0.5 + t); };
  auto qdot = [&](const Q& q, double t) {
    const V w = omega(t) * 0.5;
    return q * Q(0.0, w.x, w.y, w.z);
  };
  auto axpy = [](const Q& q, const Q& d, double h) {
    return Q(q.w + h * d.w, q.x + h * d.x, q.y + h * d.y, q.z + h * d.z);
  };
  const Q q0 = normalized(Q(0.9, 0.1, -0.3, 0.2));

  Q ref = q0;
  const double hr = 1e-4;
  for (int i = 0; i < 20000; ++i) {
    const double t = i * hr;
    const Q k1 = qdot(ref, t), k2 = qdot(axpy(ref, k1, hr / 2), t + hr / 2);
    const Q k3 = qdot(axpy(ref, k2, hr / 2), t + hr / 2), k4 = qdot(axpy(ref, k3, hr), t + hr);
    ref = Q(ref.w + hr / 6 * (k1.w + 2 * k2.w + 2 * k3.w + k4.w),
            ref.x + hr / 6 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x),
            ref.y + hr / 6 * (k1.y + 2 * k2.y + 2 * k3.y + k4.y),
            ref.z + hr / 6 * (k1.z + 2 * k2.z + 2 * k3.z + k4.z));
    ref = normalized(ref);
  }

  Q q = q0;
  V phi(0, 0, 0);
  const double dt = 1e-3;
  for (int step = 0; step < 2000; ++step) {
    const double t = step * dt;
    const V k1 = dexp_inv(phi, omega(t));
    const V k2 = dexp_inv(phi + k1 * (dt / 2), omega(t + dt / 2));
    const V k3 = dexp_inv(phi + k2 * (dt / 2), omega(t + dt / 2));
    const V k4 = dexp_inv(phi + k3 * dt, omega(t + dt));
    phi += (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (dt / 6);
    if ((step + 1) % 10 == 0) {
      q = integrate_rotation(q, phi);
      phi = V(0, 0, 0);
    }
  }
  const double same = std::fabs(q.w * ref.w + q.x * ref.x + q.y * ref.y + q.z * ref.z);
  CHECK(same == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(close(quat_log(conjugate(ref) * q), V(0, 0, 0), 1e-9));
  CHECK(norm(q) == doctest::Approx(1.0).epsilon(1e-15));
}
