// Identification (engine/optimize/fit, engine/gradient/trajectory_data): measured positions are read and
// checked with file:line messages, and the synthetic cube identification recovers its parameters from the
// engine's own noise-free trajectory.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <sstream>

#include "engine/optimize/fit.hpp"
#include "engine/optimize/identify.hpp"
#include "engine/simulate/trajectory.hpp"
#include "scene_helpers.hpp"

using namespace sg;
using sg::test::shipped;

namespace {

std::string parse_error(const std::string& text) {
  TrajectoryData data;
  std::string error;
  if (parse_trajectory_data(text, "m.csv", 0.01, 100, 2, &data, &error)) return "accepted";
  return error;
}

// The positions of a simulated trajectory as the CSV `softgrad simulate --positions` writes.
std::string positions_of(const Trajectory& tr) {
  std::ostringstream out;
  out.precision(17);
  out << "t,body,x,y,z\n";
  for (std::size_t i = 0; i < tr.t.size(); ++i)
    out << tr.t[i] << ",0," << tr.q[i][0] << ',' << tr.q[i][1] << ',' << tr.q[i][2] << '\n';
  return out.str();
}

// The scene's own noise-free positions, as identification data.
TrajectoryData truth_data() {
  const Problem truth = shipped("identify_cube_toss.json");
  const Trajectory tr = simulate_trajectory(truth, truth.sweep.from);
  REQUIRE(tr.status == "ok");
  TrajectoryData data;
  std::string error;
  REQUIRE(parse_trajectory_data(positions_of(tr), "truth", truth.integrator.dt, truth.integrator.steps, 1,
                                &data, &error));
  return data;
}

}  // namespace

TEST_CASE("trajectory data is checked line by line") {
  CHECK(parse_error("t,body,x,y,z\n0,0,1,2,3\n0.5,1,1,2,3\n") == "accepted");
  CHECK(parse_error("") == "m.csv:0: empty: expected the header t,body,x,y,z and data rows");
  CHECK(parse_error("time,x\n").find("m.csv:1: expected the header") == 0);
  CHECK(parse_error("t,body,x,y,z\n").find("no data rows") != std::string::npos);
  CHECK(parse_error("t,body,x,y,z\n0,0,1,2\n").find("m.csv:2: expected 5 values") == 0);
  CHECK(parse_error("t,body,x,y,z\n0,0,1,nan,3\n").find("m.csv:2: y: expected a finite number") == 0);
  CHECK(parse_error("t,body,x,y,z\n# comment\n0.005,0,1,2,3\n")
            .find("m.csv:3: t = 0.005 is not on the output grid") == 0);
  CHECK(parse_error("t,body,x,y,z\n2,0,1,2,3\n").find("outside the scene's horizon") != std::string::npos);
  CHECK(parse_error("t,body,x,y,z\n0,2,1,2,3\n").find("body = 2 is not a body index") != std::string::npos);
  CHECK(parse_error("t,body,x,y,z\n0,0.5,1,2,3\n").find("not a body index") != std::string::npos);
}

TEST_CASE("the synthetic cube identification recovers friction, solref and the throw speed") {
  const TrajectoryData data = truth_data();
  CHECK(data.count == 101);
  const std::vector<std::string> paths = {"model.bodies.0.friction.0", "model.bodies.0.solref.0",
                                          "model.bodies.0.solref.1", "model.bodies.0.vel.0"};
  const std::vector<double> expected = {0.6, 0.02, 0.7, 1.5};
  const Problem start = shipped(
      "identify_cube_toss.json",
      {"model.bodies.0.friction.0=0.4", "model.bodies.0.solref=[0.03,1]", "model.bodies.0.vel.0=1.2"});
  ParameterGradient g(start, paths, &data);
  // The residual Jacobian agrees with the gradient of the mean squared error from forward mode.
  const std::vector<double> x0 = g.initial_values();
  const ResidualJacobian rj = g.residuals(x0);
  const ObjectiveGradient fwd = g.forward(x0);
  REQUIRE(rj.status == "ok");
  for (std::size_t j = 0; j < paths.size(); ++j) {
    double from_jacobian = 0.0;
    for (std::size_t i = 0; i < rj.r.size(); ++i) from_jacobian += 2.0 * rj.r[i] * rj.J[i * paths.size() + j];
    from_jacobian /= static_cast<double>(data.count);
    CHECK(std::fabs(from_jacobian - fwd.grad[j]) <= 1e-10 * std::fabs(fwd.grad[j]));
  }
  for (FitMethod method : {FitMethod::lm}) {
    FitSettings settings;
    settings.method = method;
    settings.steps = 50;
    const FitResult fit = fit_parameters(g, x0, settings, {});
    REQUIRE(fit.status == "ok");
    const FitStep& last = fit.path.back();
    CHECK(last.loss < 1e-12);
    for (std::size_t j = 0; j < paths.size(); ++j) {
      CAPTURE(paths[j]);
      CHECK(std::fabs(last.values[j] - expected[j]) <= 0.01 * expected[j]);  // the 1%
    }
  }
}

TEST_CASE("Adam lowers the identification error too (slower than Levenberg-Marquardt)") {
  const TrajectoryData data = truth_data();
  const Problem start = shipped("identify_cube_toss.json", {"model.bodies.0.friction.0=0.45"});
  ParameterGradient g(start, {"model.bodies.0.friction.0"}, &data);
  FitSettings settings;
  settings.method = FitMethod::adam;
  settings.steps = 40;
  settings.lr = 0.05;
  const FitResult fit = fit_parameters(g, g.initial_values(), settings, {});
  REQUIRE(fit.status == "ok");
  CHECK(fit.path.back().loss < 0.05 * fit.path.front().loss);
  CHECK(std::fabs(fit.path.back().values[0] - 0.6) < 0.05);
}

TEST_CASE("a scene's identify section fits its numbers from their starts to its own positions") {
  const Problem p = shipped("identify_cube_toss.json");
  const IdentifySetup setup = identify_setup(p);
  REQUIRE(setup.status == "ok");
  REQUIRE(setup.paths.size() == 4);
  CHECK(setup.truth[0] == 0.6);  // the scene's own values are the truth
  CHECK(setup.start[0] == 0.4);
  CHECK(setup.data.count == 101);
  std::vector<FitStep> seen;
  const FitResult r =
      run_identification(p, setup, identify_settings(p), [&](const FitStep& s) { seen.push_back(s); });
  REQUIRE(r.status == "ok");
  REQUIRE(seen.size() == r.path.size());
  // Noise-free data: every number back to 1% of the truth (measured: below 1e-6 relative).
  for (std::size_t j = 0; j < setup.paths.size(); ++j) {
    CAPTURE(setup.paths[j]);
    CHECK(std::fabs(r.path.back().values[j] - setup.truth[j]) <= 0.01 * std::fabs(setup.truth[j]));
  }
  CHECK(r.path.back().loss < 1e-6 * r.path.front().loss);
}

TEST_CASE("identification with measurement noise and a cancelled fit") {
  const Problem noisy = shipped("identify_cube_toss.json", {"identify.noise=0.001", "identify.seed=3"});
  const IdentifySetup setup = identify_setup(noisy);
  REQUIRE(setup.status == "ok");
  const IdentifySetup clean = identify_setup(shipped("identify_cube_toss.json"));
  double mean_square = 0.0;
  for (std::size_t i = 0; i < setup.data.by_step.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      const double d = setup.data.by_step[i][0].pos[k] - clean.data.by_step[i][0].pos[k];
      mean_square += d * d / (3.0 * static_cast<double>(setup.data.count));
    }
  CHECK(std::sqrt(mean_square) == doctest::Approx(0.001).epsilon(0.2));  // the noise asked for
  std::atomic<bool> stop{true};
  FitSettings settings = identify_settings(noisy);
  settings.cancel = &stop;
  const FitResult r = run_identification(noisy, setup, settings, {});
  CHECK(r.stopped == "cancelled");
  CHECK(r.path.size() == 1);  // the start's evaluation, then it stops
}

TEST_CASE("identify.parameters must name differentiable numbers, each once") {
  const auto errors = [](const std::string& set) {
    const ProblemLoad loaded = load_problem_file(sg::test::scene_path("identify_cube_toss.json"), {set});
    return loaded.ok() ? std::string("accepted") : loaded.errors;
  };
  CHECK(
      errors("identify.parameters.0.path=model.bodies.0.frictoin.0")
          .find("identify.parameters.0.path: \"model.bodies.0.frictoin.0\" is not a differentiable number") !=
      std::string::npos);
  CHECK(errors("identify.parameters.1.path=model.bodies.0.friction.0").find("listed twice") !=
        std::string::npos);
  CHECK(errors("identify.noise=-1").find("identify.noise") != std::string::npos);
  CHECK(errors("identify.method=newton").find("identify.method") != std::string::npos);
}

TEST_CASE("Adam takes the same steps with reverse-mode gradients as with forward mode") {
  const Problem p = shipped("identify_cube_toss.json");
  const IdentifySetup setup = identify_setup(p);
  REQUIRE(setup.status == "ok");
  FitSettings settings = identify_settings(p);
  settings.method = FitMethod::adam;
  settings.steps = 4;
  const FitResult forward = run_identification(p, setup, settings, {});
  settings.reverse = true;
  const FitResult reverse = run_identification(p, setup, settings, {});
  REQUIRE(forward.status == "ok");
  REQUIRE(reverse.status == "ok");
  REQUIRE(reverse.path.size() == forward.path.size());
  CHECK(reverse.runs == forward.runs);  // one run per step either way: one taped, or ceil(4 / 4) forward
  // The gradients agree to about 1e-10 relative to the largest component (reverse vs forward on every scene).
  // Adam's normalised steps carry each component's own relative difference into the values: the damping
  // ratio's gradient is 1e-5 of the others' (-5e-7 against 1e-2), so its rounding is about 1e-8 of itself and
  // its path agrees to a few 1e-8 (measured 2.3e-8), the others' to 1e-9.
  for (std::size_t i = 0; i < forward.path.size(); ++i)
    for (std::size_t j = 0; j < setup.paths.size(); ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(reverse.path[i].values[j] == doctest::Approx(forward.path[i].values[j]).epsilon(1e-7));
      CHECK(reverse.path[i].grad[j] == doctest::Approx(forward.path[i].grad[j]).epsilon(1e-7));
    }
}
