// A sweep drawn while it runs (coarse to fine, engine/sweep/point_order.hpp): points not computed yet are
// left out of the curves, so the line joins the computed ones, while a failed point still breaks it.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>

#include "engine/problem/load_problem.hpp"
#include "plots/sweep_figures/sweep_figure.hpp"

TEST_CASE("the sweep figure joins computed points across pending ones and breaks at failed ones") {
  const sg::ProblemLoad loaded =
      sg::load_problem_file(sg::test::source_dir() + "/scenes/toy_point_mass.json", {});
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  sg::SweepResult r;
  for (int i = 0; i < 9; ++i) {
    sg::PointResult p;
    p.value = 0.1 * i;
    p.loss = p.grad = p.grad_fd = 1.0 + i;
    p.status = "ok";
    if (i % 2 == 1) {  // not computed yet, or cancelled: NaN numbers
      p.loss = p.grad = p.grad_fd = NAN;
      p.status = i == 7 ? "cancelled" : "pending";
    }
    r.points.push_back(p);
  }
  r.points[4].loss = NAN;  // a failed run
  r.points[4].status = "blow_up at t=0.3";
  const sg::plot::Figure fig = sg::sweep_figure(*loaded.problem, r);
  REQUIRE(!fig.plots.empty());
  const sg::plot::Series& loss = fig.plots[0].series.at(0);
  REQUIRE(loss.x.size() == 5);  // points 0, 2, 4, 6, 8
  CHECK(loss.x[1] == doctest::Approx(0.2));
  CHECK(loss.x[2] == doctest::Approx(0.4));
  CHECK(std::isnan(loss.y[2]));  // the failed point: a gap
  CHECK(loss.y[3] == 7.0);
  CHECK(loss.y[4] == 9.0);
}
