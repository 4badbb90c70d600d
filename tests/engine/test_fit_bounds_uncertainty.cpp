// A fit's bounds (identify.parameters.*.min / max, the keys' own ranges) and its standard errors (the
// Gauss-Newton covariance at the end), on the synthetic cube identification: the injected noise is the
// independent reference for the residual standard deviation, the truth for the errors.
#include <doctest/doctest.h>

#include <cmath>

#include <Eigen/Dense>

#include "engine/optimize/fit.hpp"
#include "engine/optimize/identify.hpp"
#include "engine/problem/load_problem.hpp"
#include "scene_helpers.hpp"

using namespace sg;
using sg::test::shipped;

namespace {

// The cube identification's scene with overrides, its measurements and a fit of `paths` from `start`.
struct Identification {
  Problem problem;
  IdentifySetup setup;
  FitResult fit;
};

Identification identify(const std::vector<std::string>& overrides, const std::vector<std::string>& paths,
                        const std::vector<double>& start, FitMethod method = FitMethod::lm) {
  Identification id{shipped("identify_cube_toss.json", overrides), {}, {}};
  id.setup = identify_setup(id.problem);
  REQUIRE(id.setup.status == "ok");
  Rollouts objective = rollouts_of(id.problem, id.setup, paths);
  FitSettings settings = identify_settings(id.problem);
  settings.method = method;
  settings.steps = method == FitMethod::lm ? 60 : 30;
  settings.bounds = fit_bounds(id.problem, paths);
  id.fit = fit_parameters(objective, start, settings, {});
  return id;
}

std::string load_errors(const std::string& set) {
  const ProblemLoad loaded = load_problem_file(sg::test::scene_path("identify_cube_toss.json"), {set});
  return loaded.ok() ? std::string("accepted") : loaded.errors;
}

}  // namespace

TEST_CASE(
    "fit: the residual standard deviation recovers the injected noise, the error is within a few "
    "standard errors") {
  const std::vector<std::string> friction = {"model.bodies.0.friction.0"};
  for (const unsigned long seed : {1ul, 2ul}) {
    CAPTURE(seed);
    const std::vector<std::string> noisy = {"identify.noise=0.001", "identify.seed=" + std::to_string(seed)};
    const Identification one = identify(noisy, friction, {0.5});
    REQUIRE(one.fit.status == "ok");
    REQUIRE(one.fit.std_error.size() == 1);
    // 303 residuals: the estimate of sigma scatters by about 4% (1 / sqrt(2 (m - P))); 15% is over 3 of
    // those.
    CHECK(one.fit.residual_sigma == doctest::Approx(0.001).epsilon(0.15));
    const double se = one.fit.std_error[0];
    CHECK(se > 0.0);
    // Friction alone enters nearly linearly: over 12 seeds its errors were 1.14 standard errors RMS (2.0 at
    // most); a 4-sigma miss would mean the standard error is too small.
    CHECK(std::fabs(one.fit.path.back().values[0] - 0.6) < 4.0 * se);
    // Fitted with the throw speed and the contact time constant, friction is less certain: a marginal
    // variance is at least the conditional one (the covariance's diagonal against its inverse's).
    const Identification three =
        identify(noisy, {"model.bodies.0.friction.0", "model.bodies.0.solref.0", "model.bodies.0.vel.0"},
                 {0.5, 0.025, 1.4});
    REQUIRE(three.fit.status == "ok");
    REQUIRE(three.fit.std_error.size() == 3);
    for (double e : three.fit.std_error) CHECK((std::isfinite(e) && e > 0.0));
    CHECK(three.fit.std_error[0] > se);
  }
}

TEST_CASE("fit: numbers the data cannot tell apart get infinite standard errors") {
  // MuJoCo mixes the plane's and the cube's solref into one per contact pair: the positions depend on their
  // mean only, so the Jacobian's two columns are equal and J^T J is singular along their difference.
  const Identification id = identify(
      {"identify.noise=0.001"},
      {"model.bodies.0.friction.0", "model.plane.solref.0", "model.bodies.0.solref.0"}, {0.6, 0.02, 0.02});
  REQUIRE(id.fit.status == "ok");
  REQUIRE(id.fit.std_error.size() == 3);
  CHECK(std::isfinite(id.fit.std_error[0]));
  CHECK(std::isinf(id.fit.std_error[1]));
  CHECK(std::isinf(id.fit.std_error[2]));
  // Their correlations are not determined either; friction's with itself is.
  REQUIRE(id.fit.correlation.size() == 9);
  CHECK(id.fit.correlation[0] == doctest::Approx(1.0));
  CHECK(std::isnan(id.fit.correlation[1]));
  CHECK(std::isnan(id.fit.correlation[4]));
}

TEST_CASE("fit: correlations are the covariance's, and the cube's data trade friction for throw speed") {
  const std::vector<std::string> paths = {"model.bodies.0.friction.0", "model.bodies.0.solref.0",
                                          "model.bodies.0.solref.1", "model.bodies.0.vel.0"};
  const Identification id = identify({"identify.noise=0.001"}, paths, {0.5, 0.025, 0.9, 1.4});
  REQUIRE(id.fit.status == "ok");
  REQUIRE(id.fit.correlation.size() == 16);
  // Independent reference: (J^T J)^-1 by an LDLT solve of the Jacobian at the fit, normalised.
  Rollouts objective = rollouts_of(id.problem, id.setup, paths);
  const ResidualJacobian rj = objective.residuals(id.fit.path.back().values);
  REQUIRE(rj.status == "ok");
  const Eigen::Index m = static_cast<Eigen::Index>(rj.r.size());
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor>> J(rj.J.data(), m, 4);
  const Eigen::Matrix4d inv = (J.transpose() * J).ldlt().solve(Eigen::Matrix4d::Identity());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      const double c = id.fit.correlation[static_cast<std::size_t>(i * 4 + j)];
      CHECK(c == doctest::Approx(id.fit.correlation[static_cast<std::size_t>(j * 4 + i)]).epsilon(1e-12));
      CHECK(c == doctest::Approx(inv(i, j) / std::sqrt(inv(i, i) * inv(j, j))).epsilon(1e-6));
    }
  // A faster throw slides further, more friction less far: the final position pins a combination of the two.
  CHECK(id.fit.correlation[3] > 0.8);
}

TEST_CASE("fit: a bound holds a number the data pull past it, and the others still fit") {
  const std::vector<std::string> paths = {"model.bodies.0.friction.0", "model.bodies.0.vel.0"};
  const std::vector<std::string> bounded = {"identify.parameters.0.max=0.55",
                                            "identify.parameters.0.min=0.1"};
  // The truth is friction 0.6; the fit may not go above 0.55. Levenberg-Marquardt with the throw speed:
  const Identification lm = identify(bounded, paths, {0.4, 1.4});
  REQUIRE(lm.fit.status == "ok");
  for (const FitStep& s : lm.fit.path) CHECK(s.values[0] <= 0.55);
  CHECK(lm.fit.path.back().values[0] == 0.55);  // on the bound, exactly
  REQUIRE(lm.fit.at_bound.size() == 2);
  CHECK(lm.fit.at_bound[0]);
  CHECK_FALSE(lm.fit.at_bound[1]);
  CHECK(lm.fit.path.back().loss < 0.2 * lm.fit.path.front().loss);  // the speed still moved to fit
  // Adam (friction alone: its steps start at 5% of the start value, so it starts nearer):
  const Identification adam = identify(bounded, {paths[0]}, {0.5}, FitMethod::adam);
  REQUIRE(adam.fit.status == "ok");
  for (const FitStep& s : adam.fit.path) CHECK(s.values[0] <= 0.55);
  CHECK(adam.fit.path.back().values[0] == 0.55);
  CHECK(adam.fit.at_bound[0]);
  // Unbounded, the same fit goes past 0.55 to the truth: the bound is what stopped it.
  const Identification free = identify({}, paths, {0.4, 1.4});
  CHECK(free.fit.path.back().values[0] == doctest::Approx(0.6).epsilon(1e-4));
}

TEST_CASE("fit: a key's own range bounds it (solimp's mid in (0, 1)) and a start outside is refused") {
  const std::vector<std::string> paths = {"model.bodies.0.solimp.3"};
  const Problem p = shipped("identify_cube_toss.json");
  const std::vector<scene::KeyRange> bounds = fit_bounds(p, paths);
  REQUIRE(bounds.size() == 1);
  CHECK(bounds[0].contains(0.5));
  CHECK_FALSE(bounds[0].contains(1.0));
  CHECK_FALSE(bounds[0].contains(0.0));
  // Friction's range is >= 0; identify's min narrows it.
  const std::vector<scene::KeyRange> friction = fit_bounds(
      shipped("identify_cube_toss.json", {"identify.parameters.0.min=0.2"}), {"model.bodies.0.friction.0"});
  CHECK_FALSE(friction[0].contains(0.1));
  CHECK(friction[0].contains(0.2));
  CHECK_FALSE(fit_bounds(p, {"model.bodies.0.friction.0"})[0].contains(-0.01));
  // A step that leaves a range stops on a closed end and goes half the way to an open one.
  CHECK(bounds[0].step_toward(0.5, 0.7) == 0.7);
  CHECK(bounds[0].step_toward(0.5, 1.2) == 0.75);
  CHECK(bounds[0].step_toward(0.5, -3.0) == 0.25);
  CHECK(friction[0].step_toward(0.3, 0.1) == 0.2);

  Identification id{p, identify_setup(p), {}};
  Rollouts objective = rollouts_of(id.problem, id.setup, paths);
  FitSettings settings;
  settings.bounds = bounds;
  const FitResult refused = fit_parameters(objective, {1.5}, settings, {});
  CHECK(refused.status.find("outside its range (in (0, 1))") != std::string::npos);
  CHECK(refused.path.empty());
}

TEST_CASE("identify.parameters.*.min / max: infinities, and starts outside refused with the key") {
  CHECK(load_errors("identify.parameters.0.min=-inf") == "accepted");
  CHECK(load_errors("identify.parameters.0.max=inf") == "accepted");
  CHECK(load_errors("identify.parameters.0.min=0.5")
            .find("identify.parameters.0.start: 0.4 is outside [0.5, inf]") != std::string::npos);
  CHECK(load_errors("identify.parameters.0.max=-inf")
            .find("identify.parameters.0.min: -inf is not below max -inf") != std::string::npos);
  CHECK(
      load_errors("identify.parameters.0.start=-1")
          .find("identify.parameters.0.start: -1 is outside the range of model.bodies.0.friction.0 (>= 0)") !=
      std::string::npos);
  CHECK(load_errors("identify.parameters.0.max=nan").find("identify.parameters.0.max") != std::string::npos);
  // Only keys whose range allows it take -inf.
  CHECK(load_errors("contact.hard.kappa=-inf").find("contact.hard.kappa") != std::string::npos);
}
