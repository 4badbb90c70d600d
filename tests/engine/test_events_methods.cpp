// Contact events under every adaptive method (engine/integrate/event_step.hpp, dense_output.hpp): on
// billiards (66 switches a run: onsets, separations, hops, row switches and the grazing mode of the rolling
// balls) each method's loss and gradient converge to Tsit5's as the tolerance tightens. Until the twelfth
// session Dopri5 and Bosh3 redid the step to a switch located on a cubic Hermite interpolant; the redone step
// ended where the switching function had not crossed, or had crossed long before, and Dopri5's loss stayed
// 4e-8 off at 1e-12 (found with `softgrad tradeoff`).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/point_eval.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

LossSample billiards_at(const std::string& method, const std::string& tol) {
  const Problem p = test::shipped(
      "billiards.json", {"contact.cfd.enabled=false", "integrator.type=" + method, "integrator.rtol=" + tol,
                         "integrator.atol=" + tol, "integrator.max_steps=1000000"});
  PointEvaluator eval(p);
  const LossSample s = eval.loss_and_grad(1.0);
  REQUIRE(s.stats.status == Status::ok);
  return s;
}

}  // namespace

TEST_CASE("contact events: Bosh3, Dopri5 and Dopri8 converge to Tsit5's loss and gradient on billiards") {
  const LossSample ref = billiards_at("tsit5", "1e-13");
  const LossSample tsit5 = billiards_at("tsit5", "1e-12");
  CHECK(std::fabs(tsit5.loss - ref.loss) < 2e-11);  // the loss is about 2.6e-3
  struct Case {
    const char* method;
    const char* tol;
    double loss_tol;  // absolute
  };
  // Dopri8 redoes the step to a switch (its interpolant is less accurate than its steps): it converges more
  // slowly here (5.6e-8 off at 1e-12, 2e-9 at 1e-13).
  for (const Case c : {Case{"bosh3", "1e-12", 2e-10}, Case{"dopri5", "1e-11", 2e-10},
                       Case{"dopri5", "1e-12", 1e-10}, Case{"dopri8", "1e-13", 5e-9}}) {
    CAPTURE(c.method);
    CAPTURE(c.tol);
    const LossSample s = billiards_at(c.method, c.tol);
    CHECK(std::fabs(s.loss - ref.loss) < c.loss_tol);
    CHECK(std::fabs(s.grad - tsit5.grad) < 2e-5 * std::fabs(tsit5.grad));
    CHECK(s.stats.events == tsit5.stats.events);
  }
}
