// The ImGui plot widget, driven headlessly: draw data, legend toggles, zoom, pan, clicks, hover, menu.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <imgui_internal.h>

#include "imgui_harness.hpp"

using namespace sg::plot;
using sg::plot::testing::area_center;
using sg::plot::testing::ImGuiHarness;

namespace {

Plot two_series_plot() {
  Plot plot;
  plot.title = std::string("loss");
  plot.x.label = std::string("k");
  for (int s = 0; s < 2; ++s) {
    Series series;
    series.name = s == 0 ? std::string("first") : std::string("second");
    for (int i = 0; i <= 100; ++i) {
      series.x.push_back(i * 0.1);
      series.y.push_back(i == 50 ? std::numeric_limits<double>::quiet_NaN() : (s + 1) * std::sin(i * 0.1));
    }
    plot.series.push_back(series);
  }
  plot.vertical_markers = {3.0};
  return plot;
}

}  // namespace

TEST_CASE("the widget draws, and hiding a series removes its vertices") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();
  PlotViewState state;
  const auto shown = ui.frame(plot, state);
  // Two 100-point anti-aliased polylines at least: 4 vertices per segment on ImGui's textured line path.
  CHECK(shown.vertex_count > 2 * 99 * 4);
  CHECK(state.autofit);
  CHECK(state.x_min < 0.0);  // autofit pads the data range [0, 10]
  CHECK(state.x_max > 10.0);
  PlotViewState hidden_state;
  hidden_state.hidden_series = {"second"};
  const auto hidden = ui.frame(plot, hidden_state);
  CHECK(hidden.vertex_count > 0);
  CHECK(hidden.vertex_count < shown.vertex_count);
  // Autofit ignores the hidden series: "first" only reaches |y| = 1.
  CHECK(hidden_state.y_max < 1.2);
  CHECK(state.y_max > 1.9);
}

TEST_CASE("clicking a legend entry toggles the series") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  REQUIRE(first.legend.size() == 2);
  const auto& entry = first.legend[1];
  const ImVec2 target((entry.min.x + entry.max.x) / 2, (entry.min.y + entry.max.y) / 2);
  const auto toggled = ui.click(plot, state, target);
  REQUIRE(state.hidden_series.size() == 1);
  CHECK(state.hidden_series[0] == "second");
  CHECK_FALSE(toggled.interaction.clicked);  // a legend click is not a plot click
  ui.click(plot, state, target);
  CHECK(state.hidden_series.empty());
}

TEST_CASE("the legend sits between the title and the data area, never over the data") {
  ImGuiHarness ui;
  Plot plot = two_series_plot();
  plot.title = "Gradient";
  for (int k = 0; k < 6; ++k) {  // many long entries wrap into rows
    Series s = plot.series[0];
    s.name = "pinned sweep number " + std::to_string(k) + " with a long label";
    plot.series.push_back(s);
  }
  PlotViewState state;
  const auto frame = ui.frame(plot, state);
  REQUIRE(frame.legend.size() == plot.series.size());
  bool wrapped = false;
  for (const auto& e : frame.legend) {
    CHECK(e.max.y <= frame.layout.area_min.y);
    CHECK(e.min.x >= frame.layout.widget_min.x);
    CHECK(e.max.x <= frame.layout.widget_max.x);
    wrapped = wrapped || e.min.y > frame.legend.front().min.y;
  }
  CHECK(wrapped);
  // The data area keeps at least half of what the legend could take.
  CHECK(frame.layout.area_max.y - frame.layout.area_min.y > 40.0f);
}

TEST_CASE("a click without drag reports x in data coordinates (tolerance 1e-9)") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  const ImVec2 target(first.layout.area_min.x + 100.0f, first.layout.area_max.y - 20.0f);
  const auto released = ui.click(plot, state, target);
  REQUIRE(released.interaction.clicked);
  CHECK(released.interaction.clicked_x == doctest::Approx(first.layout.xmap.to_data(target.x)).epsilon(1e-9));
  CHECK(state.autofit);  // a click does not move the view
}

TEST_CASE("mouse wheel zooms about the cursor (relative tolerance 1e-6)") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();
  PlotViewState state;
  const auto before = ui.frame(plot, state);
  const ImVec2 cursor(before.layout.area_min.x + 150.0f, before.layout.area_min.y + 120.0f);
  const double x_under = before.layout.xmap.to_data(cursor.x);
  const double y_under = before.layout.ymap.to_data(cursor.y);
  const double width_before = state.x_max - state.x_min;
  const auto after = ui.frame(plot, state, {cursor, false, false, 1.0f});
  CHECK_FALSE(state.autofit);
  CHECK(state.x_max - state.x_min < width_before);
  CHECK(after.layout.xmap.to_data(cursor.x) == doctest::Approx(x_under).epsilon(1e-6));
  CHECK(after.layout.ymap.to_data(cursor.y) == doctest::Approx(y_under).epsilon(1e-6));
}

TEST_CASE("dragging pans the view and is not a click, double-click autofits") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  const ImVec2 start = area_center(first.layout);
  const double x_at_start = first.layout.xmap.to_data(start.x);
  const ImVec2 end(start.x + 80.0f, start.y);
  ui.frame(plot, state, {start, true});
  ui.frame(plot, state, {ImVec2(start.x + 40.0f, start.y), true});
  ui.frame(plot, state, {end, true});
  const auto released = ui.frame(plot, state, {end, false});
  CHECK_FALSE(released.interaction.clicked);
  CHECK_FALSE(state.autofit);
  // The data point grabbed at the start now sits under the cursor (1e-6 relative).
  CHECK(released.layout.xmap.to_data(end.x) == doctest::Approx(x_at_start).epsilon(1e-6));

  ui.click(plot, state, start);
  ui.frame(plot, state, {start, true});  // second press within the double-click time
  ui.frame(plot, state, {start, false});
  CHECK(state.autofit);
}

TEST_CASE("hovering near a point gives a readout of the nearest point") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  // The point (x = 2, y = 2 sin 2) of "second".
  const ImVec2 near(static_cast<float>(first.layout.xmap.to_pixel(2.0)) + 2.0f,
                    static_cast<float>(first.layout.ymap.to_pixel(2.0 * std::sin(2.0))) - 1.0f);
  ui.frame(plot, state, {near});
  ui.frame(plot, state, {near});  // the window is hovered from the frame after the mouse arrives
  REQUIRE(state.has_hover);
  CHECK(state.hover_text.rfind("second: x=2, y=", 0) == 0);
  ui.frame(plot, state, {ImVec2(first.layout.widget_max.x + 50.0f, near.y)});
  CHECK_FALSE(state.has_hover);
}

TEST_CASE("a log override falls back to autofit on positive data only") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();  // y spans negative values
  PlotViewState state;
  ui.frame(plot, state);
  state.autofit = false;
  state.y_scale = Scale::log;
  const auto result = ui.frame(plot, state);
  CHECK(result.vertex_count > 0);
  CHECK(state.autofit);  // the old view had y_min < 0, impossible on log
  CHECK(state.y_min > 0.0);
  CHECK(effective_y_scale(plot, state) == Scale::log);
  CHECK(effective_x_scale(plot, state) == Scale::linear);
}

TEST_CASE("right-click opens the context menu and its last item requests a JSON export") {
  ImGuiHarness ui;
  const Plot plot = two_series_plot();
  PlotViewState state;
  const auto first = ui.frame(plot, state);
  const ImVec2 at = area_center(first.layout);
  ui.frame(plot, state, {at});
  ui.frame(plot, state, {at, false, true});
  ui.frame(plot, state, {at});  // a popup measures its contents on its first frame
  const auto opened = ui.frame(plot, state, {at});
  REQUIRE(opened.any_popup_open);
  // The popup opens at the mouse; "Export JSON" is its last row, one half line above the bottom padding.
  ImGuiContext& g = *ImGui::GetCurrentContext();
  REQUIRE(g.OpenPopupStack.Size == 1);
  const ImGuiWindow* popup = g.OpenPopupStack[0].Window;
  REQUIRE(popup != nullptr);
  const ImVec2 item(
      popup->Pos.x + popup->Size.x / 2,
      popup->Pos.y + popup->Size.y - ImGui::GetStyle().WindowPadding.y - ImGui::GetFontSize() / 2);
  ui.frame(plot, state, {item});
  ui.frame(plot, state, {item, true});
  const auto chosen = ui.frame(plot, state, {item, false});
  CHECK(chosen.interaction.export_json);
  CHECK_FALSE(chosen.interaction.export_png);
  CHECK_FALSE(chosen.any_popup_open);
}
