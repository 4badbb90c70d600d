#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stb_image.h>
#include "tests/test_paths.hpp"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <set>

#include "gui/app/demo_workbench.hpp"
#include "gui/app/headless_runner.hpp"
#include "gui/app/panel_names.hpp"
#include "headless_test_util.hpp"

using namespace sg::gui;
using namespace sg::gui::test;
namespace fs = std::filesystem;

namespace {

double process_cpu_ms() {
  return 1e3 * sg::gui::test::process_cpu_seconds();
}

}  // namespace

TEST_CASE("every panel is drawn in a headless frame") {
  AppShell shell(make_demo_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  MESSAGE("GL: " << runner->describe());
  run_frames(*runner, 3);
  CHECK(drawn_this_frame(k_controls_window));
  CHECK(drawn_this_frame(k_viewport_window));
  CHECK(drawn_this_frame(k_plots_window));
  CHECK(drawn_this_frame(k_status_window));
  CHECK_FALSE(drawn_this_frame(k_help_window));
  const ImDrawData* draw_data = ImGui::GetDrawData();
  REQUIRE(draw_data != nullptr);
  CHECK(draw_data->CmdListsCount >= 4);
  CHECK(draw_data->TotalVtxCount > 100);
  CHECK(shell.last_scene().prims.size() == 6);  // plane + the five demo shapes
}

TEST_CASE("F1 toggles the shortcut overlay, but not while a text field has focus") {
  AppShell shell(make_demo_workbench(), AppSettings{});
  auto runner = make_runner(shell, 800, 600);
  run_frames(*runner, 2);
  runner->press_key(GLFW_KEY_F1);
  run_frames(*runner, 1);
  CHECK(shell.state().show_help);
  CHECK(drawn_this_frame(k_help_window));
  run_frames(*runner, 2);  // still open while the key is up
  CHECK(drawn_this_frame(k_help_window));
  runner->press_key(GLFW_KEY_F1);
  run_frames(*runner, 1);
  CHECK_FALSE(shell.state().show_help);
  run_frames(*runner, 1);
  CHECK_FALSE(drawn_this_frame(k_help_window));

  // Focus a text field, then press F1: the overlay must stay closed.
  bool focus = true;
  char text[32] = "";
  shell.workbench().draw_controls = [&] {
    if (focus) ImGui::SetKeyboardFocusHere();
    focus = false;
    ImGui::InputText("name", text, sizeof text);
  };
  run_frames(*runner, 3);
  REQUIRE(ImGui::GetIO().WantTextInput);
  runner->press_key(GLFW_KEY_F1);
  run_frames(*runner, 1);
  CHECK_FALSE(shell.state().show_help);
}

TEST_CASE("Esc closes the shortcut overlay and cancels nothing then, with it closed Esc cancels the run") {
  AppShell shell(make_demo_workbench(), AppSettings{});
  int cancels = 0;
  shell.workbench().on_action = [&](Action a) { cancels += a == Action::kCancelRun; };
  auto runner = make_runner(shell, 800, 600);
  run_frames(*runner, 2);
  runner->press_key(GLFW_KEY_F1);
  run_frames(*runner, 1);
  REQUIRE(shell.state().show_help);
  runner->press_key(GLFW_KEY_ESCAPE);
  run_frames(*runner, 1);
  CHECK_FALSE(shell.state().show_help);
  CHECK(cancels == 0);
  run_frames(*runner, 2);  // the key is up again
  runner->press_key(GLFW_KEY_ESCAPE);
  run_frames(*runner, 1);
  CHECK(cancels == 1);
}

TEST_CASE("dragging in the viewport orbits the camera") {
  AppShell shell(make_demo_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1000, 700);
  run_frames(*runner, 2);
  const ImGuiWindow* viewport = ImGui::FindWindowByName(k_viewport_window);
  REQUIRE(viewport != nullptr);
  const ImVec2 centre(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.5f);
  const float yaw_before = shell.settings().camera.yaw;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = centre;
  io.MouseDown[0] = true;
  run_frames(*runner, 1);
  for (int i = 1; i <= 5; ++i) {
    io.MousePos = ImVec2(centre.x + 12.0f * static_cast<float>(i), centre.y);
    run_frames(*runner, 1);
  }
  io.MouseDown[0] = false;
  run_frames(*runner, 1);
  CHECK(shell.settings().camera.yaw <
        yaw_before - 0.1f);  // 60 px right at 0.008 rad/px, minus drag threshold
}

TEST_CASE("the 3-D view is rendered again only when its scene, camera or size changes") {
  AppShell shell(make_demo_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1000, 700);
  run_frames(*runner, 3);
  const long settled = shell.viewport().renders();
  CHECK(settled >= 1);
  run_frames(*runner, 5);  // nothing moved: the last image is shown again
  CHECK(shell.viewport().renders() == settled);
  shell.settings().camera.yaw += 0.1f;
  run_frames(*runner, 1);
  CHECK(shell.viewport().renders() == settled + 1);
  run_frames(*runner, 3);
  CHECK(shell.viewport().renders() == settled + 1);
}

TEST_CASE("screenshot PNG is written, non-empty, and follows the demo content") {
  const fs::path dir = fs::path(sg::test::binary_dir()) / "test_gui_tmp";
  fs::create_directories(dir);
  const fs::path first = dir / "shell_variant0.png", second = dir / "shell_variant1.png";
  std::string error;
  AppShell warm(make_demo_workbench(DemoOptions{0, true}), AppSettings{});
  REQUIRE_MESSAGE(render_app_to_png(warm, 640, 400, 3, first.string(), &error), error);
  AppShell cool(make_demo_workbench(DemoOptions{1, true}), AppSettings{});
  REQUIRE_MESSAGE(render_app_to_png(cool, 640, 400, 3, second.string(), &error), error);

  int w = 0, h = 0;
  const auto a = load_png(first, &w, &h);
  CHECK(w == 640);
  CHECK(h == 400);
  std::set<unsigned> colours;
  for (std::size_t i = 0; i < a.size(); i += 4) colours.insert(a[i] | (a[i + 1] << 8) | (a[i + 2] << 16));
  MESSAGE("distinct colours: " << colours.size());
  CHECK(colours.size() > 50);  // panels, text, shaded 3-D view: far from a blank image
  const auto b = load_png(second, &w, &h);
  REQUIRE(a.size() == b.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.size(); i += 4) differing += (a[i] != b[i] || a[i + 2] != b[i + 2]) ? 1 : 0;
  MESSAGE("pixels differing between demo variants: " << differing);
  CHECK(differing > 1000);
}

TEST_CASE("a 1280x800 shell frame costs under 33 ms on llvmpipe") {
  AppShell shell(make_demo_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  run_frames(*runner, 5);  // warm-up: font atlas, shader compiles, FBO allocation
  // The machine is shared (2 cores, other builds and tests), so wall time measures the neighbours as
  // much as us. The assertion uses the process CPU time per frame (all llvmpipe threads included):
  // it is what one idle core would need, hence an upper bound on the frame time there.
  constexpr int k_batches = 6, k_frames_per_batch = 8;
  double best_wall_ms = 1e9;
  const double cpu_start = process_cpu_ms();
  for (int batch = 0; batch < k_batches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    run_frames(*runner, k_frames_per_batch);  // each frame ends with glFinish
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    best_wall_ms = std::min(best_wall_ms, ms / k_frames_per_batch);
  }
  const double cpu_ms = (process_cpu_ms() - cpu_start) / (k_batches * k_frames_per_batch);
  MESSAGE("1280x800 frame: " << cpu_ms << " ms CPU, best wall " << best_wall_ms << " ms ("
                             << runner->describe() << ")");
  CHECK(cpu_ms < 33.0);
}

TEST_CASE("F3 shows the frame-time readout, and a running job redraws 4 times a second, playback 60") {
  AppShell shell(make_demo_workbench(), AppSettings{});
  auto runner = make_runner(shell, 800, 600);
  run_frames(*runner, 2);
  CHECK_FALSE(shell.state().show_frame_stats);
  runner->press_key(GLFW_KEY_F3);
  run_frames(*runner, 1);
  REQUIRE(shell.state().show_frame_stats);
  run_frames(*runner, 1);
  CHECK(drawn_this_frame("Frame stats"));
  runner->press_key(GLFW_KEY_F3);
  run_frames(*runner, 2);
  CHECK_FALSE(drawn_this_frame("Frame stats"));

  bool busy = false, playing = false;
  shell.workbench().animating = [&] { return busy || playing; };
  shell.workbench().playing = [&] { return playing; };
  CHECK(std::string(shell.redraw_mode()) == "idle: on input");
  busy = true;
  CHECK(shell.animating_frame_seconds() == doctest::Approx(0.25));
  CHECK(std::string(shell.redraw_mode()).find("job") != std::string::npos);
  playing = true;
  CHECK(shell.animating_frame_seconds() == doctest::Approx(1.0 / 60.0));
}

TEST_CASE("FrameStats counts the redraws of the last second and keeps the slowest frame") {
  FrameStats stats;
  for (int i = 0; i < 10; ++i) stats.record(0.1 * i, i == 3 ? 0.040 : 0.005);
  CHECK(stats.redraws_in_last_second(0.9) == 10);
  CHECK(stats.redraws_in_last_second(1.45) == 5);  // 0.5 .. 0.9
  CHECK(stats.last_frame_ms() == doctest::Approx(5.0));
  CHECK(stats.slowest_frame_ms() == doctest::Approx(40.0));
  for (int i = 0; i < 200; ++i) stats.record(2.0 + 0.001 * i, 0.001);  // the slow one falls out
  CHECK(stats.slowest_frame_ms() == doctest::Approx(1.0));
}

namespace {

// imgui.ini text placing the three panels as a 1920x1080 window would have them.
const char* k_layout_at_1080p =
    "[Window][Controls]\nPos=0,0\nSize=560,1050\nCollapsed=0\n\n"
    "[Window][Viewport]\nPos=560,0\nSize=1360,520\nCollapsed=0\n\n"
    "[Window][Plots]\nPos=560,520\nSize=1360,530\nCollapsed=0\n\n";

bool inside_display(const char* name) {
  const ImGuiWindow* w = ImGui::FindWindowByName(name);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  return w != nullptr && w->Pos.x >= 0.0f && w->Pos.y >= 0.0f && w->Pos.x + w->Size.x <= display.x + 1.0f &&
         w->Pos.y + w->Size.y <= display.y + 1.0f;
}

}  // namespace

TEST_CASE(
    "a layout saved in a larger window is laid out afresh in a smaller one, and kept in one of its size") {
  AppSettings saved_at_1080p;
  saved_at_1080p.window_width = 1920;
  saved_at_1080p.window_height = 1080;
  {
    AppShell shell(make_demo_workbench(), saved_at_1080p);
    auto runner = make_runner(shell, 1280, 720);
    ImGui::LoadIniSettingsFromMemory(k_layout_at_1080p);
    run_frames(*runner, 2);
    for (const char* panel : {k_controls_window, k_viewport_window, k_plots_window})
      CHECK_MESSAGE(inside_display(panel), panel);
  }
  {
    AppShell shell(make_demo_workbench(), saved_at_1080p);
    auto runner = make_runner(shell, 1920, 1080);
    ImGui::LoadIniSettingsFromMemory(k_layout_at_1080p);
    run_frames(*runner, 2);
    const ImGuiWindow* plots = ImGui::FindWindowByName(k_plots_window);
    REQUIRE(plots != nullptr);
    CHECK(plots->Pos.x == doctest::Approx(560.0f));  // the saved layout, as the user left it
    CHECK(plots->Size.y == doctest::Approx(530.0f));
  }
}
