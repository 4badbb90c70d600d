// Observed convergence order of every integrator on a smooth ODE with a known solution: a particle held in
// permanent penetration of a penalty contact (k = 4, no damping) under gravity 20 is a harmonic oscillator,
// z(t) = 5 - cos(2t), v(t) = 2 sin(2t), starting from rest at z = 4 with the plane at height 10.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "engine/integrate/dense_output.hpp"
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
  for (const Tableau* tab : {&kBosh3, &kDopri5, &kTsit5, &kDopri8}) {
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
  for (const Tableau* tab : {&kBosh3, &kDopri5, &kTsit5, &kDopri8}) {
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

TEST_CASE("Dopri8's coefficients satisfy the quadrature conditions of orders 8 and 7 (to 1e-14)") {
  // c_i = sum_j a_ij; sum_i b_i c_i^(k-1) = 1/k up to k = 8 for b, and up to k = 7 for b_hat = b - e.
  const Tableau& t = kDopri8;
  double c[kMaxStages] = {};
  for (int i = 0; i < t.stages; ++i)
    for (int j = 0; j < i; ++j) c[i] += t.a[i][j];
  CHECK(c[t.stages - 1] == doctest::Approx(1.0).epsilon(1e-14));
  for (int k = 1; k <= 8; ++k) {
    double sb = 0.0, sh = 0.0;
    for (int i = 0; i < t.stages; ++i) {
      sb += t.b[i] * std::pow(c[i], k - 1);
      sh += (t.b[i] - t.e[i]) * std::pow(c[i], k - 1);
    }
    CHECK(sb == doctest::Approx(1.0 / k).epsilon(1e-14));
    if (k <= 7) CHECK(sh == doctest::Approx(1.0 / k).epsilon(1e-13));
  }
  // A mistyped coefficient shows here even where the quadrature sums miss it: the step's order above.
}

TEST_CASE(
    "continuous extensions: b(1) = b, and the error inside one step shrinks with the extension's order") {
  // Local error of an interpolant of order q at theta: O(h^(q+1)); halving the step divides the error by
  // 2^(q+1) (tolerance 0.8 on the exponent). Tsit5's extension is of order 4. Diffrax calls Dopri8's of
  // 8th order; measured here its error shrinks as h^6 (6.5, 6.3, 6.1 from h = 0.8 down), order 5, while the
  // step's own error shrinks as h^9: why a Dopri8 step to a located switch is redone, not interpolated.
  const ParticleModel<double> m = oscillator();
  const ParticleSystem<double> sys{&m, 0.1};
  auto ws = std::make_unique<RkWorkspace<ParticleSystem<double>>>();
  auto check = [&](const Tableau& tab, auto weights, int q, double h) {
    double b[kMaxStages] = {};
    weights(1.0, b);
    for (int j = 0; j < tab.stages; ++j) CHECK(std::fabs(b[j] - tab.b[j]) < 1e-12);  // rounded coefficients
    double err[2];
    for (int r = 0; r < 2; ++r) {
      const double step = r == 0 ? h : h / 2, theta = 0.37;
      double y[6], out[6];
      sys.initial_state(y);
      sys.rhs(y, ws->k[0]);
      rk_step(sys, tab, y, step, *ws);
      weights(theta, b);
      for (int i = 0; i < 6; ++i) {
        double acc = 0.0;
        for (int j = 0; j < tab.stages; ++j) acc += b[j] * ws->k[j][i];
        out[i] = y[i] + step * acc;
      }
      const double t = theta * step;
      err[r] = std::hypot(out[2] - (5.0 - std::cos(2.0 * t)), out[5] - 2.0 * std::sin(2.0 * t));
    }
    CHECK(std::log2(err[0] / err[1]) == doctest::Approx(q + 1).epsilon(0.8 / (q + 1)));
  };
  check(kTsit5, tsit5_dense_weights, 4, 0.2);
  check(kDopri8, dopri8_dense_weights, 5, 0.2);
}

namespace {

// y' = -y + y^2 / 3 (a Bernoulli equation): y(t) = 1 / ((1 / y0 - 1 / 3) e^t + 1 / 3). Nonlinear, so a
// method's order shows where a linear oscillator would only test its stability polynomial.
struct BernoulliSystem {
  using Scalar = double;
  static constexpr int kMaxDim = 1;
  int dim() const { return 1; }
  void rhs(const double* y, double* ydot) const { ydot[0] = -y[0] + y[0] * y[0] / 3.0; }
};

double bernoulli_error(const Tableau& tab, int n) {
  const BernoulliSystem sys;
  auto ws = std::make_unique<RkWorkspace<BernoulliSystem>>();
  const double y0 = 2.99, horizon = 8.0;  // near the unstable equilibrium 3 for a while, then decays
  double y[1] = {y0};
  for (int i = 0; i < n; ++i) {
    sys.rhs(y, ws->k[0]);
    rk_step(sys, tab, y, horizon / n, *ws);
    y[0] = ws->y1[0];
  }
  return std::fabs(y[0] - 1.0 / ((1.0 / y0 - 1.0 / 3.0) * std::exp(horizon) + 1.0 / 3.0));
}

}  // namespace

TEST_CASE("Dopri8's observed order on a nonlinear equation is 8 (tolerance 1 on the order)") {
  // 8 and 16 steps: errors 9e-9 and 2e-11 (8.9), between the pre-asymptotic range (4 -> 8 steps: 11.3)
  // and rounding (16 -> 32 steps: 6.7, at 2e-13). A wrong coefficient of order p < 8 shows as a ratio near
  // 2^p.
  CHECK(std::log2(bernoulli_error(kDopri8, 8) / bernoulli_error(kDopri8, 16)) ==
        doctest::Approx(8.0).epsilon(1.0 / 8));
  CHECK(bernoulli_error(kDopri8, 16) < 1e-10);
}
