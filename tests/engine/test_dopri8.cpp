// Dopri8 (integrator.type = dopri8, Dormand-Prince 8(7) as Diffrax's) through the whole engine: events
// located at exact times, gradients against analytic and finite-difference references, reverse mode equal to
// forward mode, and the loss of a contact-rich scene equal to Tsit5's converged one. The tableau's order and
// its continuous extension: tests/engine/test_convergence_order.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/sweep/device_problem.hpp"
#include "engine/sweep/sweep.hpp"
#include "event_log.hpp"
#include "reverse_matches_forward.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

std::vector<std::string> dopri8(const char* tol, std::vector<std::string> more = {}) {
  more.push_back("integrator.type=dopri8");
  more.push_back(std::string("integrator.rtol=") + tol);
  more.push_back(std::string("integrator.atol=") + tol);
  return more;
}

}  // namespace

TEST_CASE("Dopri8: a dropped sphere's onset is located at the exact impact time (to 1e-12 s)") {
  // Free flight is a quadratic, which the method integrates exactly: the time is the root finder's.
  const Problem p =
      test::shipped("toss_sphere_diffmjx.json",
                    dopri8("1e-8", {"model.bodies.0.vel=[0,0,0]", "sweep.parameter=model.bodies.0.pos.2"}));
  ProblemData<double> pd = p.data;
  *parameter_slot(pd, p.sweep.parameter) = 0.2;
  SimWorkspace<double> ws;
  test::EventLog log;
  const RunOutput<double> out = run_simulation(pd, p.integrator, ws, log);
  REQUIRE(out.stats.status == Status::ok);
  REQUIRE(!log.times.empty());
  CHECK(log.ids[0].kind == EventKind::onset);
  CHECK(std::fabs(log.times[0] - std::sqrt(2.0 * 0.15 / 2.0)) < 1e-12);
}

TEST_CASE("Dopri8: the 1-D toy's AD gradient is the continuous ODE's, +-0.80035, to 1e-6 at rtol 1e-8") {
  const double omega = std::sqrt(50.0 - 0.25), t_c = M_PI / omega, v_e = std::exp(-0.5 * t_c);
  const SweepResult r = run_sweep(test::shipped(
      "toy_point_mass.json", dopri8("1e-8", {"sweep.from=0.05", "sweep.to=1.5", "sweep.points=15"})));
  double worst = 0.0;
  for (const PointResult& pt : r.points) {
    REQUIRE(pt.status == "ok");
    const double final_q = v_e * (2.0 - pt.value - t_c);
    worst = std::max(worst, std::fabs(pt.grad - (final_q > 1.0 ? -v_e : v_e)));
  }
  INFO("largest |AD - analytic| " << worst);
  CHECK(worst < 1e-6);
  CHECK(r.stats.events_total > 0);
}

TEST_CASE("Dopri8 at 1e-10 gives Tsit5's converged loss (1e-12) on the box toss, to 1e-8") {
  // Two independent methods, each with contact events: the same physics. Measured differences about 1e-10.
  for (double x : {-3.0, -2.0, -1.2}) {
    CAPTURE(x);
    PointEvaluator a(test::shipped("toss_box_diffmjx.json", dopri8("1e-10")));
    PointEvaluator b(test::shipped("toss_box_diffmjx.json", {"integrator.rtol=1e-12", "integrator.atol=1e-12",
                                                             "integrator.max_steps=100000"}));
    const LossSample la = a.loss_only(x), lb = b.loss_only(x);
    REQUIRE(la.stats.status == Status::ok);
    REQUIRE(lb.stats.status == Status::ok);
    CHECK(std::fabs(la.loss - lb.loss) < 1e-8);
  }
}

TEST_CASE("Dopri8: AD agrees with central FD at 1e-10 on the box toss (median relative difference < 1e-3)") {
  const SweepResult r =
      run_sweep(test::shipped("toss_box_diffmjx.json", dopri8("1e-10", {"sweep.points=12"})));
  std::vector<double> err;
  for (const PointResult& p : r.points) {
    REQUIRE(p.status == "ok");
    err.push_back(std::fabs(p.grad - p.grad_fd) / std::max(std::fabs(p.grad), std::fabs(p.grad_fd)));
  }
  std::nth_element(err.begin(), err.begin() + 6, err.end());
  INFO("median " << err[6]);
  CHECK(err[6] < 1e-3);
}

TEST_CASE("Dopri8: reverse mode gives forward mode's gradient of every parameter (1e-10 relative)") {
  for (const char* scene : {"toss_box_diffmjx.json", "toy_point_mass.json"}) {
    CAPTURE(scene);
    test::check_reverse_matches_forward(test::shipped(scene, dopri8("1e-8")));
  }
}

TEST_CASE("Dopri8 is refused on the GPU path with the reason") {
  CHECK(device_path_refusal(test::shipped("toss_box_diffmjx.json", dopri8("1e-8", {test::kFreeBodyKernel})))
            .find("dopri8") != std::string::npos);
}
