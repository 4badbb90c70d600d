// The bootstrap figure (plots/sweep_figures/bootstrap_figure.hpp): a density histogram per number that
// integrates to 1, the interval's ends where the result puts them, and one more plot of the pair of numbers
// whose draws correlate most strongly.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "plots/sweep_figures/bootstrap_figure.hpp"

using namespace sg;

namespace {

// Draws where number 2 follows number 0 exactly (correlation -1) and number 1 varies on its own.
BootstrapResult made_up_draws() {
  BootstrapResult b;
  b.level = 0.6827;
  for (int k = 0; k < 50; ++k) {
    const double u = 0.01 * k, v = std::sin(1.3 * k);
    b.draws.push_back({1.0 + u, 2.0 + v, 3.0 - 2.0 * u});
  }
  b.lower = {1.1, 1.5, 2.5};
  b.upper = {1.4, 2.5, 2.9};
  return b;
}

}  // namespace

TEST_CASE("bootstrap figure: histograms are densities, the interval is marked, the strongest pair plotted") {
  const BootstrapResult b = made_up_draws();
  const plot::Figure f = bootstrap_figure({"a", "b", "c"}, {1.2, 2.0, 2.6}, {0.1, 0.5, 0.2}, {}, b);
  REQUIRE(f.plots.size() == 4);
  for (std::size_t j = 0; j < 3; ++j) {
    CAPTURE(j);
    const plot::Series& h = f.plots[j].series[0];
    CHECK(h.name == "50 bootstrap draws");
    double area = 0.0;  // the staircase's area: pairs of points (left, right) at one height
    for (std::size_t i = 1; i + 1 < h.x.size(); i += 2) area += (h.x[i + 1] - h.x[i]) * h.y[i];
    CHECK(area == doctest::Approx(1.0).epsilon(1e-9));
    const plot::Series& ends = f.plots[j].series.back();
    CHECK(ends.x == std::vector<double>{b.lower[j], b.upper[j]});
  }
  const plot::Plot& pair = f.plots[3];
  CHECK(pair.x.label == "a");
  CHECK(pair.y.label == "c");
  CHECK(pair.title.find("r = -1.00") != std::string::npos);
  CHECK(pair.series[0].x.size() == 50);
  // One number: no pair; no draws: empty histograms, no interval.
  CHECK(bootstrap_figure({"a"}, {1.2}, {0.1}, {}, b).plots.size() == 1);
  const plot::Figure none = bootstrap_figure({"a", "b"}, {1.2, 2.0}, {0.1, 0.5}, {}, BootstrapResult{});
  CHECK(none.plots.size() == 2);
  CHECK(none.plots[0].series[0].x.empty());
}
