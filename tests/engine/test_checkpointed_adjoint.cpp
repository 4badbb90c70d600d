// Reverse mode with checkpoints (engine/gradient/checkpointed_adjoint.hpp): replaying the run segment by
// segment from checkpoints gives the gradient of taping the whole run at once, with a tape the size of one
// segment.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/simulate/trajectory.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// Tolerance 1e-10 relative (absolute 1e-12 below 1e-2): a segment's first stage is f(y) evaluated again at
// the checkpoint instead of the previous step's last stage, equal in exact arithmetic; the adjoints differ
// by the rounding of that derivative carried through the later (stiff contact) steps: measured 6.7e-11
// relative at most (billiards, a ball's radius) and 1e-12 absolute.
void check_same_gradient(const ObjectiveGradient& whole, const ObjectiveGradient& pieces,
                         const std::vector<std::string>& paths) {
  REQUIRE(whole.status == "ok");
  REQUIRE(pieces.status == "ok");
  CHECK(pieces.loss == whole.loss);
  CHECK(pieces.stats.accepted == whole.stats.accepted);
  CHECK(pieces.stats.rejected == whole.stats.rejected);
  CHECK(pieces.stats.events == whole.stats.events);
  for (std::size_t j = 0; j < paths.size(); ++j) {
    CAPTURE(paths[j]);
    CAPTURE(whole.grad[j]);
    CAPTURE(pieces.grad[j]);
    CHECK(std::fabs(pieces.grad[j] - whole.grad[j]) <= 1e-10 * std::max(std::fabs(whole.grad[j]), 1e-2));
  }
}

ObjectiveGradient reverse_with(ParameterGradient& g, long segment_steps) {
  g.set_checkpoint_steps(segment_steps);
  return g.reverse(g.initial_values());
}

}  // namespace

TEST_CASE("checkpointed reverse mode gives the whole tape's gradient on every shipped scene") {
  test::for_each_shipped_scene([](const std::string&, const Problem& p) {
    ParameterGradient g(p, all_gradient_paths(p, true), nullptr);
    const ObjectiveGradient whole = reverse_with(g, 0);
    CHECK(g.segments() == 1);
    // One step per segment (every step a checkpoint), a prime that cuts output intervals anywhere, and
    // segments longer than the default.
    for (long k : {1L, 7L, 32L}) {
      CAPTURE(k);
      const ObjectiveGradient pieces = reverse_with(g, k);
      CHECK(g.segments() == (whole.stats.accepted + k - 1) / k);
      check_same_gradient(whole, pieces, g.paths());
    }
  });
}

TEST_CASE("checkpointed reverse mode covers the fixed-step solvers on contact") {
  const std::vector<std::vector<std::string>> variants = {
      {"integrator.type=euler", "integrator.dt=0.01", "integrator.substeps=10"},
      {"integrator.type=rk4", "integrator.dt=0.01", "integrator.substeps=10"},
  };
  for (const auto& sets : variants) {
    CAPTURE(sets[0]);
    const Problem p = test::shipped("toss_box_diffmjx.json", sets);
    ParameterGradient g(p, {"model.bodies.0.vel.2", "model.bodies.0.friction.0", "model.plane.solref.0"},
                        nullptr);
    const ObjectiveGradient whole = reverse_with(g, 0), pieces = reverse_with(g, 13);
    check_same_gradient(whole, pieces, g.paths());
    CHECK(g.segments() == (1000 + 12) / 13);
    const ObjectiveGradient fwd = g.forward(g.initial_values());
    for (std::size_t j = 0; j < 3; ++j)
      CHECK(std::fabs(pieces.grad[j] - fwd.grad[j]) <= 1e-9 * std::max(std::fabs(fwd.grad[j]), 1e-3));
  }
}

TEST_CASE("checkpointed reverse mode carries a trajectory mismatch across segments") {
  // Data from the scene at other parameters, so that every output's residual enters the loss.
  const Problem truth = test::shipped("identify_cube_toss.json", {"model.bodies.0.friction.0=0.5"});
  const Trajectory tr = simulate_trajectory(truth, truth.sweep.from);
  REQUIRE(tr.status == "ok");
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,body,x,y,z\n";
  for (std::size_t i = 0; i < tr.t.size(); ++i)
    csv << tr.t[i] << ",0," << tr.q[i][0] << ',' << tr.q[i][1] << ',' << tr.q[i][2] << '\n';
  TrajectoryData data;
  std::string error;
  REQUIRE(parse_trajectory_data(csv.str(), "truth", truth.integrator.dt, truth.integrator.steps, 1, &data,
                                &error));
  const Problem p = test::shipped("identify_cube_toss.json");
  ParameterGradient g(p, all_gradient_paths(p, false), &data);
  const ObjectiveGradient whole = reverse_with(g, 0), pieces = reverse_with(g, 5);
  CHECK(whole.loss > 1e-6);
  check_same_gradient(whole, pieces, g.paths());
  const ObjectiveGradient fwd = g.forward(g.initial_values());
  for (std::size_t j = 0; j < g.paths().size(); ++j) {
    CAPTURE(g.paths()[j]);
    CHECK(std::fabs(pieces.grad[j] - fwd.grad[j]) <= 1e-9 * std::max(std::fabs(fwd.grad[j]), 1e-3));
  }
}

TEST_CASE("checkpointed reverse mode's memory is one segment's tape, whatever the run's length") {
  // The resting cube over 10 s (about 1,100 accepted steps): the whole tape holds ~20 million nodes, a
  // 32-step segment a few hundred thousand; the peak must not grow with the horizon.
  const auto peak = [](const char* steps) {
    const Problem p = test::shipped("identify_cube_toss.json", {std::string("integrator.steps=") + steps});
    ParameterGradient g(p, {"model.bodies.0.friction.0", "model.bodies.0.vel.2"}, nullptr);
    const ObjectiveGradient r = reverse_with(g, 32);
    REQUIRE(r.status == "ok");
    return std::make_pair(g.tape_nodes(), r.stats.accepted);
  };
  const auto one = peak("100"), ten = peak("1000");
  CHECK(ten.second > 5 * one.second);
  CHECK(ten.first < 2 * one.first);
  const Problem p = test::shipped("identify_cube_toss.json", {"integrator.steps=1000"});
  ParameterGradient g(p, {"model.bodies.0.friction.0"}, nullptr);
  reverse_with(g, 0);
  const long whole_nodes = g.tape_nodes();
  CHECK(whole_nodes > 10 * ten.first);
}
