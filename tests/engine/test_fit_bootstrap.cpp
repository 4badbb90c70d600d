// Parametric bootstrap intervals (engine/optimize/bootstrap.hpp) on the synthetic cube identification with
// measurement noise. Independent references: the quantile rule's textbook values; for a number the
// positions depend on nearly linearly (friction; its profile is +- one standard error to 2-3%) the draws'
// spread is the Gauss-Newton standard error, and the interval is the fitted value -+ that error.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>

#include "engine/optimize/bootstrap.hpp"
#include "engine/optimize/identify.hpp"
#include "scene_helpers.hpp"

using namespace sg;
using sg::test::shipped;

namespace {

struct Fitted {
  Problem problem;
  IdentifySetup setup;
  FitSettings settings;
  FitResult fit;
};

Fitted fitted(const std::vector<std::string>& paths, const std::vector<double>& start,
              const std::string& noise = "0.001") {
  Fitted f{shipped("identify_cube_toss.json", {"identify.noise=" + noise, "identify.seed=3"}), {}, {}, {}};
  f.setup = identify_setup(f.problem);
  REQUIRE(f.setup.status == "ok");
  f.setup.paths = paths;
  f.setup.start = start;
  f.settings = identify_settings(f.problem);
  f.settings.steps = 60;
  f.settings.bounds = fit_bounds(f.problem, paths);
  f.fit = run_identification(f.problem, f.setup, f.settings, {});
  REQUIRE(f.fit.status == "ok");
  return f;
}

// Refits from the fitted values unless `from` gives their start.
BootstrapResult bootstrap(const Fitted& f, int draws, int threads = 2, double level = 0.6827,
                          const std::vector<double>& from = {}) {
  FitSettings s = f.settings;
  s.threads = threads;
  return run_identification_bootstrap(f.problem, f.setup, f.fit, s, draws, level, from, {});
}

}  // namespace

TEST_CASE("bootstrap: quantiles interpolate between order statistics (numpy's default)") {
  const std::vector<double> v{1.0, 2.0, 3.0, 4.0};
  CHECK(sorted_quantile(v, 0.5) == doctest::Approx(2.5));
  CHECK(sorted_quantile(v, 0.25) == doctest::Approx(1.75));
  CHECK(sorted_quantile(v, 0.0) == 1.0);
  CHECK(sorted_quantile(v, 1.0) == 4.0);
  CHECK(std::isnan(sorted_quantile({}, 0.5)));
}

TEST_CASE(
    "bootstrap: a draw is the fitted model's positions plus noise, the same for the same seed and draw") {
  TrajectoryData m;
  m.by_step.resize(2);
  m.by_step[0].push_back({0, {1.0, 2.0, 3.0}});
  m.by_step[1].push_back({0, {4.0, 5.0, 6.0}});
  m.count = 2;
  const std::vector<double> residuals{0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  const std::vector<TrajectoryData> exact = bootstrap_measurements({&m}, residuals, 0.0, 7, 0);
  REQUIRE(exact.size() == 1);
  CHECK(exact[0].by_step[0][0].pos[1] == doctest::Approx(2.2));
  CHECK(exact[0].by_step[1][0].pos[2] == doctest::Approx(6.6));
  const auto a = bootstrap_measurements({&m}, residuals, 0.01, 7, 3);
  const auto b = bootstrap_measurements({&m}, residuals, 0.01, 7, 3);
  const auto c = bootstrap_measurements({&m}, residuals, 0.01, 7, 4);
  CHECK(a[0].by_step[1][0].pos[0] == b[0].by_step[1][0].pos[0]);
  CHECK(a[0].by_step[1][0].pos[0] != c[0].by_step[1][0].pos[0]);
  CHECK(std::fabs(a[0].by_step[1][0].pos[0] - 4.4) < 0.06);  // 6 sigma
  // The noise has the requested standard deviation: 30,000 coordinates, within 3%.
  TrajectoryData many;
  many.by_step.assign(10000, std::vector<PositionSample>{PositionSample{}});
  many.count = 10000;
  const auto drawn = bootstrap_measurements({&many}, std::vector<double>(30000, 0.0), 0.5, 1, 0);
  double sq = 0.0;
  for (const auto& step : drawn[0].by_step)
    for (double x : step[0].pos) sq += x * x;
  CHECK(std::sqrt(sq / 30000.0) == doctest::Approx(0.5).epsilon(0.03));
}

TEST_CASE("bootstrap: where the model is nearly linear the spread is the standard error") {
  const Fitted f = fitted({"model.bodies.0.friction.0"}, {0.5});
  const double x = f.fit.path.back().values[0], se = f.fit.std_error[0];
  REQUIRE((std::isfinite(se) && se > 0.0));
  const BootstrapResult b = bootstrap(f, 100);
  REQUIRE(b.status == "ok");
  REQUIRE(b.draws.size() == 100);
  CHECK(b.failed == 0);
  CHECK_FALSE(b.cancelled);
  // 100 draws estimate a standard deviation to about 7%: within 25% (3.5 of those); the interval's ends at
  // x -+ se within 0.4 se (quantiles of 100 draws scatter by about 0.13 se), the median within 0.3 se.
  CHECK(b.spread[0] == doctest::Approx(se).epsilon(0.25));
  CHECK(std::fabs(b.lower[0] - (x - se)) < 0.4 * se);
  CHECK(std::fabs(b.upper[0] - (x + se)) < 0.4 * se);
  CHECK(std::fabs(b.median[0] - x) < 0.3 * se);
  // Each refit from the fit's start instead: the same valley here, the same spread (within the 25%).
  const BootstrapResult from_start = bootstrap(f, 100, 2, 0.6827, {0.5});
  REQUIRE(from_start.status == "ok");
  CHECK(from_start.spread[0] == doctest::Approx(se).epsilon(0.25));
  CHECK(std::fabs(from_start.median[0] - x) < 0.3 * se);
  // A wider level, a wider interval from the same draws.
  const BootstrapResult wide = bootstrap(f, 100, 2, 0.95);
  CHECK(wide.lower[0] < b.lower[0]);
  CHECK(wide.upper[0] > b.upper[0]);
}

TEST_CASE("bootstrap: the draws do not depend on the number of threads") {
  const Fitted f = fitted({"model.bodies.0.friction.0", "model.bodies.0.solref.0"}, {0.5, 0.03});
  const BootstrapResult one = bootstrap(f, 6, 1, 0.6827, {0.5, 0.03});
  const BootstrapResult two = bootstrap(f, 6, 2, 0.6827, {0.5, 0.03});
  REQUIRE(one.status == "ok");
  REQUIRE(one.draws.size() == 6);
  CHECK(one.draws == two.draws);
  CHECK(one.draw_index == two.draw_index);
  CHECK(one.draws[0] != one.draws[1]);
}

TEST_CASE(
    "bootstrap: refused without noise to draw, too few draws or a bad level; cancelled keeps what it has") {
  const Fitted f = fitted({"model.bodies.0.friction.0"}, {0.5});
  CHECK(bootstrap(f, 1).status.find("at least 2") != std::string::npos);
  CHECK(bootstrap(f, 10, 2, 1.5).status.find("level") != std::string::npos);
  CHECK(bootstrap(f, 10, 2, std::nan("")).status.find("level") != std::string::npos);
  CHECK(bootstrap(f, 10, 2, 0.68, {0.5, 0.1}).status.find("start has 2 numbers") != std::string::npos);
  FitResult failed = f.fit;
  failed.status = "simulation failed";
  CHECK(run_identification_bootstrap(f.problem, f.setup, failed, f.settings, 10, 0.68, {}, {})
            .status.find("did not end") != std::string::npos);
  // No noise and the truth as the start: an exact fit, no residual variance to draw noise from.
  const Fitted exact = fitted({"model.bodies.0.friction.0"}, {0.6}, "0");
  CHECK(bootstrap(exact, 10).status.find("no residual variance") != std::string::npos);

  std::atomic<bool> cancel{true};
  FitSettings s = f.settings;
  s.cancel = &cancel;
  const BootstrapResult c = run_identification_bootstrap(f.problem, f.setup, f.fit, s, 10, 0.68, {}, {});
  CHECK(c.cancelled);
  CHECK(c.draws.empty());
  CHECK(std::isnan(c.lower[0]));
}

TEST_CASE(
    "bootstrap: with rollouts, each run's draw is that run's fitted positions (noise-free draws refit in "
    "place)") {
  // The residuals come concatenated over the scene's run and each rollout's: were a draw's positions taken
  // from another run's residuals, the refit of noise-free draws would move far from the fitted values.
  Fitted f{shipped("identify_cube_rollouts.json", {"identify.noise=0.001"}), {}, {}, {}};
  f.setup = identify_setup(f.problem);
  REQUIRE(f.setup.status == "ok");
  REQUIRE(f.setup.rollouts.size() >= 1);
  f.settings = identify_settings(f.problem);
  f.settings.steps = 40;
  f.fit = run_identification(f.problem, f.setup, f.settings, {});
  REQUIRE(f.fit.status == "ok");
  FitResult quiet = f.fit;
  quiet.residual_sigma = 1e-12;  // (almost) no noise: the draws are the fitted model's own positions
  const BootstrapResult b =
      run_identification_bootstrap(f.problem, f.setup, quiet, f.settings, 2, 0.6827, {}, {});
  REQUIRE(b.status == "ok");
  REQUIRE(b.draws.size() == 2);
  const std::vector<double>& x = f.fit.path.back().values;
  for (const std::vector<double>& d : b.draws)
    for (std::size_t j = 0; j < x.size(); ++j) CHECK(d[j] == doctest::Approx(x[j]).epsilon(1e-6));
}
