// The ImGui plot widget's zoom and selection gestures, driven headlessly: box zoom (right drag), axis drag
// and per-axis fit from an axis's margin, the title row's double-click (maximise), clicks that take the
// hovered point, and the colour bar beside a heatmap.
#include <doctest/doctest.h>

#include <cmath>

#include "imgui_harness.hpp"
#include "plots/heatmap.hpp"

using namespace sg::plot;
using sg::plot::testing::area_center;
using sg::plot::testing::FrameResult;
using sg::plot::testing::ImGuiHarness;

namespace {

Plot sine_plot() {
  Plot plot;
  plot.title = "loss";
  plot.x.label = "k";
  Series s;
  s.name = "sine";
  for (int i = 0; i <= 100; ++i) {
    s.x.push_back(i * 0.1);
    s.y.push_back(std::sin(i * 0.1));
  }
  plot.series.push_back(s);
  return plot;
}

// Press the right button at `from`, move to `to` while holding it, release there.
FrameResult right_drag(ImGuiHarness& ui, const Plot& plot, PlotViewState& state, ImVec2 from, ImVec2 to) {
  ui.frame(plot, state, {from});
  ui.frame(plot, state, {from, false, true});
  ui.frame(plot, state, {ImVec2((from.x + to.x) / 2, (from.y + to.y) / 2), false, true});
  ui.frame(plot, state, {to, false, true});
  return ui.frame(plot, state, {to, false, false});
}

FrameResult left_drag(ImGuiHarness& ui, const Plot& plot, PlotViewState& state, ImVec2 from, ImVec2 to) {
  ui.frame(plot, state, {from});
  ui.frame(plot, state, {from, true});
  ui.frame(plot, state, {ImVec2((from.x + to.x) / 2, (from.y + to.y) / 2), true});
  ui.frame(plot, state, {to, true});
  return ui.frame(plot, state, {to, false});
}

// Returns the frame of the second press, where ImGui reports the double-click.
FrameResult double_click(ImGuiHarness& ui, const Plot& plot, PlotViewState& state, ImVec2 at) {
  ui.frame(plot, state, {at});
  ui.click(plot, state, at);
  const FrameResult second = ui.frame(plot, state, {at, true});  // within the double-click time
  ui.frame(plot, state, {at, false});
  return second;
}

}  // namespace

TEST_CASE("a right drag zooms into the box it draws (1e-6 relative), a thin box zooms one axis") {
  ImGuiHarness ui;
  const Plot plot = sine_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  const auto& l = first.layout;
  const ImVec2 a(l.area_min.x + 100, l.area_min.y + 60), b(l.area_min.x + 300, l.area_min.y + 200);
  const double x0 = l.xmap.to_data(a.x), x1 = l.xmap.to_data(b.x);
  const double y_top = l.ymap.to_data(a.y), y_bottom = l.ymap.to_data(b.y);
  const auto zoomed = right_drag(ui, plot, state, a, b);
  CHECK_FALSE(state.autofit);
  CHECK_FALSE(zoomed.any_popup_open);  // a drag is not a menu click
  CHECK_FALSE(state.box_active);
  CHECK(state.x_min == doctest::Approx(x0).epsilon(1e-6));
  CHECK(state.x_max == doctest::Approx(x1).epsilon(1e-6));
  CHECK(state.y_min == doctest::Approx(y_bottom).epsilon(1e-6));
  CHECK(state.y_max == doctest::Approx(y_top).epsilon(1e-6));

  // A box 2 px tall: only x zooms.
  const auto again = ui.frame(plot, state);
  const double y_lo = state.y_min, y_hi = state.y_max;
  const ImVec2 c(again.layout.area_min.x + 50, again.layout.area_min.y + 100);
  const ImVec2 d(c.x + 150, c.y + 2);
  const double cx0 = again.layout.xmap.to_data(c.x), cx1 = again.layout.xmap.to_data(d.x);
  right_drag(ui, plot, state, c, d);
  CHECK(state.x_min == doctest::Approx(cx0).epsilon(1e-6));
  CHECK(state.x_max == doctest::Approx(cx1).epsilon(1e-6));
  CHECK(state.y_min == y_lo);
  CHECK(state.y_max == y_hi);
}

TEST_CASE("a right click without drag opens the menu and leaves the view") {
  ImGuiHarness ui;
  const Plot plot = sine_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  const ImVec2 at = area_center(first.layout);
  right_drag(ui, plot, state, at, ImVec2(at.x + 1, at.y + 1));
  const auto after = ui.frame(plot, state, {at});
  CHECK(after.any_popup_open);
  CHECK(state.autofit);
}

TEST_CASE("a right drag that began on another plot opens no menu here") {
  ImGuiHarness ui;
  const Plot plot = sine_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  // Pressed outside this widget (another plot), released over its tick labels.
  const ImVec2 outside(first.layout.widget_max.x + 50, first.layout.area_min.y + 20);
  const ImVec2 margin(first.layout.area_min.x - 10, area_center(first.layout).y);
  ui.frame(plot, state, {outside});
  ui.frame(plot, state, {outside, false, true});
  ui.frame(plot, state, {margin, false, true});
  ui.frame(plot, state, {margin, false, false});
  const auto after = ui.frame(plot, state, {margin});
  CHECK_FALSE(after.any_popup_open);
  // Pressed and released on the margin: the menu.
  ui.frame(plot, state, {margin, false, true});
  ui.frame(plot, state, {margin, false, false});
  CHECK(ui.frame(plot, state, {margin}).any_popup_open);
}

TEST_CASE("a drag from an axis's tick labels pans that axis only, a double-click there fits it only") {
  ImGuiHarness ui;
  const Plot plot = sine_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  const auto& l = first.layout;
  const double y_lo = state.y_min, y_hi = state.y_max, x_lo = state.x_min, x_hi = state.x_max;
  // Below the data area, on the x tick labels: a diagonal drag moves x only.
  const ImVec2 x_margin(area_center(l).x, l.area_max.y + 6);
  REQUIRE(imgui_detail::zone_of(x_margin, l) == imgui_detail::PlotZone::x_axis);
  left_drag(ui, plot, state, x_margin, ImVec2(x_margin.x + 60, x_margin.y + 30));
  CHECK_FALSE(state.autofit);
  CHECK(state.x_min < x_lo);  // dragged right: the view moves left
  CHECK(state.y_min == y_lo);
  CHECK(state.y_max == y_hi);
  // Left of the data area, on the y tick labels: y moves, x stays where the last drag left it.
  const double x_now = state.x_min;
  const ImVec2 y_margin(l.area_min.x - 10, area_center(l).y);
  REQUIRE(imgui_detail::zone_of(y_margin, l) == imgui_detail::PlotZone::y_axis);
  left_drag(ui, plot, state, y_margin, ImVec2(y_margin.x + 40, y_margin.y + 50));
  CHECK(state.x_min == x_now);
  CHECK(state.y_max > y_hi);  // dragged down: the view moves up
  // Double-click on the x margin fits x back (relative 1e-9) and keeps the panned y.
  const double y_panned = state.y_max;
  double_click(ui, plot, state, x_margin);
  CHECK(state.x_min == doctest::Approx(x_lo).epsilon(1e-9));
  CHECK(state.x_max == doctest::Approx(x_hi).epsilon(1e-9));
  CHECK(state.y_max == y_panned);
  double_click(ui, plot, state, y_margin);
  CHECK(state.y_min == doctest::Approx(y_lo).epsilon(1e-9));
  CHECK(state.y_max == doctest::Approx(y_hi).epsilon(1e-9));
}

TEST_CASE("a double-click on the title row asks to maximise, on a legend entry it does not") {
  ImGuiHarness ui;
  const Plot plot = sine_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  const ImVec2 title(first.layout.title_pos.x + 5, first.layout.title_pos.y + 4);
  REQUIRE(imgui_detail::zone_of(title, first.layout) == imgui_detail::PlotZone::top);
  CHECK(double_click(ui, plot, state, title).interaction.toggle_maximise);
  REQUIRE(first.legend.size() == 1);
  const auto& e = first.legend[0];
  const ImVec2 entry((e.min.x + e.max.x) / 2, (e.min.y + e.max.y) / 2);
  CHECK_FALSE(double_click(ui, plot, state, entry).interaction.toggle_maximise);
  CHECK(state.hidden_series.empty());  // toggled twice
  CHECK(state.autofit);
}

TEST_CASE("a click near a point selects that point, as the hover readout names it") {
  ImGuiHarness ui;
  const Plot plot = sine_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  // 5 px right of and 3 px above the point x = 3.
  const ImVec2 near(static_cast<float>(first.layout.xmap.to_pixel(3.0)) + 5.0f,
                    static_cast<float>(first.layout.ymap.to_pixel(std::sin(3.0))) - 3.0f);
  ui.frame(plot, state, {near});
  ui.frame(plot, state, {near});
  REQUIRE(state.has_hover);
  CHECK(state.hover_text.rfind("sine: x=3, y=", 0) == 0);
  const auto clicked = ui.click(plot, state, near);
  REQUIRE(clicked.interaction.clicked);
  CHECK(clicked.interaction.snapped);
  CHECK(clicked.interaction.clicked_x == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(clicked.interaction.clicked_y == doctest::Approx(std::sin(3.0)).epsilon(1e-12));
  // Far from every point the click keeps the mouse's coordinates.
  const ImVec2 empty(static_cast<float>(first.layout.xmap.to_pixel(3.0)), first.layout.area_min.y + 3);
  ui.frame(plot, state, {empty});
  const auto plain = ui.click(plot, state, empty);
  REQUIRE(plain.interaction.clicked);
  CHECK_FALSE(plain.interaction.snapped);
  // ImGui floors the mouse position to whole pixels.
  CHECK(plain.interaction.clicked_x ==
        doctest::Approx(first.layout.xmap.to_data(std::floor(empty.x))).epsilon(1e-9));
}

TEST_CASE("a heatmap gets a colour bar right of its data area, ticked within its colour range") {
  ImGuiHarness ui;
  Plot plot;
  plot.title = "loss";
  plot.legend = false;
  Heatmap& h = plot.heatmap;
  h.nx = 4;
  h.ny = 3;
  h.x_from = 0;
  h.x_to = 3;
  h.y_from = 0;
  h.y_to = 2;
  h.lo = -2.0;
  h.hi = 6.0;
  for (int i = 0; i < 12; ++i) h.values.push_back(i * 0.5 - 1.0);
  PlotViewState state;
  const auto with_bar = ui.frame(plot, state);
  const ColorBar& bar = with_bar.layout.bar;
  REQUIRE(bar.colors.size() == 64);
  CHECK(bar.range.lo == -2.0);
  CHECK(bar.range.hi == 6.0);
  REQUIRE(bar.ticks.size() >= 3);
  for (const Tick& t : bar.ticks) {
    CHECK(t.value >= -2.0);
    CHECK(t.value <= 6.0);
  }
  // The bottom colour is the range's low end, the top its high end.
  const Color low = heat_color(h, bar.range, -2.0), high = heat_color(h, bar.range, 6.0);
  CHECK(std::abs(bar.colors.front().r - low.r) + std::abs(bar.colors.front().b - low.b) < 12);
  CHECK(std::abs(bar.colors.back().r - high.r) + std::abs(bar.colors.back().b - high.b) < 12);
  // The bar and its labels take room from the data area, inside the widget.
  Plot no_map = plot;
  no_map.heatmap = Heatmap{};
  PlotViewState plain_state;
  const auto without = ui.frame(no_map, plain_state);
  CHECK(without.layout.bar.colors.empty());
  const float room = without.layout.area_max.x - with_bar.layout.area_max.x;
  CHECK(room > static_cast<float>(kColorBarGap + kColorBarWidth));
  CHECK(with_bar.layout.area_max.x + room <= with_bar.layout.widget_max.x);
}
