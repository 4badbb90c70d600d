// Observed convergence order of every integrator on a smooth ODE with a known solution: a particle held in
// permanent penetration of a penalty contact (k = 4, no damping) under gravity 20 is a harmonic oscillator,
// z(t) = 5 - cos(2t), v(t) = 2 sin(2t), starting from rest at z = 4 with the plane at height 10.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "engine/integrate/fixed_solve.hpp"
#include "engine/model/particle_system.hpp"

using namespace sg;

namespace {

ParticleModel<double> oscillator() {
  ParticleModel<double> m;
  m.gravity = {0.0, 0.0, -20.0};
  m.plane_height = 10.0;
  m.particles[0].pos = {0.0, 0.0, 4.0};
  m.contact = ContactModel::penalty;
  m.penalty = {4.0, 0.0};
  return m;
}

// Error in (z, v) at T = 1 after n steps of the given tableau (or fixed method).
double error_after(const Tableau* tab, Method fixed, int n) {
  const ParticleModel<double> m = oscillator();
  const ParticleSystem<double> sys{&m, 1.0 / n};
  auto ws = std::make_unique<RkWorkspace<ParticleSystem<double>>>();
  double y[6];
  sys.initial_state(y);
  const double h = 1.0 / n;
  for (int i = 0; i < n; ++i) {
    if (tab) {
      sys.rhs(y, ws->k[0]);
      rk_step(sys, *tab, y, h, *ws);
      for (int k = 0; k < 6; ++k) y[k] = ws->y1[k];
    } else if (fixed == Method::euler) {
      sys.step_euler(y, h);
    } else {
      sys.step_moreau(y, h);
    }
  }
  return std::hypot(y[2] - (5.0 - std::cos(2.0)), y[5] - 2.0 * std::sin(2.0));
}

double observed_order(const Tableau* tab, Method fixed, int n) {
  return std::log2(error_after(tab, fixed, n) / error_after(tab, fixed, 2 * n));
}

}  // namespace

TEST_CASE("observed convergence order of each integrator (tolerance 0.15 on the order)") {
  CHECK(observed_order(nullptr, Method::euler, 200) == doctest::Approx(1.0).epsilon(0.15));
  CHECK(observed_order(nullptr, Method::moreau, 200) == doctest::Approx(2.0).epsilon(0.15 / 2));
  CHECK(observed_order(&kRk4, Method::rk4, 20) == doctest::Approx(4.0).epsilon(0.15 / 4));
  CHECK(observed_order(&kBosh3, Method::bosh3, 20) == doctest::Approx(3.0).epsilon(0.15 / 3));
  CHECK(observed_order(&kDopri5, Method::dopri5, 10) == doctest::Approx(5.0).epsilon(0.15 / 5));
  CHECK(observed_order(&kTsit5, Method::tsit5, 10) == doctest::Approx(5.0).epsilon(0.15 / 5));
}

TEST_CASE("embedded error estimates shrink with the embedded method's order") {
  // The error estimate of a p(p-1) pair scales as h^p for one step (local error of the lower order).
  const ParticleModel<double> m = oscillator();
  const ParticleSystem<double> sys{&m, 0.1};
  auto ws = std::make_unique<RkWorkspace<ParticleSystem<double>>>();
  for (const Tableau* tab : {&kBosh3, &kDopri5, &kTsit5}) {
    double y[6], e[2];
    for (int j = 0; j < 2; ++j) {
      sys.initial_state(y);
      for (int k = 0; k < 6; ++k) y[k] += 0.1;  // off the turning point, so no term vanishes by symmetry
      sys.rhs(y, ws->k[0]);
      rk_step(sys, *tab, y, j == 0 ? 0.1 : 0.05, *ws);
      double s = 0.0;
      for (int k = 0; k < 6; ++k) s += ws->err[k] * ws->err[k];
      e[j] = std::sqrt(s);
    }
    CHECK(std::log2(e[0] / e[1]) == doctest::Approx(tab->order).epsilon(0.2));
  }
}

namespace {

// Counts its evaluations: y' = -y + y^2 / 3 (smooth, nonlinear, so stage values differ in every bit).
struct CountingSystem {
  using Scalar = double;
  static constexpr int kMaxDim = 2;
  mutable int evaluations = 0;
  int dim() const { return 2; }
  void rhs(const double* y, double* ydot) const {
    ++evaluations;
    for (int i = 0; i < 2; ++i) ydot[i] = -y[i] + y[i] * y[i] / 3.0;
  }
};

}  // namespace

TEST_CASE("FSAL tableaus: the last stage is f(y1), evaluated once per step") {
  for (const Tableau* tab : {&kBosh3, &kDopri5, &kTsit5}) {
    REQUIRE(tab->fsal);
    for (int j = 0; j < tab->stages; ++j) CHECK(tab->a[tab->stages - 1][j] == tab->b[j]);  // exact
    const CountingSystem sys;
    auto ws = std::make_unique<RkWorkspace<CountingSystem>>();
    const double y[2] = {0.7, -1.3};
    sys.rhs(y, ws->k[0]);
    sys.evaluations = 0;
    rk_step(sys, *tab, y, 0.37, *ws);
    CHECK(sys.evaluations == tab->stages - 1);
    double f1[2];
    sys.rhs(ws->y1, f1);
    for (int i = 0; i < 2; ++i) CHECK(ws->k[tab->stages - 1][i] == f1[i]);  // bit for bit
  }
}
