// The sweep figure's view of AD against its reference (engine/sweep/gradient_agreement.hpp): points where
// both are zero are not drawn in the relative-difference plot (neither a perfect match nor an alarm), and the
// gradient plot marks the points where AD is more than 10% off, except under straight-through CFD against
// the plain model's FD, where they differ by design.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>
#include <string>

#include "engine/problem/load_problem.hpp"
#include "plots/sweep_figures/sweep_figure.hpp"

namespace {

sg::SweepResult four_points() {
  sg::SweepResult r;
  const double ad[] = {0.0, 1.0, 2.0, -1.0}, fd[] = {0.0, 1.0, 1.0, 1.0};  // zero-zero, exact, 50% off, sign
  for (int i = 0; i < 4; ++i) {
    sg::PointResult p;
    p.value = i;
    p.loss = 0.0;
    p.grad = ad[i];
    p.grad_fd = fd[i];
    r.points.push_back(p);
  }
  return r;
}

const sg::plot::Series* find_series(const sg::plot::Plot& plot, const std::string& prefix) {
  for (const sg::plot::Series& s : plot.series)
    if (s.name.rfind(prefix, 0) == 0) return &s;
  return nullptr;
}

sg::Problem load(const std::string& scene, const std::vector<std::string>& sets = {}) {
  const sg::ProblemLoad loaded = sg::load_problem_file(sg::test::source_dir() + "/scenes/" + scene, sets);
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  return *loaded.problem;
}

}  // namespace

TEST_CASE("the sweep figure marks AD off its reference and leaves zero-zero points out of the error plot") {
  const sg::plot::Figure fig = sg::sweep_figure(load("toy_point_mass.json"), four_points());
  REQUIRE(fig.plots.size() == 3);
  const sg::plot::Series* off = find_series(fig.plots[1], "AD off the FD by >10%");
  REQUIRE(off);
  CHECK(off->name == "AD off the FD by >10% (2)");
  REQUIRE(off->x.size() == 2);
  CHECK(off->x[0] == 2.0);
  CHECK(off->x[1] == 3.0);
  CHECK(off->style == sg::plot::SeriesStyle::markers);
  const sg::plot::Series& err = fig.plots[2].series.at(0);
  REQUIRE(err.y.size() == 4);
  CHECK(
      std::isnan(err.y[0]));  // both zero: not drawn (it used to read as a perfect 0, or as 1 at 1e-40 vs 0)
  CHECK(err.y[1] == 0.0);
  CHECK(err.y[2] == doctest::Approx(0.5));
  CHECK(err.y[3] == doctest::Approx(2.0));
}

TEST_CASE("straight-through CFD against the plain model's FD gets no off markers: they differ by design") {
  const sg::plot::Figure fig = sg::sweep_figure(load("billiards.json"), four_points());
  CHECK_FALSE(find_series(fig.plots[1], "AD off"));
  const sg::plot::Figure tight =
      sg::sweep_figure(load("billiards.json", {"gradient.reference=ad_tight"}), [] {
        sg::SweepResult r = four_points();
        r.reference = sg::Reference::ad_tight;
        for (sg::PointResult& p : r.points) p.grad_ref = p.grad_fd;
        return r;
      }());
  CHECK(find_series(tight.plots[1], "AD off the reference by >10% (2)"));
}
