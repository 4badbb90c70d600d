// Mass and inertia of each primitive against textbook formulas and, for the round shapes, against an
// independent slice-by-slice quadrature of the solid of revolution.
#include <doctest/doctest.h>

#include <functional>

#include "collision_test_util.hpp"
#include "engine/rigid/inertia.hpp"

using namespace sg;
using namespace sg::test;

namespace {

// Solid of revolution about z with radius profile rho(z) on [z0, z1], density 1: Simpson's rule on
// mass = int pi rho^2, Izz = int pi rho^4 / 2, Ixx = int pi rho^2 (rho^2/4 + z^2).
MassInertia<double> revolve(const std::function<double(double)>& rho, double z0, double z1, int n) {
  double m = 0, ixx = 0, izz = 0;
  const double h = (z1 - z0) / n;
  for (int i = 0; i <= n; ++i) {
    const double z = z0 + i * h;
    const double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    const double r2 = rho(z) * rho(z);
    m += w * kPiT * r2;
    izz += w * kPiT * r2 * r2 / 2;
    ixx += w * kPiT * r2 * (r2 / 4 + z * z);
  }
  return {m * h / 3, {ixx * h / 3, ixx * h / 3, izz * h / 3}};
}

}  // namespace

TEST_CASE("inertia: sphere, box, cylinder, ellipsoid match the textbook formulas (rel tol 1e-14)") {
  const double rho = 1000.0;
  const MassInertia<double> s = sphere_mass_inertia(0.05, rho);
  CHECK(s.mass == doctest::Approx(rho * 4.0 / 3.0 * kPiT * 0.05 * 0.05 * 0.05).epsilon(1e-14));
  CHECK(s.inertia.x == doctest::Approx(0.4 * s.mass * 0.05 * 0.05).epsilon(1e-14));

  const MassInertia<double> b = box_mass_inertia(V(0.1, 0.2, 0.3), rho);  // sides 0.2 x 0.4 x 0.6
  CHECK(b.mass == doctest::Approx(rho * 0.2 * 0.4 * 0.6).epsilon(1e-14));
  CHECK(b.inertia.x == doctest::Approx(b.mass * (0.4 * 0.4 + 0.6 * 0.6) / 12).epsilon(1e-14));
  CHECK(b.inertia.y == doctest::Approx(b.mass * (0.2 * 0.2 + 0.6 * 0.6) / 12).epsilon(1e-14));
  CHECK(b.inertia.z == doctest::Approx(b.mass * (0.2 * 0.2 + 0.4 * 0.4) / 12).epsilon(1e-14));

  const MassInertia<double> c = cylinder_mass_inertia(0.04, 0.05, rho);  // height 0.1
  CHECK(c.mass == doctest::Approx(rho * kPiT * 0.04 * 0.04 * 0.1).epsilon(1e-14));
  CHECK(c.inertia.x == doctest::Approx(c.mass * (3 * 0.04 * 0.04 + 0.1 * 0.1) / 12).epsilon(1e-14));
  CHECK(c.inertia.z == doctest::Approx(c.mass * 0.04 * 0.04 / 2).epsilon(1e-14));

  const MassInertia<double> e = ellipsoid_mass_inertia(V(0.05, 0.06, 0.1), rho);
  CHECK(e.mass == doctest::Approx(rho * 4.0 / 3.0 * kPiT * 0.05 * 0.06 * 0.1).epsilon(1e-14));
  CHECK(e.inertia.x == doctest::Approx(e.mass * (0.06 * 0.06 + 0.1 * 0.1) / 5).epsilon(1e-14));
  CHECK(e.inertia.y == doctest::Approx(e.mass * (0.05 * 0.05 + 0.1 * 0.1) / 5).epsilon(1e-14));
  CHECK(e.inertia.z == doctest::Approx(e.mass * (0.05 * 0.05 + 0.06 * 0.06) / 5).epsilon(1e-14));
}

TEST_CASE(
    "inertia: capsule (parallel-axis hemispheres), cylinder and sphere match a quadrature (rel tol 1e-8)") {
  const double r = 0.05, hl = 0.07;
  const MassInertia<double> cap = capsule_mass_inertia(r, hl, 1.0);
  const MassInertia<double> q = revolve(
      [&](double z) {
        const double over = std::fabs(z) - hl;
        return over <= 0 ? r : std::sqrt(std::max(0.0, r * r - over * over));
      },
      -hl - r, hl + r, 200000);
  CHECK(cap.mass == doctest::Approx(q.mass).epsilon(1e-8));
  CHECK(cap.inertia.x == doctest::Approx(q.inertia.x).epsilon(1e-8));
  CHECK(cap.inertia.y == doctest::Approx(q.inertia.y).epsilon(1e-8));
  CHECK(cap.inertia.z == doctest::Approx(q.inertia.z).epsilon(1e-8));

  const MassInertia<double> cyl = cylinder_mass_inertia(0.04, 0.05, 1.0);
  const MassInertia<double> qc = revolve([](double) { return 0.04; }, -0.05, 0.05, 2000);
  CHECK(cyl.inertia.x == doctest::Approx(qc.inertia.x).epsilon(1e-10));
  CHECK(cyl.inertia.z == doctest::Approx(qc.inertia.z).epsilon(1e-10));

  const MassInertia<double> sph = sphere_mass_inertia(0.05, 1.0);
  const MassInertia<double> qs =
      revolve([](double z) { return std::sqrt(std::max(0.0, 0.0025 - z * z)); }, -0.05, 0.05, 200000);
  CHECK(sph.inertia.x == doctest::Approx(qs.inertia.x).epsilon(1e-8));
}

TEST_CASE("inertia: dispatch by geom type, plane massless, derivative w.r.t. a size (tol 1e-12)") {
  const V size(0.05, 0.07, 0.0);
  CHECK(geom_mass_inertia(GeomType::capsule, size, 50.0).mass ==
        doctest::Approx(capsule_mass_inertia(0.05, 0.07, 50.0).mass));
  CHECK(geom_mass_inertia(GeomType::cylinder, size, 50.0).inertia.z ==
        doctest::Approx(cylinder_mass_inertia(0.05, 0.07, 50.0).inertia.z));
  CHECK(geom_mass_inertia(GeomType::plane, size, 50.0).mass == 0.0);
  // Cube of half side a: m = 8 rho a^3, dm/da = 24 rho a^2.
  const D1 a = seeded<D1>(0.05, 0);
  const MassInertia<D1> cube = geom_mass_inertia(GeomType::box, Vec3<D1>(a, a, a), D1(100.0));
  CHECK(tangent(cube.mass, 0) == doctest::Approx(24 * 100.0 * 0.05 * 0.05).epsilon(1e-12));
}
