// Data bounds, padding, NaN-gap runs, nearest-point lookup and palette colours.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "plots/axis_math.hpp"

using namespace sg::plot;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Series make_series(std::string name, std::vector<double> x, std::vector<double> y) {
  Series s;
  s.name = std::move(name);
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

}  // namespace

TEST_CASE("bounds ignore NaN, inf and (on log) non-positive values") {
  Plot plot;
  plot.series.push_back(make_series("a", {1, 2, kNaN, 4}, {-5.0, 0.0, 100.0, 2.0}));
  plot.series.push_back(make_series("b", {kInf, -1.0}, {0.5, kNaN}));
  const auto shown = shown_series(plot);
  const auto x = data_bounds(plot, AxisId::x, Scale::linear, shown);
  REQUIRE(x);
  CHECK(x->lo == -1.0);
  CHECK(x->hi == 4.0);
  const auto y_lin = data_bounds(plot, AxisId::y, Scale::linear, shown);
  REQUIRE(y_lin);
  CHECK(y_lin->lo == -5.0);
  const auto y_log = data_bounds(plot, AxisId::y, Scale::log, shown);
  REQUIRE(y_log);
  CHECK(y_log->lo == 0.5);
  CHECK(y_log->hi == 100.0);
  // Hidden series do not count.
  const auto only_a = data_bounds(plot, AxisId::x, Scale::linear, shown_series(plot, {"b"}));
  REQUIRE(only_a);
  CHECK(only_a->lo == 1.0);
}

TEST_CASE("padding is 5% per side in transformed space, degenerate ranges widen") {
  const Range lin = padded_range(Range{0.0, 10.0}, Scale::linear);
  CHECK(lin.lo == doctest::Approx(-0.5).epsilon(1e-12));
  CHECK(lin.hi == doctest::Approx(10.5).epsilon(1e-12));
  const Range log = padded_range(Range{1.0, 1e4}, Scale::log);
  CHECK(std::log10(log.lo) == doctest::Approx(-0.2).epsilon(1e-12));
  CHECK(std::log10(log.hi) == doctest::Approx(4.2).epsilon(1e-12));
  const Range single = padded_range(Range{3.0, 3.0}, Scale::linear);
  CHECK(single.lo < 3.0);
  CHECK(single.hi > 3.0);
  CHECK((single.lo + single.hi) / 2 == doctest::Approx(3.0).epsilon(1e-12));
  const Range zero = padded_range(Range{0.0, 0.0}, Scale::symlog);
  CHECK(zero.lo == doctest::Approx(-zero.hi).epsilon(1e-12));
  CHECK(zero.hi > 0.0);
  const Range none = padded_range(std::nullopt, Scale::log);
  CHECK(none.lo > 0.0);
  CHECK(none.hi > none.lo);
}

TEST_CASE("auto_view honours fixed axis limits") {
  Plot plot;
  plot.series.push_back(make_series("a", {1, 2, 3}, {10, 20, 30}));
  plot.x.min = 0.0;
  plot.x.max = 5.0;
  plot.y.min = 0.0;
  const Range x = auto_view(plot, AxisId::x);
  CHECK(x.lo == 0.0);
  CHECK(x.hi == 5.0);
  const Range y = auto_view(plot, AxisId::y);
  CHECK(y.lo == 0.0);
  CHECK(y.hi == doctest::Approx(31.0).epsilon(1e-12));
  plot.y.scale = Scale::log;  // y.min = 0 is not drawable on log: autofit that end
  CHECK(auto_view(plot, AxisId::y).lo > 0.0);
}

TEST_CASE("series split into runs at NaN gaps") {
  const Series s = make_series("s", {0, 1, 2, 3, 4, 5, 6, 7}, {1, 2, kNaN, 4, 5, 6, kNaN, 8});
  const auto runs = drawable_runs(s, Scale::linear, Scale::linear);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].begin == 0);
  CHECK(runs[0].end == 2);
  CHECK(runs[1].begin == 3);
  CHECK(runs[1].end == 6);
  CHECK(runs[2].begin == 7);
  CHECK(runs[2].end == 8);
  // On a log y axis, y = -1 is a gap too.
  const Series t = make_series("t", {1, 2, 3, 4}, {1, -1, 2, 3});
  const auto log_runs = drawable_runs(t, Scale::linear, Scale::log);
  REQUIRE(log_runs.size() == 2);
  CHECK(log_runs[1].begin == 2);
  CHECK(drawable_runs(make_series("n", {kNaN}, {kNaN}), Scale::linear, Scale::linear).empty());
}

TEST_CASE("nearest point is found in screen space and formatted") {
  Plot plot;
  plot.series.push_back(make_series("alpha", {0, 1, 2}, {0, 0, 0}));
  plot.series.push_back(make_series("beta", {0, 1, 2}, {10, 10, 10}));
  const AxisMap xmap = make_axis_map(Scale::linear, 1.0, {0, 2}, 0, 200);
  const AxisMap ymap = make_axis_map(Scale::linear, 1.0, {0, 10}, 100, 0);
  const auto hit = nearest_point(plot, shown_series(plot), xmap, ymap, 98.0, 5.0, 20.0);
  REQUIRE(hit);
  CHECK(hit->series == 1);
  CHECK(hit->index == 1);
  CHECK(hit->distance_px == doctest::Approx(std::hypot(2.0, 5.0)).epsilon(1e-12));
  CHECK(point_readout(plot, *hit) == "beta: x=1, y=10");
  CHECK_FALSE(nearest_point(plot, shown_series(plot), xmap, ymap, 50.0, 50.0, 20.0));
  const auto only_alpha = nearest_point(plot, shown_series(plot, {"beta"}), xmap, ymap, 98.0, 5.0, 1e9);
  REQUIRE(only_alpha);
  CHECK(only_alpha->series == 0);
}

TEST_CASE("auto colours follow the palette, explicit colours are kept") {
  Plot plot;
  plot.series.resize(3);
  plot.series[1].auto_color = false;
  plot.series[1].color = {1, 2, 3, 4};
  const auto colors = resolve_colors(plot);
  REQUIRE(colors.size() == 3);
  CHECK(colors[0].b == palette_color(0).b);
  CHECK(colors[1].r == 1);
  CHECK(colors[1].a == 4);
  CHECK(colors[2].r == palette_color(1).r);  // the explicit series does not use up a palette slot
  CHECK(palette_color(0).r != palette_color(1).r);
  CHECK(palette_color(8).g == palette_color(0).g);
}
