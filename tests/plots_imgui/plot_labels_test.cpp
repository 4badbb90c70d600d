// The ImGui plot's top text: the y label and the title never overlap, however narrow the plot.
#include <doctest/doctest.h>

#include <string>

#include "imgui_harness.hpp"

using namespace sg::plot;
using sg::plot::testing::ImGuiHarness;

namespace {

struct TextBox {
  ImVec2 min, max;
};

TextBox box_of(const std::string& text, ImVec2 pos) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  return {pos, ImVec2(pos.x + size.x, pos.y + size.y)};
}

bool overlap(const TextBox& a, const TextBox& b) {
  return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

Plot gradient_plot() {
  Plot plot;
  plot.title = "AD vs FD gradient";
  plot.y.label = "dloss/dmodel.particles.0.pos.2";
  plot.x.label = "model.particles.0.pos.2";
  Series s;
  s.x = {0.0, 1.0};
  s.y = {0.0, 1.0};
  plot.series.push_back(s);
  return plot;
}

}  // namespace

TEST_CASE("plot labels: y label and title never overlap, and stay inside the widget (0 px tolerance)") {
  ImGuiHarness ui;
  ImGui::NewFrame();
  const Plot plot = gradient_plot();
  PlotViewState state;
  int truncated = 0, own_row = 0;
  for (float width : {1200.0f, 600.0f, 420.0f, 300.0f, 220.0f, 150.0f}) {
    for (float height : {120.0f, 400.0f}) {
      CAPTURE(width);
      CAPTURE(height);
      const ImVec2 min(10.0f, 20.0f), max(10.0f + width, 20.0f + height);
      const imgui_detail::PlotLayout layout = imgui_detail::make_layout(plot, state, min, max);
      const TextBox title = box_of(layout.title, layout.title_pos);
      const TextBox label = box_of(layout.y_label, layout.y_label_pos);
      CHECK_FALSE(overlap(title, label));
      CHECK(title.min.x >= min.x);
      CHECK(title.max.x <= max.x);
      CHECK(label.max.x <= max.x);
      CHECK(label.max.y <= layout.area_min.y);  // above the data area
      CHECK_FALSE(layout.title.empty());
      truncated += layout.y_label != plot.y.label ? 1 : 0;
      own_row += layout.y_label_pos.y > layout.title_pos.y ? 1 : 0;
      if (layout.y_label != plot.y.label && !layout.y_label.empty()) {
        CHECK(layout.y_label.rfind("...", 0) == 0);  // shortened from the front: the tail stays
        CHECK(plot.y.label.find(layout.y_label.substr(3)) != std::string::npos);
      }
    }
  }
  CHECK(truncated > 0);  // the narrow, short plots had to shorten the label
  CHECK(own_row > 0);    // the narrow, tall ones moved it under the title
  ImGui::Render();
}

TEST_CASE("plot labels: a wide plot keeps the full label on the title row") {
  ImGuiHarness ui;
  ImGui::NewFrame();
  const Plot plot = gradient_plot();
  PlotViewState state;
  const imgui_detail::PlotLayout layout =
      imgui_detail::make_layout(plot, state, ImVec2(0, 0), ImVec2(1200, 400));
  CHECK(layout.y_label == plot.y.label);
  CHECK(layout.title == plot.title);
  CHECK(layout.y_label_pos.y == doctest::Approx(layout.title_pos.y));
  ImGui::Render();
}

TEST_CASE("a shortened legend label keeps both ends, so a pin's differing value stays (fits the width)") {
  ImGuiHarness ui;
  PlotViewState state;
  ui.frame(Plot{}, state);  // a frame sets the font that CalcTextSize measures with
  const std::string label = "pin 1: kappa (hard contact) 300, CFD off";
  const float width = ImGui::CalcTextSize(label.c_str()).x * 0.6f;
  const std::string s = sg::plot::imgui_detail::fit_middle(label, width);
  CHECK(ImGui::CalcTextSize(s.c_str()).x <= width);
  CHECK(s.rfind("pin 1: ", 0) == 0);
  CHECK(s.size() > 12);
  CHECK(s.substr(s.size() - 3) == "off");
  CHECK(s.find("...") != std::string::npos);
  CHECK(sg::plot::imgui_detail::fit_middle(label, 1000.0f) == label);
}
