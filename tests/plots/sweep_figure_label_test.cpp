// The sweep figure names the AD curve by how it was computed, so a figure read later says what it shows.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include "engine/problem/load_problem.hpp"
#include "plots/sweep_figures/sweep_figure.hpp"

namespace {

std::string ad_name(const std::vector<std::string>& sets) {
  const sg::ProblemLoad loaded =
      sg::load_problem_file(sg::test::source_dir() + "/scenes/billiards_nogravity.json", sets);
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  const sg::plot::Figure fig = sg::sweep_figure(*loaded.problem, sg::SweepResult{});
  REQUIRE(fig.plots.size() >= 2);
  return fig.plots[1].series.at(0).name;
}

}  // namespace

TEST_CASE("the sweep figure's AD legend names forward, reverse or backsolve") {
  CHECK(ad_name({}) == "AD (forward mode, CFD surrogate, frozen steps)");
  CHECK(ad_name({"gradient.mode=reverse"}) == "AD (reverse mode, CFD surrogate, frozen steps)");
  CHECK(ad_name({"gradient.mode=backsolve"}) == "AD (backsolve: continuous adjoint, CFD surrogate)");
  CHECK(ad_name({"gradient.mode=backsolve", "contact.cfd.enabled=false"}) ==
        "AD (backsolve: continuous adjoint)");
}
