// A checkpointed adjoint recorded on several threads (engine/gradient/parallel_replay.hpp) sweeps its
// segments in the one-thread order and sums the prefix's adjoints in that order: the gradient must be the
// same to the last bit, with the scene's loss and with a trajectory mismatch carried across segments.
#include <doctest/doctest.h>

#include <thread>

#include "engine/gradient/parameter_gradient.hpp"
#include "moved_positions.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

ObjectiveGradient reverse_on(ParameterGradient& g, int threads, long segment_steps) {
  g.set_threads(threads);
  g.set_checkpoint_steps(segment_steps);
  return g.reverse(g.initial_values());
}

void check_bitwise(const ObjectiveGradient& one, const ObjectiveGradient& many) {
  REQUIRE(one.status == "ok");
  REQUIRE(many.status == "ok");
  CHECK(many.loss == one.loss);
  CHECK(many.stats.accepted == one.stats.accepted);
  REQUIRE(many.grad.size() == one.grad.size());
  for (std::size_t j = 0; j < one.grad.size(); ++j) {
    CAPTURE(j);
    CHECK(many.grad[j] == one.grad[j]);  // exact: same nodes, same sweep order
  }
}

}  // namespace

TEST_CASE(
    "reverse mode on several threads gives the one-thread gradient bit for bit on every shipped scene") {
  test::for_each_shipped_scene([](const std::string&, const Problem& p) {
    ParameterGradient g(p, all_gradient_paths(p, true), nullptr);
    const ObjectiveGradient one = reverse_on(g, 1, 8);
    const long segments = g.segments();
    for (int threads : {2, 3}) {
      CAPTURE(threads);
      check_bitwise(one, reverse_on(g, threads, 8));
      CHECK(g.segments() == segments);
    }
    // One step per segment: the most hand-overs between threads.
    check_bitwise(reverse_on(g, 1, 1), reverse_on(g, 2, 1));
  });
}

TEST_CASE(
    "reverse mode on several threads carries a trajectory mismatch across segments as one thread does") {
  const Problem p = test::shipped("identify_cube_toss.json");
  const TrajectoryData data = test::moved_positions(p, 3, {0.01, 0.0, -0.02});
  ParameterGradient g(p, {"model.bodies.0.friction.0", "model.plane.solref.0", "model.bodies.0.vel.0"},
                      &data);
  const ObjectiveGradient one = reverse_on(g, 1, 5);
  CHECK(one.loss > 0.0);
  check_bitwise(one, reverse_on(g, 2, 5));
  // More threads than segments: the extra ones find nothing to take.
  check_bitwise(reverse_on(g, 1, 0), reverse_on(g, 4, 0));
  check_bitwise(reverse_on(g, 1, 40), reverse_on(g, 8, 40));
}

TEST_CASE("two callers asking for threads at once both get the one-thread gradient") {
  // The helper threads serve one caller at a time; the other records its segments alone.
  const Problem box = test::shipped("toss_box_diffmjx.json"), balls = test::shipped("billiards.json");
  ParameterGradient a(box, all_gradient_paths(box, true), nullptr),
      b(balls, all_gradient_paths(balls, true), nullptr);
  const ObjectiveGradient a1 = reverse_on(a, 1, 8), b1 = reverse_on(b, 1, 8);
  a.set_threads(2);
  b.set_threads(2);
  ObjectiveGradient a2, b2;
  std::thread other([&] { b2 = b.reverse(b.initial_values()); });
  a2 = a.reverse(a.initial_values());
  other.join();
  check_bitwise(a1, a2);
  check_bitwise(b1, b2);
}
