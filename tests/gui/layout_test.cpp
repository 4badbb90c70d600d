#include <doctest/doctest.h>

#include "gui/app/layout.hpp"

using namespace sg::gui;

namespace {
float area(const PanelRect& r) {
  return r.size.x * r.size.y;
}
}  // namespace

TEST_CASE("default layout tiles the display: controls left, viewport over plots, status at the bottom") {
  const ImVec2 display(1280.0f, 800.0f);
  const PanelLayout l = default_layout(display, 1.0f, 30.0f);
  CHECK(l.controls.pos.x == 0.0f);
  CHECK(l.viewport.pos.x == doctest::Approx(l.controls.size.x));
  CHECK(l.plots.pos.y == doctest::Approx(l.viewport.pos.y + l.viewport.size.y));
  CHECK(l.plots.size.y > l.viewport.size.y);  // two rows of plots need the larger share
  CHECK(l.status.pos.y == doctest::Approx(770.0f));
  CHECK(l.status.size.x == doctest::Approx(1280.0f));
  // No gaps or overlaps: the four areas add up to the display (tolerance 1 px^2 per panel).
  CHECK(area(l.controls) + area(l.viewport) + area(l.plots) + area(l.status) ==
        doctest::Approx(display.x * display.y).epsilon(1e-5));
}

TEST_CASE("a short window gives the plots 480 px while the viewport keeps 30%, a tall one keeps 58/42") {
  const PanelLayout projector = default_layout(ImVec2(1280, 720), 1.0f, 25.0f);
  CHECK(projector.plots.size.y == doctest::Approx(480.0f));
  CHECK(projector.viewport.size.y == doctest::Approx(695.0f - 480.0f));
  const PanelLayout tiny = default_layout(ImVec2(1024, 500), 1.0f, 25.0f);
  CHECK(tiny.viewport.size.y == doctest::Approx(475.0f * 0.30f));
  const PanelLayout full_hd = default_layout(ImVec2(1920, 1080), 1.0f, 25.0f);
  CHECK(full_hd.viewport.size.y == doctest::Approx(1055.0f * 0.42f));
}

TEST_CASE("controls panel grows with UI scale but never takes over a small window") {
  const PanelLayout normal = default_layout(ImVec2(1280, 800), 1.0f, 30.0f);
  const PanelLayout big = default_layout(ImVec2(1280, 800), 2.0f, 30.0f);
  CHECK(big.controls.size.x > normal.controls.size.x);
  const PanelLayout tiny = default_layout(ImVec2(400, 300), 3.0f, 30.0f);
  CHECK(tiny.controls.size.x <= 0.4f * 400.0f + 1e-3f);
}
