// Gradient descent on the loss curve (engine/optimize/descent.hpp): starts spread over the sweep range, paths
// projected onto it, and the DiffMJX billiards point: CFD's gradients lead a missed shot to the target, plain
// contact's do not move it.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/optimize/descent.hpp"
#include "scene_helpers.hpp"

using namespace sg;

TEST_CASE("descent starts are spread evenly inside the sweep range") {
  SweepSpec sweep;
  sweep.from = 0.0;
  sweep.to = 3.0;
  const std::vector<double> starts = descent_starts(sweep, 3);
  REQUIRE(starts.size() == 3);
  CHECK(starts[0] == doctest::Approx(0.5));
  CHECK(starts[1] == doctest::Approx(1.5));
  CHECK(starts[2] == doctest::Approx(2.5));
  sweep.from = 1.0;
  sweep.to = -1.0;  // a descending range works the same way
  CHECK(descent_starts(sweep, 1)[0] == doctest::Approx(0.0));
}

TEST_CASE("descent paths follow Adam on the AD gradient and stay inside the sweep range") {
  // Elastic toy with time of impact: |q_N - 1| has minima at q0 = 1 and 3 (the range's end), gradient +-1.
  const Problem p = test::shipped("toy_elastic.json", {"contact.elastic.toi=true", "optimize.starts=3",
                                                       "optimize.steps=40", "optimize.lr=0.1"});
  const DescentResult r = run_descent(p);
  REQUIRE(r.paths.size() == 3);
  for (const DescentPath& path : r.paths) {
    CHECK(path.status == "ok");
    REQUIRE(path.x.size() == 41);
    CHECK(path.x.front() == path.start);
    CHECK(path.loss.back() < 0.02);
    for (double x : path.x) CHECK((x >= 0.0 && x <= 3.0));
  }
  // Adam's first step moves by lr against the gradient's sign.
  CHECK(r.paths[0].x[1] == doctest::Approx(0.5 + 0.1));
  CHECK(r.paths[2].x.back() == 3.0);
}

TEST_CASE("billiards: descent with CFD moves missed shots towards the target, without CFD it cannot") {
  // Starts at u0 = -3.75 and 3.75 miss the 8-ball (loss 0.04, zero gradient without CFD).
  const std::vector<std::string> sets = {"optimize.starts=2", "optimize.steps=10", "optimize.lr=0.1"};
  const DescentResult cfd = run_descent(test::shipped("billiards.json", sets));
  std::vector<std::string> plain_sets = sets;
  plain_sets.push_back("contact.cfd.enabled=false");
  const DescentResult plain = run_descent(test::shipped("billiards.json", plain_sets));
  REQUIRE(cfd.paths.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    REQUIRE(cfd.paths[i].status == "ok");
    REQUIRE(plain.paths[i].status == "ok");
    CHECK(std::fabs(cfd.paths[i].x.back() - cfd.paths[i].start) > 0.5);  // moved towards u0 = 0
    CHECK(std::fabs(cfd.paths[i].x.back()) < std::fabs(cfd.paths[i].start));
    CHECK(plain.paths[i].x.back() == plain.paths[i].start);  // zero gradient: never moves
    CHECK(plain.paths[i].loss.back() == plain.paths[i].loss.front());
  }
}

TEST_CASE("a cancelled descent keeps the steps done and says so") {
  std::atomic<bool> cancel{true};
  const Problem p = test::shipped("toy_elastic.json", {"optimize.starts=2"});
  DescentControl control;
  control.cancel = &cancel;
  const DescentResult r = run_descent(p, control);
  CHECK(r.cancelled);
  for (const DescentPath& path : r.paths) {
    CHECK(path.status == "cancelled");
    CHECK(path.x.empty());
  }
}
