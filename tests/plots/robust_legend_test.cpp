// Robust autofit with off-scale markers, the minimum span of an axis, and grouped legend entries.
#include <doctest/doctest.h>

#include <cmath>

#include "plots/axis_math.hpp"
#include "plots/svg.hpp"

using namespace sg::plot;

namespace {

// 200 points of a gradient near 1 with one finite difference of 1e6 across a jump.
Plot spiky_plot(bool robust) {
  Plot plot;
  plot.y.robust = robust;
  Series s;
  s.name = "FD";
  for (int i = 0; i < 200; ++i) {
    s.x.push_back(i);
    s.y.push_back(1.0 + 0.01 * std::sin(i));
  }
  s.y[120] = 1e6;
  plot.series.push_back(s);
  return plot;
}

}  // namespace

TEST_CASE("a robust axis leaves a lone spike off scale and reports it, a plain one shows it") {
  const Range plain = auto_view(spiky_plot(false), AxisId::y);
  CHECK(plain.hi >= 1e6);
  const Plot plot = spiky_plot(true);
  const Range robust = auto_view(plot, AxisId::y);
  CHECK(robust.hi < 1.1);  // the band 0.99..1.01, padded
  CHECK(robust.lo > 0.9);
  const auto off = off_scale_points(plot, shown_series(plot), Scale::linear, Scale::linear,
                                    auto_view(plot, AxisId::x), robust);
  REQUIRE(off.size() == 1);
  CHECK(off[0].x == 120.0);
  CHECK(off[0].above);
  // The SVG marks it at the edge.
  CHECK(to_svg(Figure{"", 1, {plot}}, 400, 300).find("class=\"off-scale\"") != std::string::npos);
}

TEST_CASE("a robust axis keeps the full range when no outlier dominates") {
  Plot plot = spiky_plot(true);
  plot.series[0].y[120] = 1.5;  // within 20 band widths of the rest
  CHECK(auto_view(plot, AxisId::y).hi >= 1.5);
  CHECK(off_scale_points(plot, shown_series(plot), Scale::linear, Scale::linear, auto_view(plot, AxisId::x),
                         auto_view(plot, AxisId::y))
            .empty());
}

TEST_CASE(
    "a range narrower than 1e-9 of its magnitude widens like a single value (no ticks 1, 0.99999999995)") {
  const Range r = padded_range(Range{1.0 - 1e-11, 1.0 + 1e-11}, Scale::linear);
  CHECK(r.lo == doctest::Approx(0.89).epsilon(1e-6));
  CHECK(r.hi == doctest::Approx(1.11).epsilon(1e-6));
  const auto ticks = make_ticks(r, Scale::linear);
  REQUIRE(ticks.size() >= 2);
  CHECK(ticks[1].value - ticks[0].value >= 0.01);
}

TEST_CASE("series of one group share a legend entry and a toggle") {
  Plot plot;
  for (const char* name : {"AD", "FD", "pinned AD", "pinned FD"}) {
    Series s;
    s.name = name;
    s.x = {0, 1};
    s.y = {0, 1};
    if (std::string(name).rfind("pinned", 0) == 0) s.group = "kappa 300, CFD off";
    plot.series.push_back(s);
  }
  const auto items = legend_items(plot);
  REQUIRE(items.size() == 3);
  CHECK(items[2].label == "kappa 300, CFD off");
  CHECK(items[2].series == 2);
  const auto shown = shown_series(plot, {items[2].key});
  CHECK(shown == std::vector<bool>{true, true, false, false});
}
