// ParameterGradient spreads forward mode's chunks of lanes, the finite differences' runs and the residual
// Jacobian's chunks over threads (set_threads); each run is the one-thread run, so every number must be the
// same to the last bit, and a failing run must be reported as on one thread.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/optimize/identify.hpp"
#include "moved_positions.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

void check_same(const ObjectiveGradient& one, const ObjectiveGradient& many) {
  CHECK(many.status == one.status);
  CHECK(many.runs == one.runs);
  CHECK(many.stats.accepted == one.stats.accepted);
  CHECK(std::isnan(many.loss) == std::isnan(one.loss));
  if (!std::isnan(one.loss)) CHECK(many.loss == one.loss);
  REQUIRE(many.grad.size() == one.grad.size());
  for (std::size_t j = 0; j < one.grad.size(); ++j) {
    CAPTURE(j);
    CHECK(std::isnan(many.grad[j]) == std::isnan(one.grad[j]));
    if (!std::isnan(one.grad[j])) CHECK(many.grad[j] == one.grad[j]);
  }
}

// The forward-mode and finite-difference numbers on one thread and on `threads`.
void compare_on_threads(ParameterGradient& g, int threads, ObjectiveGradient* fwd1, ObjectiveGradient* fd1) {
  const std::vector<double> x = g.initial_values();
  g.set_threads(1);
  *fwd1 = g.forward(x);
  *fd1 = g.finite_difference(x, 1e-6);
  g.set_threads(threads);
  check_same(*fwd1, g.forward(x));
  check_same(*fd1, g.finite_difference(x, 1e-6));
}

}  // namespace

TEST_CASE("forward mode and finite differences on several threads give the one-thread numbers bit for bit") {
  for (const char* name : {"toss_box_diffmjx.json", "billiards.json", "toy_point_mass.json"}) {
    CAPTURE(name);
    const Problem p = test::shipped(name);
    ParameterGradient g(p, all_gradient_paths(p, true), nullptr);
    ObjectiveGradient fwd1, fd1;
    compare_on_threads(g, 3, &fwd1, &fd1);
    CHECK(fwd1.status == "ok");
    CHECK(fd1.status == "ok");
  }
}

TEST_CASE("the residual Jacobian on several threads is the one-thread Jacobian bit for bit") {
  const Problem p = test::shipped("identify_cube_toss.json");
  const TrajectoryData data = test::moved_positions(p, 4, {0.0, 0.01, 0.0});
  ParameterGradient g(p, all_gradient_paths(p, false), &data);
  const std::vector<double> x = g.initial_values();
  g.set_threads(1);
  const ResidualJacobian one = g.residuals(x);
  g.set_threads(2);
  const ResidualJacobian two = g.residuals(x);
  REQUIRE(one.status == "ok");
  REQUIRE(two.status == "ok");
  CHECK(two.runs == one.runs);
  REQUIRE(two.r.size() == one.r.size());
  REQUIRE(two.J.size() == one.J.size());
  for (std::size_t i = 0; i < one.r.size(); ++i) CHECK(two.r[i] == one.r[i]);
  long differ = 0;
  for (std::size_t k = 0; k < one.J.size(); ++k) differ += two.J[k] != one.J[k];
  CHECK(differ == 0);
}

TEST_CASE("a run that fails on a helper thread is reported as on one thread") {
  // A step budget the box toss exhausts: every run fails, with the same message.
  const Problem p = test::shipped("toss_box_diffmjx.json", {"integrator.max_steps=50"});
  ParameterGradient g(p,
                      {"model.bodies.0.vel.2", "model.bodies.0.friction.0", "model.plane.solref.0",
                       "model.bodies.0.solref.0", "model.bodies.0.vel.1"},
                      nullptr);
  ObjectiveGradient fwd1, fd1;
  compare_on_threads(g, 2, &fwd1, &fd1);
  CHECK(fwd1.status.find("max_steps") != std::string::npos);
  CHECK(fd1.status.find("max_steps") != std::string::npos);
}

TEST_CASE("rollouts fitted together run side by side with the one-thread numbers") {
  const Problem p = test::shipped("identify_cube_rollouts.json");
  const IdentifySetup setup = identify_setup(p);
  REQUIRE(setup.status == "ok");
  REQUIRE(setup.rollouts.size() >= 2);
  Rollouts rollouts = rollouts_of(p, setup, setup.paths);
  const std::vector<double> x = setup.start;
  rollouts.set_threads(1);
  const ObjectiveGradient fwd1 = rollouts.forward(x), rev1 = rollouts.reverse(x);
  const ResidualJacobian res1 = rollouts.residuals(x);
  const double obj1 = rollouts.objective(x);
  rollouts.set_threads(3);
  check_same(fwd1, rollouts.forward(x));
  check_same(rev1, rollouts.reverse(x));
  const ResidualJacobian res3 = rollouts.residuals(x);
  CHECK(rollouts.objective(x) == obj1);
  REQUIRE(res1.status == "ok");
  CHECK(res3.status == "ok");
  CHECK(res3.r == res1.r);
  CHECK(res3.J == res1.J);
  CHECK(fwd1.status == "ok");
}
