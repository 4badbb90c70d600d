// Several rollouts fitted together (identify.rollouts, engine/optimize/rollouts.hpp): the combined
// objective is the mean squared error over all samples, its gradient the rollouts' weighted sum.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/optimize/identify.hpp"
#include "scene_helpers.hpp"

using namespace sg;
using sg::test::shipped;

namespace {

const char* kScene = "identify_cube_rollouts.json";

}  // namespace

TEST_CASE("identify.rollouts: each rollout is the scene with its number set, measured on its own") {
  const Problem p = shipped(kScene);
  const IdentifySetup setup = identify_setup(p);
  REQUIRE(setup.status == "ok");
  REQUIRE(setup.rollouts.size() == 2);
  ProblemData<double> thrown_data = setup.rollouts[0].data, tilted_data = setup.rollouts[1].data;
  CHECK(*parameter_slot(thrown_data, "model.bodies.0.vel.0") == 1.5);
  CHECK(*parameter_slot(tilted_data, "model.bodies.0.euler.1") == -10.0);
  CHECK(*parameter_slot(tilted_data, "model.bodies.0.vel.0") == 0.0);  // one number per rollout
  CHECK(setup.samples() == 3 * setup.data.count);
  // The rollouts differ: the thrown cubes end elsewhere than the dropped one.
  const auto &last = setup.data.by_step.back()[0], &thrown = setup.rollout_data[0].by_step.back()[0];
  CHECK(std::fabs(thrown.pos[0] - last.pos[0]) > 0.1);
}

TEST_CASE("the rollouts' objective and gradients combine the single rollouts' by their sample counts") {
  const Problem p = shipped(kScene);
  const IdentifySetup setup = identify_setup(p);
  REQUIRE(setup.status == "ok");
  Rollouts all = rollouts_of(p, setup, setup.paths);
  REQUIRE(all.size() == 3);
  const std::vector<double> x = setup.start;
  double expected = 0.0;
  ParameterGradient first(p, setup.paths, &setup.data);
  expected += first.objective(x) / 3.0;  // equal sample counts: weights 1/3
  for (std::size_t k = 0; k < 2; ++k) {
    ParameterGradient g(setup.rollouts[k], setup.paths, &setup.rollout_data[k]);
    expected += g.objective(x) / 3.0;
  }
  CHECK(all.objective(x) == doctest::Approx(expected).epsilon(1e-14));
  const ObjectiveGradient fwd = all.forward(x), rev = all.reverse(x);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  CHECK(fwd.loss == doctest::Approx(expected).epsilon(1e-14));
  // LM's residuals: sum of squares / samples is the same objective.
  const ResidualJacobian rj = all.residuals(x);
  REQUIRE(rj.status == "ok");
  double squares = 0.0;
  for (double r : rj.r) squares += r * r;
  CHECK(squares / static_cast<double>(all.samples()) == doctest::Approx(expected).epsilon(1e-12));
  for (std::size_t j = 0; j < x.size(); ++j) {
    CAPTURE(setup.paths[j]);
    // Forward and reverse: 1e-9 relative (as for one rollout); central FD, step 1e-6 relative: 1e-4.
    CHECK(rev.grad[j] == doctest::Approx(fwd.grad[j]).epsilon(1e-9));
    std::vector<double> xp = x, xm = x;
    const double h = 1e-6 * std::fabs(x[j]);
    xp[j] += h;
    xm[j] -= h;
    const double fd = (all.objective(xp) - all.objective(xm)) / (2.0 * h);
    CHECK(fwd.grad[j] == doctest::Approx(fd).epsilon(1e-4));
    // The Jacobian's gradient, 2 J^T r / samples, is the same derivative.
    double from_j = 0.0;
    for (std::size_t i = 0; i < rj.r.size(); ++i) from_j += 2.0 * rj.r[i] * rj.J[i * x.size() + j];
    CHECK(from_j / static_cast<double>(all.samples()) == doctest::Approx(fwd.grad[j]).epsilon(1e-9));
  }
}

TEST_CASE("a fit over three rollouts recovers the cube's friction and solref") {
  // Noise-free data: 1% (measured: below 1e-6 relative).
  const Problem p = shipped(kScene);
  const IdentifySetup setup = identify_setup(p);
  REQUIRE(setup.status == "ok");
  const FitResult r = run_identification(p, setup, identify_settings(p), {});
  REQUIRE(r.status == "ok");
  INFO(r.stopped);
  for (std::size_t j = 0; j < setup.paths.size(); ++j) {
    CAPTURE(setup.paths[j]);
    CAPTURE(r.path.back().values[j]);
    CHECK(std::fabs(r.path.back().values[j] - setup.truth[j]) <= 0.01 * std::fabs(setup.truth[j]));
  }
}

TEST_CASE("identify.rollouts must name differentiable numbers that are not fitted") {
  const auto errors = [](const std::string& set) {
    const ProblemLoad loaded = load_problem_file(sg::test::scene_path(kScene), {set});
    return loaded.ok() ? std::string("accepted") : loaded.errors;
  };
  CHECK(
      errors("identify.rollouts.0.path=model.bodies.0.friction.0")
          .find(
              "identify.rollouts.0.path: \"model.bodies.0.friction.0\" is fitted (identify.parameters.0)") !=
      std::string::npos);
  CHECK(errors("identify.rollouts.1.path=model.bodies.0.vel.9").find("identify.rollouts.1.path") !=
        std::string::npos);
  CHECK(errors("identify.rollouts.0.value=nan").find("identify.rollouts.0.value") != std::string::npos);
}
