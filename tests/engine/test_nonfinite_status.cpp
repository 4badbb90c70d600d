// A non-finite value is never reported as ok: state blow-up, an overflowing tangent, an overflowing loss.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "engine/gradient/point_eval.hpp"
#include "engine/integrate/observer.hpp"
#include "scene_helpers.hpp"

using namespace sg;

TEST_CASE("check_state tells a blown-up value from an overflowing tangent") {
  const double inf = std::numeric_limits<double>::infinity();
  Dual<1> y[2] = {seeded<Dual<1>>(1.0, 0), Dual<1>(2.0)};
  CHECK(check_state(y, 2) == Status::ok);
  y[1].d[0] = inf;
  CHECK(check_state(y, 2) == Status::nonfinite_gradient);
  y[0].v = 2e10;  // beyond kBlowUpLimit: the value's failure comes first
  CHECK(check_state(y, 2) == Status::blow_up);
  const double plain[2] = {1.0, std::nan("")};
  CHECK(check_state(plain, 2) == Status::blow_up);
}

TEST_CASE("an overflowing gradient fails the point and names the step, the finite loss is kept") {
  // 1e5 rad/s: the free bodies' tangents overflowed from 1e4 on, the tree's (the default) from about 2e4.
  Problem p = test::shipped("billiards_nogravity.json", {"model.bodies.0.angvel=[1e5,1e5,1e5]"});
  PointEvaluator eval(p);
  const PointResult r = eval.evaluate(p.sweep.from);
  INFO(r.status);
  CHECK(r.status.rfind("nonfinite_gradient at t=", 0) == 0);
  CHECK(r.status.find("(step ") != std::string::npos);
  CHECK(std::isnan(r.grad));
}

TEST_CASE("an overflowing loss is nonfinite_loss, its derivative alone nonfinite_gradient") {
  // The toy's loss is weight * abs(z - target): 1e308 overflows the derivative only, and with the
  // particle 1e3 away also the value.
  Problem grad_only = test::shipped("toy_point_mass.json", {"loss.terms.0.weight=1e308"});
  LossSample a = PointEvaluator(grad_only).loss_and_grad(grad_only.sweep.from);
  CHECK(a.stats.status == Status::nonfinite_gradient);
  CHECK(std::isfinite(a.loss));
  Problem both =
      test::shipped("toy_point_mass.json", {"loss.terms.0.weight=1e308", "loss.terms.0.target=1000"});
  LossSample b = PointEvaluator(both).loss_only(both.sweep.from);
  CHECK(b.stats.status == Status::nonfinite_loss);
  CHECK(std::isnan(b.loss));
}
