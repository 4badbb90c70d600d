// Identification from measured tosses cut into segments (engine/optimize/toss_segments.hpp), on tosses the
// scene simulates itself (so the truth is known): each segment starts from its measured state, the objective
// is zero at the truth, forward mode equals central differences and reverse mode, the residuals' Jacobian is
// the gradient's, and Levenberg-Marquardt recovers the cube's half side from far off.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/optimize/fit.hpp"
#include "engine/optimize/toss_segments.hpp"
#include "engine/simulate/trajectory.hpp"
#include "tests/engine/scene_helpers.hpp"

namespace sg {
namespace {

constexpr double kHalf = 0.0524;  // the measured cube's half side, the scene's

// CSV rows of the scene's own run (the format of ../shared/data/contactnets/tosses.csv), as toss `number`.
std::string simulated_toss(const Problem& problem, int number) {
  const Trajectory tr = simulate_trajectory(problem, problem.data.rigid.bodies[0].surface.friction);
  REQUIRE(tr.status == "ok");
  std::string rows;
  char line[512];
  for (std::size_t i = 0; i < tr.t.size(); ++i) {
    const std::vector<double>& q = tr.q[i];
    const std::vector<double>& v = tr.v[i];
    std::snprintf(line, sizeof line,
                  "%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                  number, tr.t[i], q[0], q[1], q[2], q[3], q[4], q[5], q[6], v[0], v[1], v[2], v[3], v[4],
                  v[5]);
    rows += line;
  }
  return rows;
}

// Three tosses of the scene's cube: its own start, another spin, a flatter throw.
TossSet simulated_tosses() {
  std::string csv = "toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
  csv += simulated_toss(test::shipped("contactnets_cube.json"), 0);
  csv += simulated_toss(test::shipped("contactnets_cube.json",
                                      {"model.bodies.0.angvel=[4,-2,1]", "model.bodies.0.euler=[10,20,30]"}),
                        1);
  csv += simulated_toss(
      test::shipped("contactnets_cube.json", {"model.bodies.0.vel=[1.5,0,-1]", "model.bodies.0.pos.2=0.09"}),
      2);
  TossSet set;
  std::string error;
  REQUIRE_MESSAGE(parse_tosses(csv, "simulated.csv", &set, &error), error);
  return set;
}

Problem cube_with_half(double half) {
  const std::string h = std::to_string(half);
  return test::shipped("contactnets_cube.json", {"model.bodies.0.size=[" + h + "," + h + "," + h + "]"});
}

TossObjective segments_at(double half, int length = 5) {
  const Problem p = cube_with_half(half);
  return TossObjective(p, simulated_tosses(), {0, 1, 2}, length, fit_numbers(p, {"model.bodies.0.size"}));
}

TEST_CASE("segments of simulated tosses: zero error at the truth, and the half side is seen") {
  TossObjective at_truth = segments_at(kHalf);
  CHECK(at_truth.runs() == 3 * 8);  // 41 frames a toss: 8 whole segments of 5
  CHECK(at_truth.samples() == 3 * 8 * 4);
  CHECK(at_truth.paths() == std::vector<std::string>{"model.bodies.0.size"});
  CHECK(at_truth.initial_values() == std::vector<double>{kHalf});
  const double zero = at_truth.objective({kHalf});
  MESSAGE("objective at the truth: " << zero);
  CHECK(zero < 1e-20);
  const double off = at_truth.objective({0.04});
  MESSAGE("objective at a half side of 0.04: " << off);
  CHECK(off > 1e-4);
  const TrajectoryError whole = segments_at(kHalf, 0).trajectory_error({kHalf});
  CHECK(whole.status == "ok");
  CHECK(whole.frames == 3 * 40);
  CHECK(whole.mean_abs < 1e-9);
  CHECK(segments_at(kHalf, 0).trajectory_error({0.045}).mean_abs > 1e-3);
}

TEST_CASE(
    "the tosses' gradient: forward mode equals central FD and reverse mode, and the Jacobian folds into it") {
  TossObjective obj = segments_at(kHalf);
  for (double half : {0.045, 0.05, 0.056}) {
    CAPTURE(half);
    const ObjectiveGradient fwd = obj.forward({half});
    REQUIRE(fwd.status == "ok");
    const double h = 1e-7;
    const double fd = (obj.objective({half + h}) - obj.objective({half - h})) / (2.0 * h);
    CHECK(fwd.loss == doctest::Approx(obj.objective({half})).epsilon(1e-14));
    // Euler's map is smooth between contact onsets, which a step of 1e-7 may straddle: measured 4.7e-5.
    CHECK(std::fabs(fwd.grad[0] - fd) <= 2e-4 * std::fabs(fd));
    const ObjectiveGradient rev = obj.reverse({half});
    REQUIRE(rev.status == "ok");
    CHECK(std::fabs(rev.grad[0] - fwd.grad[0]) <= 1e-10 * std::fabs(fwd.grad[0]));
    // objective = |r|^2 / samples, so its gradient is 2 r^T J / samples.
    const ResidualJacobian rj = obj.residuals({half});
    REQUIRE(rj.status == "ok");
    REQUIRE(rj.r.size() == static_cast<std::size_t>(12 * obj.samples()));
    double g = 0.0;
    for (std::size_t i = 0; i < rj.r.size(); ++i) g += 2.0 * rj.r[i] * rj.J[i];
    g /= static_cast<double>(obj.samples());
    CHECK(std::fabs(g - fwd.grad[0]) <= 1e-10 * std::fabs(fwd.grad[0]));
  }
}

TEST_CASE("runs of the tosses spread over threads give the same numbers to the last bit") {
  TossObjective one = segments_at(kHalf), two = segments_at(kHalf);
  two.set_threads(2);
  const ObjectiveGradient a = one.forward({0.05}), b = two.forward({0.05});
  CHECK(a.loss == b.loss);
  CHECK(a.grad[0] == b.grad[0]);
}

TEST_CASE("Levenberg-Marquardt and Adam recover the cube's half side from simulated tosses") {
  // Euler's contact makes the error a rough function of the size (which corner lands within a step): from
  // 0.06 LM lands on the truth, from 0.045 in a dent 6e-4 relative beside it (measured).
  for (const auto& start_tolerance : {std::pair{0.06, 1e-9}, std::pair{0.045, 2e-3}}) {
    const auto [start, tolerance] = start_tolerance;
    const double start_value = start;  // CAPTURE takes a variable, not a structured binding (clang 14)
    CAPTURE(start_value);
    TossObjective obj = segments_at(start);
    FitSettings lm;
    lm.steps = 100;
    const FitResult r = fit_parameters(obj, {start}, lm, {});
    REQUIRE(r.status == "ok");
    MESSAGE("lm from " << start << ": " << r.path.back().values[0] << " after " << r.path.back().iteration);
    CHECK(std::fabs(r.path.back().values[0] - kHalf) < tolerance * kHalf);
  }
  TossObjective obj = segments_at(0.045);
  FitSettings adam;
  adam.method = FitMethod::adam;
  adam.steps = 150;
  adam.beta1 = 0.5, adam.beta2 = 0.9, adam.adam_eps = 1e-6;
  adam.lr = 0.02, adam.lr_final = 1e-4;
  const FitResult r = fit_parameters(obj, {0.045}, adam, {});
  REQUIRE(r.status == "ok");
  MESSAGE("adam from 0.045: " << r.path.back().values[0]);
  CHECK(std::fabs(r.path.back().values[0] - kHalf) < 5e-3 * kHalf);  // measured 2.2e-3: Adam's last steps
}

TEST_CASE(
    "without contact in any segment the plain model's gradient is 0 to rounding: the stall CFD removes") {
  // A cube of half side 0.03 falls short of the floor in every segment of the simulated tosses: MJX's
  // Euler sees no contact and its gradient is 0 (the fit stalls, as in DiffMJX's Fig. 9; only rounding is
  // left: a cube's inertia is the same about every axis, so its free flight does not depend on the size);
  // with CFD the straight-through gradient points to the larger cube.
  TossObjective plain = segments_at(0.03);
  const ObjectiveGradient g = plain.forward({0.03});
  REQUIRE(g.status == "ok");
  CHECK(std::fabs(g.grad[0]) < 1e-15);
  const Problem p = test::shipped("contactnets_cube.json",
                                  {"model.bodies.0.size=[0.03,0.03,0.03]", "contact.cfd.enabled=true"});
  TossObjective cfd(p, simulated_tosses(), {0, 1, 2}, 5, fit_numbers(p, {"model.bodies.0.size"}));
  const ObjectiveGradient c = cfd.forward({0.03});
  REQUIRE(c.status == "ok");
  CHECK(c.loss == g.loss);  // straight-through: the simulation is the plain model's
  MESSAGE("CFD's gradient at 0.03: " << c.grad[0]);
  CHECK(c.grad[0] < -1e-3);
}

TEST_CASE("a fit to tosses refuses what it cannot do, naming the key") {
  const Problem p = cube_with_half(kHalf);
  const TossSet set = simulated_tosses();
  auto refused = [&](const Problem& problem, const std::vector<std::string>& wrt, int length) {
    try {
      TossObjective(problem, set, {0}, length, fit_numbers(problem, wrt));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refused(p, {"model.bodies.0.pos.2"}, 5) ==
        "model.bodies.0.pos.2: fitted, so it cannot also be set from the data");
  CHECK(refused(p, {"model.bodies.0.size"}, 1).find("a segment needs at least 2 frames") !=
        std::string::npos);
  CHECK(refused(test::shipped("contactnets_cube.json", {"integrator.dt=0.01"}), {"model.bodies.0.size"}, 5)
            .find("integrator.dt: 0.010000 s, but the frames of simulated.csv are 0.006757 s apart") !=
        std::string::npos);
  CHECK(refused(test::shipped("toy_point_mass.json"), {"model.particles.0.pos.2"}, 5)
            .find("model.type: measured tosses need free bodies") != std::string::npos);
  CHECK(refused(p, {"model.bodies.0.sise"}, 5) ==
        "model.bodies.0.sise: not a differentiable number of this scene (nearest: model.bodies.0.size.0)");
  CHECK(refused(test::shipped("contactnets_cube.json", {"model.bodies.0.size=[0.05,0.05,0.06]"}),
                {"model.bodies.0.size"}, 5)
            .find("its entries differ") != std::string::npos);
  CHECK(refused(p, {"model.bodies.0.size"}, 500).find("no segment of 500 frames") != std::string::npos);
}

}  // namespace
}  // namespace sg
