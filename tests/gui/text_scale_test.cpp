// Text at every UI scale (Ctrl+- and Ctrl+=): each glyph is drawn from a font atlas rasterized at that scale,
// not a 13 px atlas stretched, so thin strokes such as the minus sign stay on screen (at 0.8 a stretched
// atlas drew "-1" as "1" and "1e-06" as "1e 06").
#include <doctest/doctest.h>
#include <imgui.h>

#include <algorithm>
#include <vector>

#include "gui/app/app_shell.hpp"
#include "headless_test_util.hpp"

using namespace sg::gui;
using namespace sg::gui::test;

namespace {

struct Drawn {
  ImVec2 min, max;
  bool visible;
};

// The brightest channel minimum (white text on the dark panel) inside a rectangle of the top-first image.
int brightest(const std::vector<std::uint8_t>& rgba, int width, int height, const Drawn& r) {
  int best = 0;
  for (int y = std::max(0, static_cast<int>(r.min.y)); y < std::min(height, static_cast<int>(r.max.y) + 1);
       ++y)
    for (int x = std::max(0, static_cast<int>(r.min.x)); x < std::min(width, static_cast<int>(r.max.x) + 1);
         ++x) {
      const std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
      best = std::max(best, static_cast<int>(std::min({p[0], p[1], p[2]})));
    }
  return best;
}

}  // namespace

TEST_CASE("text at UI scales 0.5 to 1.5: every minus sign leaves bright pixels on screen") {
  for (const float scale : {0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 1.0f, 1.2f, 1.5f}) {
    CAPTURE(scale);
    std::vector<Drawn> minus;
    Workbench workbench;
    workbench.draw_controls = [&] {
      minus.clear();
      for (int i = 0; i < 16; ++i) {  // lines at fractional heights: the glyph at many sub-pixel offsets
        ImGui::TextUnformatted("-");
        minus.push_back({ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::IsItemVisible()});
      }
    };
    AppSettings settings;
    settings.ui_scale = scale;
    AppShell shell(workbench, settings);
    auto runner = make_runner(shell, 640, 900);
    run_frames(*runner, 2);
    const std::vector<std::uint8_t> rgba = runner->read_rgba();
    int drawn = 0, missing = 0;
    for (const Drawn& r : minus) {
      if (!r.visible) continue;
      ++drawn;
      // Text is white (255); the panel behind it about 15-40 in every channel.
      if (brightest(rgba, runner->width(), runner->height(), r) < 100) ++missing;
    }
    CHECK(drawn >= 10);
    CHECK(missing == 0);
  }
}
