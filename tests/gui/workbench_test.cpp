// The research workbench end to end, headless: panels, live sweeps, errors, cancel, frame time, screenshots.
#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stb_image.h>
#include "tests/test_paths.hpp"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>
#include <thread>

#include "engine/scene/config_diff.hpp"
#include "gui/app/headless_runner.hpp"
#include "gui/app/panel_names.hpp"
#include "gui/app/workbench_app.hpp"
#include "gui/app/workbench_screenshot.hpp"
#include "gui/document/presets.hpp"
#include "gui/panels/device_choice.hpp"
#include "headless_test_util.hpp"
#include "plots/axis_math.hpp"
#include "plots/sweep_figures/sweep2d_figure.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

using namespace sg::gui;
using namespace sg::gui::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

const fs::path k_scenes = fs::path(sg::test::source_dir()) / "scenes";
const fs::path k_tmp = fs::path(sg::test::binary_dir()) / "test_gui_tmp";

std::shared_ptr<WorkbenchApp> make_app(const std::vector<std::string>& overrides = {}, int threads = 0) {
  WorkbenchOptions options;
  options.scenes_folder = k_scenes;
  options.out_folder = k_tmp / "out";
  options.sweep_threads = threads;
  options.debounce = 20ms;
  auto app = std::make_shared<WorkbenchApp>(options);
  REQUIRE_MESSAGE(app->open_scene((k_scenes / "toy_point_mass.json").string(), overrides),
                  app->document().error());
  return app;
}

std::size_t finite_count(const std::vector<double>& v) {
  return static_cast<std::size_t>(
      std::count_if(v.begin(), v.end(), [](double x) { return std::isfinite(x); }));
}

}  // namespace

TEST_CASE("workbench: every panel is drawn with the engine's content") {
  auto app = make_app();
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  run_frames(*runner, 2);
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 2);
  CHECK(drawn_this_frame(k_controls_window));
  CHECK(drawn_this_frame(k_viewport_window));
  CHECK(drawn_this_frame(k_plots_window));
  CHECK(drawn_this_frame(k_status_window));
  // The 3-D view: the ground plane and one sphere for the toy's particle.
  REQUIRE(shell.last_scene().prims.size() == 2);
  CHECK(shell.last_scene().prims[0].shape == sg::render::Shape::kPlane);
  CHECK(shell.last_scene().prims[1].shape == sg::render::Shape::kSphere);
  // Plots: three sweep plots and the selected point's four trajectory plots.
  CHECK(app->plots().sweep_figure().plots.size() == 3);
  CHECK(app->plots().trajectory_figure().plots.size() == 4);
  CHECK(app->status().text.find("2000 points") != std::string::npos);
}

TEST_CASE("workbench: a control change re-runs the sweep and the plot shows every point") {
  auto app = make_app();
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 800, 600);
  run_frames(*runner, 1);
  REQUIRE(app->set_path("sweep.points", 57));
  REQUIRE(app->set_path("contact.penalty.k", 120.0));
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 1);
  CHECK(app->sweep().phase == SweepPhase::finished);
  CHECK(app->sweep().problem->data.model.particles[0].mass == doctest::Approx(1.0));
  CHECK(app->document().config()["contact"]["penalty"]["k"].get<double>() == doctest::Approx(120.0));
  const auto& loss = app->plots().sweep_figure().plots.at(0).series.at(0);
  CHECK(loss.x.size() == 57);
  CHECK(finite_count(loss.y) == 57);
  const auto& grad = app->plots().sweep_figure().plots.at(1).series;
  REQUIRE(grad.size() >= 2);
  CHECK(grad[0].y.size() == 57);  // AD
  CHECK(grad[1].y.size() == 57);  // FD
}

TEST_CASE("workbench: an invalid edit or a malformed scene shows its error and keeps the last good one") {
  auto app = make_app();
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 800, 600);
  run_frames(*runner, 1);
  const auto good = app->document().problem();
  const long revision = app->document().revision();

  CHECK_FALSE(app->open_scene_text("{ \"model\": [1, 2,", "broken.json"));
  CHECK(app->document().error().find("broken.json") != std::string::npos);
  CHECK(app->document().problem() == good);
  CHECK(app->document().revision() == revision);
  CHECK(app->document().config()["name"] == "toy_point_mass");
  run_frames(*runner, 2);  // the error is drawn in the controls; frames still render
  // The status bar says what is wrong, not only that something is.
  CHECK(app->status().text.find("broken.json") != std::string::npos);
  CHECK(app->status().text.find("keeps running") != std::string::npos);

  const fs::path bad = k_tmp / "bad_scene.json";
  fs::create_directories(k_tmp);
  {
    std::FILE* f = std::fopen(bad.string().c_str(), "w");
    REQUIRE(f);
    std::fputs("{\"integrator\": {\"dt\": -1}}", f);
    std::fclose(f);
  }
  CHECK_FALSE(app->open_scene(bad.string()));
  CHECK(app->document().error().find("integrator.dt") != std::string::npos);
  CHECK(app->document().problem() == good);

  CHECK_FALSE(app->set_path("integrator.dt", -0.5));
  CHECK(app->document().error().find("integrator.dt") != std::string::npos);
  CHECK(app->document().problem() == good);
  CHECK(app->document().config()["integrator"]["dt"].get<double>() == doctest::Approx(0.1));
  REQUIRE(app->set_path("integrator.dt", 0.05));  // fixing it clears the error
  CHECK(app->document().error().empty());
}

TEST_CASE("workbench: Esc cancels a slow sweep and leaves the partial results marked") {
  auto app = make_app({"integrator.substeps=1000"}, 1);
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 800, 600);
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  do {
    run_frames(*runner, 1);
  } while (app->sweep().completed < 5 && std::chrono::steady_clock::now() < deadline);
  REQUIRE(app->sweep().phase == SweepPhase::running);
  runner->press_key(GLFW_KEY_ESCAPE);
  run_frames(*runner, 1);
  REQUIRE(app->wait_until_idle(30s));
  run_frames(*runner, 1);
  const SweepSnapshot& s = app->sweep();
  CHECK(s.phase == SweepPhase::cancelled);
  long cancelled = 0, ok = 0;
  for (const auto& p : s.result.points) {
    if (p.status == "cancelled") {
      ++cancelled;
      CHECK(std::isnan(p.loss));  // drawn as a gap, not as zero
    }
    if (p.status == "ok") ++ok;
  }
  MESSAGE("computed " << ok << ", cancelled " << cancelled);
  CHECK(ok >= 5);
  CHECK(cancelled > 1000);  // 2000 points at about 1 ms each cannot finish in the frames above
  CHECK(app->status().text.find("cancelled") != std::string::npos);
  CHECK(app->message() == "cancelled: sweep");
  // Esc with nothing running says nothing (it used to report "sweep cancelled" again).
  app->unpin();
  REQUIRE(app->message() == "unpinned all");
  app->cancel();
  CHECK(app->message() == "unpinned all");
  const auto& loss = app->plots().sweep_figure().plots.at(0).series.at(0);
  CHECK(finite_count(loss.y) == static_cast<std::size_t>(ok));
}

namespace {

// UI CPU milliseconds per frame over at least k frames: the process's CPU time less the sweep worker's, so
// what remains is the UI thread plus llvmpipe. wall: the mean and worst wall time of a frame. With
// min_worker_ms > 0, frames go on (up to 20 k) until the worker has computed that long: it runs below the
// UI's priority, so on a machine busy with other processes (tests side by side) it may get little of it.
struct FrameCost {
  double ui_cpu_ms = 0.0, mean_wall_ms = 0.0, worst_wall_ms = 0.0, worker_ms = 0.0;
  int frames = 0;
};

FrameCost measure_frames(HeadlessShellRunner& runner, WorkbenchApp& app, int k, double min_worker_ms = 0.0) {
  FrameCost c;
  const double worker_before = app.sweep_worker().worker_cpu_seconds();
  const double cpu_before = process_cpu_seconds();
  double wall_ms = 0.0;
  auto worker_ms = [&] { return (app.sweep_worker().worker_cpu_seconds() - worker_before) * 1e3; };
  while (c.frames < k || (worker_ms() < min_worker_ms && c.frames < 20 * k)) {
    const auto start = std::chrono::steady_clock::now();
    run_frames(runner, 1);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    c.worst_wall_ms = std::max(c.worst_wall_ms, ms);
    wall_ms += ms;
    ++c.frames;
  }
  c.mean_wall_ms = wall_ms / c.frames;
  c.worker_ms = worker_ms();
  c.ui_cpu_ms = ((process_cpu_seconds() - cpu_before) * 1e3 - c.worker_ms) / c.frames;
  return c;
}

}  // namespace

// The UI thread never waits on the engine nor does its work: a frame costs the same whether a sweep runs or
// not. (The absolute frame cost depends on the machine and is measured, not asserted: docs/gui.md.)
TEST_CASE("workbench: a running sweep adds no UI work to a frame") {
  auto app = make_app({"integrator.substeps=1000"}, 1);  // one worker thread: the sweep runs on it
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  run_frames(*runner, 5);  // warm-up: fonts, shaders, FBOs
  REQUIRE(app->sweep().phase == SweepPhase::running);
  constexpr int k_frames = 30;
  const long completed_before = app->sweep().completed;
  const FrameCost running = measure_frames(*runner, *app, k_frames, 150.0);
  const long completed_during = app->sweep().completed - completed_before;
  app->cancel();
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 3);
  const FrameCost idle = measure_frames(*runner, *app, k_frames);
  MESSAGE("UI CPU per frame " << running.ui_cpu_ms << " ms while sweeping (" << running.frames
                              << " frames, wall mean " << running.mean_wall_ms << " ms, worst "
                              << running.worst_wall_ms << " ms; sweep worker " << running.worker_ms
                              << " ms CPU, " << completed_during << " points during the frames), "
                              << idle.ui_cpu_ms << " ms idle");
  CHECK(completed_during > 0);       // the sweep really ran while frames were drawn
  CHECK(running.worker_ms > 100.0);  // ... on its own thread
  // Margins for a shared 2-core machine: 40% plus 5 ms per frame (the sweep's points take a few ms each, so a
  // UI that computed one per frame, or waited for one, would exceed it many times over), and no frame waits
  // for the sweep (it takes seconds).
  CHECK(running.ui_cpu_ms < 1.4 * idle.ui_cpu_ms + 5.0);
  CHECK(running.worst_wall_ms < 500.0);
}

TEST_CASE("workbench: clicking selects a point, its trajectory plays, pin keeps a faded sweep") {
  auto app = make_app();
  REQUIRE(app->wait_until_idle(60s));
  app->select_value(0.55);
  REQUIRE(app->wait_until_idle(60s));
  REQUIRE(app->trajectory() != nullptr);
  CHECK(app->trajectory()->value == doctest::Approx(0.55));
  CHECK(app->trajectory()->t.size() == 21);  // 20 output steps plus t = 0
  const sg::plot::Figure shown = app->plots().shown_figure();
  REQUIRE(shown.plots.size() == 7);
  REQUIRE(shown.plots[0].vertical_markers.size() == 1);
  CHECK(shown.plots[0].vertical_markers[0] == doctest::Approx(0.55));

  app->player().seek_frame(0);
  app->player().play();
  app->update(0.5f);  // half a second of real time at speed 1: frame 5 at h = 0.1
  CHECK(app->player().frame() == 5);
  app->handle_action(sg::gui::Action::kPlayPause);
  CHECK_FALSE(app->player().playing());
  app->handle_action(sg::gui::Action::kStepForward);
  CHECK(app->player().frame() == 6);

  app->handle_action(sg::gui::Action::kPinSweep);
  REQUIRE(app->set_path("contact.penalty.k", 200.0));
  REQUIRE(app->wait_until_idle(60s));
  const sg::plot::Figure pinned = app->plots().shown_figure();
  long faded = 0, live = 0;
  for (const auto& s : pinned.plots[0].series) (s.faded ? faded : live) += 1;
  CHECK(faded == 1);
  CHECK(live == 1);
  // The pin is labelled by what differs from the live settings (its own k), and the history holds both
  // finished sweeps.
  const std::string group = pinned.plots[1].series.back().group;
  CHECK(group.find("pin 1: stiffness k") == 0);
  CHECK(group.find("200") == std::string::npos);
  CHECK(app->plots().history().records().size() == 2);
  CHECK(app->plots().history().records()[1].label == "same settings");
  app->unpin();
  const sg::plot::Figure unpinned = app->plots().shown_figure();  // kept: the loop reads into it
  for (const auto& s : unpinned.plots[0].series) CHECK_FALSE(s.faded);
}

TEST_CASE("workbench: scrubbing a knob re-runs only the clicked point until the knob is let go") {
  auto app = make_app();
  REQUIRE(app->scrub());  // on by default
  REQUIRE(app->wait_until_idle(60s));
  app->select_value(0.55);
  REQUIRE(app->wait_until_idle(60s));
  const auto swept = app->sweep().problem;
  const double loss_before = app->trajectory()->loss;

  app->set_dragging(true);
  REQUIRE(app->set_path("contact.penalty.k", 80.0));
  REQUIRE(app->set_path("contact.penalty.k", 90.0));
  REQUIRE(app->wait_until_idle(60s));
  app->update(0.0f);
  CHECK(app->sweep_deferred());
  CHECK(app->sweep().problem == swept);  // the sweep did not restart while dragging
  REQUIRE(app->trajectory() != nullptr);
  CHECK(app->trajectory()->value == doctest::Approx(0.55));
  CHECK(app->trajectory()->loss != loss_before);  // the clicked point follows the knob
  CHECK(app->status().text.find("scrubbing") != std::string::npos);

  app->set_dragging(false);  // let go: the sweep runs with the last value
  CHECK_FALSE(app->sweep_deferred());
  REQUIRE(app->wait_until_idle(60s));
  app->update(0.0f);
  REQUIRE(app->sweep().problem != swept);
  CHECK(app->sweep().phase == SweepPhase::finished);
  CHECK(app->sweep().problem->config["contact"]["penalty"]["k"].get<double>() == doctest::Approx(90.0));

  // Scrub off: a change while dragging restarts the sweep at once.
  app->set_scrub(false);
  app->set_dragging(true);
  REQUIRE(app->set_path("contact.penalty.k", 70.0));
  CHECK_FALSE(app->sweep_deferred());
  REQUIRE(app->wait_until_idle(60s));
  app->update(0.0f);
  CHECK(app->sweep().problem->config["contact"]["penalty"]["k"].get<double>() == doctest::Approx(70.0));
  app->set_dragging(false);
}

TEST_CASE("workbench: the scene as written is kept beside overrides and edits (the description's state)") {
  auto app = make_app({"contact.penalty.k=80"});
  const auto& doc = app->document();
  CHECK(doc.as_written()["contact"]["penalty"]["k"].get<double>() == doctest::Approx(50.0));
  CHECK(doc.config()["contact"]["penalty"]["k"].get<double>() == doctest::Approx(80.0));
  REQUIRE(app->set_path("integrator.steps", 30));
  CHECK(doc.as_written()["integrator"]["steps"].get<long>() == 20);
  const std::string changed = sg::scene::difference_label(doc.config(), doc.as_written(), 4);
  CHECK(changed.find("80") != std::string::npos);
  CHECK(changed.find("30") != std::string::npos);
  // Opening the file again without overrides: nothing differs.
  REQUIRE(app->open_scene((k_scenes / "toy_point_mass.json").string()));
  CHECK(sg::scene::same_sweep_settings(doc.config(), doc.as_written()));
}

// A HiDPI monitor (content scale 2, as glfwGetWindowContentScale reports it) shows the same layout at twice
// the pixels: 1280x720 logical as 2560x1440. No HiDPI display here, so the shell is given the scale.
TEST_CASE("workbench: a content scale of 2 doubles the font and the panels, and everything stays on screen") {
  auto app = make_app();
  REQUIRE(app->wait_until_idle(60s));
  float font[2] = {}, controls_width[2] = {};
  for (int i = 0; i < 2; ++i) {
    const float scale = i == 0 ? 1.0f : 2.0f;
    const int w = static_cast<int>(1280 * scale), h = static_cast<int>(720 * scale);
    AppShell shell(app->make_workbench(), AppSettings{});
    shell.set_content_scale(scale);
    auto runner = make_runner(shell, w, h);
    run_frames(*runner, 3);
    font[i] = ImGui::GetFontSize();
    const ImGuiWindow* controls = ImGui::FindWindowByName(k_controls_window);
    const ImGuiWindow* status = ImGui::FindWindowByName(k_status_window);
    REQUIRE(controls != nullptr);
    REQUIRE(status != nullptr);
    controls_width[i] = controls->Size.x;
    CHECK(status->Pos.y + status->Size.y <= static_cast<float>(h) + 0.5f);
    CHECK(controls->Pos.x + controls->Size.x <= static_cast<float>(w) + 0.5f);
  }
  CHECK(font[1] == doctest::Approx(2.0f * font[0]).epsilon(0.15));
  CHECK(controls_width[1] == doctest::Approx(2.0f * controls_width[0]).epsilon(0.15));
}

TEST_CASE("workbench: every preset loads") {
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();  // the robot presets import MJCF
#endif
  auto app = make_app();
  for (const Preset& preset : preset_table()) {
    INFO(preset.name);
    CHECK(app->apply_preset(preset.name));
    CHECK(app->document().error().empty());
  }
  app->cancel();
  CHECK(app->apply_preset("falling_smoothed"));
  CHECK(app->document().config()["contact"]["hard"]["kappa"].get<double>() == doctest::Approx(30.0));
  // The preset's note is shown above the plots; a plain scene has none.
  CHECK(app->plots().note() == find_preset("falling_smoothed")->help);
  REQUIRE(app->open_scene((k_scenes / "toy_point_mass.json").string()));
  CHECK(app->plots().note().empty());
  CHECK_FALSE(app->apply_preset("no_such_preset"));
  // The message names the preset and lists the real ones (softgrad-gui --preset prints it).
  CHECK(app->message().find("unknown preset \"no_such_preset\"") != std::string::npos);
  CHECK(app->message().find("falling_smoothed") != std::string::npos);
}

TEST_CASE("workbench: exports write SVG, CSV, JSON and PNG files into the out folder") {
  auto app = make_app({"sweep.points=40"});
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1000, 700);
  run_frames(*runner, 1);
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 2);
  const fs::path out = k_tmp / "out";
  fs::remove_all(out);
  PlotPanelEvents events;
  events.export_min = ImVec2(300, 400);
  events.export_max = ImVec2(900, 650);
  for (ExportKind kind : {ExportKind::svg, ExportKind::csv, ExportKind::json, ExportKind::png}) {
    events.export_kind = kind;
    app->export_plots(events);
  }
  run_frames(*runner, 2);  // the PNG is read back after the frame is drawn
  CHECK(fs::file_size(out / "toy_point_mass_plots.svg") > 1000);
  CHECK(fs::file_size(out / "toy_point_mass_plots.json") > 1000);
  CHECK(fs::exists(out / "toy_point_mass_plots_loss.csv"));
  // The figure itself, drawn anew: 7 plots on 3 columns take at least 400 x 300 each, so the 600 x 250
  // region becomes 1200 x 900.
  int w = 0, h = 0;
  const auto all = load_png(out / "toy_point_mass_plots.png", &w, &h);
  CHECK(w == 1200);
  CHECK(h == 900);
  CHECK(app->message().find("toy_point_mass_plots.png") != std::string::npos);
  // One plot from its menu: the region's size (the height raised to 300); its loss curve is drawn in the
  // first palette colour.
  events.export_kind = ExportKind::png;
  events.export_figure =
      app->plots().sweep_figure().plots.empty()
          ? std::nullopt
          : std::optional(sg::plot::Figure{"Loss", 1, {app->plots().sweep_figure().plots[0]}});
  REQUIRE(events.export_figure);
  app->export_plots(events);
  run_frames(*runner, 1);
  const auto one = load_png(out / "toy_point_mass_loss.png", &w, &h);
  CHECK(w == 600);
  CHECK(h == 300);
  const sg::plot::Color curve = sg::plot::palette_color(0);
  const auto count_near = [](const std::vector<unsigned char>& px, int r, int g, int b, int tol) {
    long n = 0;
    for (std::size_t i = 0; i + 3 < px.size(); i += 4)
      n += std::abs(px[i] - r) + std::abs(px[i + 1] - g) + std::abs(px[i + 2] - b) <= tol;
    return n;
  };
  CHECK(count_near(one, curve.r, curve.g, curve.b, 30) > 100);
  CHECK(count_near(all, curve.r, curve.g, curve.b, 30) > 100);
}

TEST_CASE("workbench: the headless screenshot is non-empty and follows the plot") {
  fs::create_directories(k_tmp);
  const fs::path a = k_tmp / "workbench_k50.png", b = k_tmp / "workbench_k400.png";
  ScreenshotRequest request;
  request.scene = (k_scenes / "toy_point_mass.json").string();
  request.options.scenes_folder = k_scenes;
  request.width = 800;
  request.height = 500;
  request.out = a.string();
  std::string error;
  REQUIRE_MESSAGE(render_workbench_screenshot(request, &error), error);
  request.overrides = {"contact.penalty.k=400"};
  request.out = b.string();
  REQUIRE_MESSAGE(render_workbench_screenshot(request, &error), error);
  int w = 0, h = 0;
  const auto pa = load_png(a, &w, &h);
  CHECK(w == 800);
  CHECK(h == 500);
  std::set<unsigned> colours;
  for (std::size_t i = 0; i < pa.size(); i += 4) colours.insert(pa[i] | (pa[i + 1] << 8) | (pa[i + 2] << 16));
  CHECK(colours.size() > 100);
  const auto pb = load_png(b, &w, &h);
  REQUIRE(pa.size() == pb.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < pa.size(); i += 4)
    differing += (pa[i] != pb[i] || pa[i + 1] != pb[i + 1]) ? 1 : 0;
  MESSAGE("pixels differing between k = 50 and k = 400: " << differing);
  CHECK(differing > 2000);

  request.preset = "no_such_preset";
  CHECK_FALSE(render_workbench_screenshot(request, &error));
  CHECK(error.find("toy_coarse") != std::string::npos);  // lists the valid names
}

TEST_CASE("workbench: animates while a job waits or runs or the trajectory plays, and is idle otherwise") {
  auto app = make_app();
  AppShell shell(app->make_workbench(), AppSettings{});
  CHECK(shell.animating());  // the scene's first sweep is queued
  REQUIRE(app->wait_until_idle(60s));
  app->update(0.0f);
  CHECK_FALSE(shell.animating());  // the host may now sleep until input
  REQUIRE(app->set_path("integrator.dt", 0.05));
  CHECK(shell.animating());  // a knob change queues a sweep (debounced)
  // A job's progress is drawn 4 times a second (and on input), leaving the cores to its workers.
  CHECK(shell.animating_frame_seconds() == doctest::Approx(AppShell::kJobRedrawSeconds));
  CHECK(AppShell::kJobRedrawSeconds >= 0.2);
  REQUIRE(app->wait_until_idle(60s));
  app->update(0.0f);
  CHECK_FALSE(shell.animating());
  // Playback moves on screen: up to 60 frames a second.
  REQUIRE(app->trajectory() != nullptr);
  app->player().play();
  CHECK(shell.animating());
  CHECK(shell.animating_frame_seconds() == doctest::Approx(1.0 / 60.0));
  app->player().pause();
  CHECK_FALSE(shell.animating());
}

TEST_CASE("workbench: the trajectory plots get a time cursor that follows playback") {
  auto app = make_app();
  REQUIRE(app->wait_until_idle(60s));
  app->select_value(0.5);
  REQUIRE(app->wait_until_idle(60s));
  REQUIRE(app->trajectory() != nullptr);
  REQUIRE(app->plots().time().has_value());
  app->player().seek_frame(3);
  app->update(0.0f);
  CHECK(*app->plots().time() == doctest::Approx(app->trajectory()->t[3]));
}

TEST_CASE("workbench: the active preset is remembered until another scene opens") {
  auto app = make_app();
  CHECK(app->active_preset().empty());
  REQUIRE(app->apply_preset("toy_fine"));
  CHECK(app->active_preset() == "toy_fine");
  CHECK_FALSE(app->apply_preset("no_such_preset"));
  CHECK(app->active_preset() == "toy_fine");  // a failed change keeps the state
  REQUIRE(app->open_scene((k_scenes / "toy_point_mass.json").string()));
  CHECK(app->active_preset().empty());
}

// The 2-D map tab: a grid computed on the worker fills every cell, draws four heatmaps, and a click on a map
// opens that point (y set in the scene, x simulated).
TEST_CASE("2-D map: a grid fills in on the worker and a click opens its point") {
  auto app = make_app({"sweep.points=20"});
  REQUIRE(app->wait_until_idle(60s));
  sg::GridAxis x{"model.particles.0.pos.2", 0.0, 3.0, 6};
  sg::GridAxis y{"contact.penalty.k", 20.0, 80.0, 5};
  app->run_map(x, y);
  REQUIRE(app->wait_until_idle(60s));
  const MapSnapshot& map = app->map();
  CHECK(map.phase == SweepPhase::finished);
  REQUIRE(map.result.points.size() == 30);
  for (const sg::GridPoint& p : map.result.points) {
    CHECK(p.status == "ok");
    CHECK(std::isfinite(p.loss));
    CHECK(std::isfinite(p.gy));
  }
  const sg::plot::Figure figure = sg::sweep2d_figure(*map.problem, map.result);
  REQUIRE(figure.plots.size() == 4);
  CHECK(figure.plots[0].heatmap.values.size() == 30);

  app->open_map_point("contact.penalty.k", 1.5, 65.0);
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->document().config()["contact"]["penalty"]["k"].get<double>() == doctest::Approx(65.0));
  REQUIRE(app->trajectory() != nullptr);
  CHECK(app->trajectory()->value == doctest::Approx(1.5));
  // The click set the map's y in the scene: the grid still covers these settings (not "computed for
  // earlier settings"); another edit makes it stale.
  MapPanel& panel = app->map_panel();
  panel.set_snapshot(app->map());
  panel.set_problem(app->document().problem());
  CHECK(panel.computed_for_live());
  REQUIRE(app->set_path("contact.penalty.c", 3.0));
  REQUIRE(app->wait_until_idle(60s));
  panel.set_problem(app->document().problem());
  CHECK_FALSE(panel.computed_for_live());

  // A refused grid (the same path twice) is reported, not thrown.
  app->run_map(x, sg::GridAxis{x.path, 0.0, 1.0, 4});
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->map().error.find("same path") != std::string::npos);
}

// "Descend": Adam from optimize.starts starts on the worker; the paths are drawn on the loss plot, follow the
// optimize.* knobs without re-running the sweep, and vanish for other physics.
TEST_CASE("workbench: Descend draws gradient-descent paths on the loss plot") {
  // The elastic toy with time of impact: |q_N - 1|, minima at q0 = 1 and (bouncing once more) at q0 = 3.
  auto app = make_app({"sweep.points=20"});
  REQUIRE(app->open_scene((k_scenes / "toy_elastic.json").string(),
                          {"contact.elastic.toi=true", "sweep.points=20", "optimize.starts=3",
                           "optimize.steps=40", "optimize.lr=0.1"}));
  REQUIRE(app->wait_until_idle(60s));
  app->descend();
  REQUIRE(app->wait_until_idle(60s));
  REQUIRE(app->descent().phase == SweepPhase::finished);
  REQUIRE(app->descent().result.paths.size() == 3);
  CHECK(app->message() == "descent: 3 paths done");  // "descending from 3 starts" gives way to the outcome
  auto descent_series = [&] {
    std::vector<sg::plot::Series> out;
    const sg::plot::Figure figure = app->plots().shown_figure();  // kept: the loop reads into it
    for (const auto& s : figure.plots[0].series)
      if (s.group.find("descent: Adam, ") == 0) out.push_back(s);
    return out;
  };
  const auto series = descent_series();
  REQUIRE(series.size() == 4);  // three paths and their end points, one legend entry
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(series[i].x.size() == 41);
    CHECK(series[i].y.front() == doctest::Approx(0.5));  // starts 0.5, 1.5, 2.5
    CHECK(series[i].y.back() < 0.02);                    // each path reaches a minimum
  }
  CHECK(std::fabs(series[0].x.back() - 1.0) < 0.05);
  CHECK(std::fabs(series[1].x.back() - 1.0) < 0.05);
  CHECK(series[2].x.back() == doctest::Approx(3.0));  // projected onto the sweep range
  const long sweeps = app->plots().history().records().size();
  REQUIRE(app->set_path("optimize.steps", 5));  // a descent knob: the paths re-run, the sweep does not
  REQUIRE(app->wait_until_idle(60s));
  REQUIRE(descent_series().size() == 4);
  CHECK(descent_series()[0].x.size() == 6);
  CHECK(static_cast<long>(app->plots().history().records().size()) == sweeps);
  // Other physics: the paths of the old settings are not drawn over the new sweep.
  PlotPanel panel;
  SweepSnapshot sweep;
  sweep.problem = app->sweep().problem;
  panel.set_sweep(sweep);
  panel.set_descent(app->descent());
  CHECK(panel.descent_shown());
  auto other = std::make_shared<sg::Problem>(*sweep.problem);
  other->config["contact"]["elastic"]["toi"] = false;
  sweep.problem = other;
  panel.set_sweep(sweep);
  CHECK_FALSE(panel.descent_shown());
  REQUIRE(app->set_path("contact.elastic.toi", false));
  REQUIRE(app->wait_until_idle(60s));  // and they follow the knob once computed again
  CHECK(descent_series().size() == 4);
  CHECK(app->descent().problem->config["contact"]["elastic"]["toi"] == false);
  app->clear_descent();
  CHECK(descent_series().empty());
}

TEST_CASE("workbench: the headless screenshot with --descend shows the descent paths in gold") {
  fs::create_directories(k_tmp);
  ScreenshotRequest request;
  request.scene = (k_scenes / "toy_elastic.json").string();
  request.overrides = {"contact.elastic.toi=true", "sweep.points=20", "optimize.starts=3",
                       "optimize.steps=20"};
  request.options.scenes_folder = k_scenes;
  request.width = 900;
  request.height = 600;
  auto gold_pixels = [&](bool descend) {
    request.descend = descend;
    request.out = (k_tmp / (descend ? "descend_on.png" : "descend_off.png")).string();
    std::string error;
    REQUIRE_MESSAGE(render_workbench_screenshot(request, &error), error);
    int w = 0, h = 0;
    const auto px = load_png(request.out, &w, &h);
    long gold = 0;
    for (std::size_t i = 0; i < px.size(); i += 4)  // the paths' colour (255, 200, 40), give or take blending
      gold += px[i] > 230 && px[i + 1] > 170 && px[i + 1] < 225 && px[i + 2] < 90;
    return gold;
  };
  const long off = gold_pixels(false), on = gold_pixels(true);
  MESSAGE("gold pixels without descent " << off << ", with " << on);
  CHECK(on > off + 100);  // measured 4 and 234 at 900 x 600
}

TEST_CASE(
    "workbench: compute on GPU without one says why in the status bar, and back on auto the sweep runs") {
  const sg::CudaDeviceInfo gpu = sg::cuda_device_info();
  if (gpu.available) {
    std::printf("SOFTGRAD_TEST_SKIPPED: this machine has a GPU (%s); the no-GPU path is not reachable\n",
                gpu.name.c_str());
    return;
  }
  auto app = make_app({"sweep.points=40"});
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->sweep_worker().device() == sg::SweepDevice::automatic);  // the GUI's default
  app->set_sweep_device(sg::SweepDevice::cuda);
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 1);
  CHECK(app->sweep().error.find(gpu.reason) != std::string::npos);
  CHECK(app->status().text.find("sweep failed: --device cuda: " + gpu.reason) != std::string::npos);
  CHECK(app->sweep().failed() == 0);  // no point is blamed for the missing device
  app->set_sweep_device(sg::SweepDevice::automatic);
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 1);
  CHECK(app->sweep().error.empty());
  CHECK(app->sweep().device == "cpu");
  CHECK(app->status().text.find("40 points in") != std::string::npos);
  // The combo names the choice; the GPU entry carries the reason.
  CHECK(device_choice_label(sg::SweepDevice::automatic, gpu, 2) == "auto: CPU (2 threads)");
  CHECK(device_choice_label(sg::SweepDevice::cuda, gpu, 2) == "GPU (none)");
  sg::CudaDeviceInfo named;
  named.available = true;
  named.name = "NVIDIA H100";
  CHECK(device_choice_label(sg::SweepDevice::automatic, named, 2) ==
        "auto: GPU NVIDIA H100 from 300 points, else CPU (2 threads)");
}

// The Identify tab: the scene's identify.parameters are fitted on the worker; steps arrive as they are taken,
// the numbers reach the scene's truth and the figure shows the error falling; Esc cancels a running fit.
TEST_CASE("workbench: Identify fits the cube's numbers on the worker and they converge to the truth") {
  auto app = make_app({"sweep.points=20"});
  REQUIRE(app->wait_until_idle(60s));
  app->identify();  // the toy lists no identify.parameters: a message, no job
  CHECK(app->message().find("no identify.parameters") != std::string::npos);
  CHECK_FALSE(app->animating());
  REQUIRE(app->apply_preset("identify_cube"));
  REQUIRE(app->wait_until_idle(120s));
  app->identify();
  REQUIRE(app->wait_until_idle(120s));
  const IdentifySnapshot& fit = app->identification();
  REQUIRE(fit.phase == SweepPhase::finished);
  REQUIRE(fit.status == "ok");
  REQUIRE(fit.paths.size() == 4);
  REQUIRE(fit.steps.size() >= 3);
  for (std::size_t j = 0; j < fit.paths.size(); ++j) {
    CAPTURE(fit.paths[j]);
    CHECK(fit.steps.front().values[j] == fit.start[j]);
    CHECK(std::fabs(fit.steps.back().values[j] - fit.truth[j]) <= 0.01 * std::fabs(fit.truth[j]));
  }
  const sg::plot::Figure& figure = app->identify_panel().figure();
  REQUIRE(figure.plots.size() == 2);
  CHECK(figure.plots[0].series[0].y.size() == fit.steps.size());
  CHECK(figure.plots[0].series[0].y.back() < 1e-6 * figure.plots[0].series[0].y.front());
  CHECK(figure.plots[1].series.size() == 4);
  // The standard errors reach the table (noise-free data: tiny, but finite).
  REQUIRE(fit.std_error.size() == 4);
  for (double e : fit.std_error) CHECK((std::isfinite(e) && e < 1e-6));
  REQUIRE(fit.correlation.size() == 16);  // and their correlations, for the tooltip
  CHECK(fit.correlation[0] == doctest::Approx(1.0));

  // identify.profile: after the fit, each number's profile-likelihood interval (noisy measurements, so the
  // error has a scale), and the figure below the table becomes the profiles' t-plots.
  REQUIRE(app->set_path("identify.noise", 0.001));
  REQUIRE(app->set_path("identify.profile", true));
  REQUIRE(app->wait_until_idle(120s));
  app->identify();
  REQUIRE(app->wait_until_idle(120s));
  const IdentifySnapshot& profiled = app->identification();
  REQUIRE(profiled.phase == SweepPhase::finished);
  REQUIRE(profiled.profile.status == "ok");
  CHECK_FALSE(profiled.profiling);
  REQUIRE(profiled.profile.parameters.size() == 4);
  for (std::size_t j = 0; j < 4; ++j) {
    CAPTURE(profiled.paths[j]);
    const double x = profiled.steps.back().values[j];
    CHECK(profiled.profile.parameters[j].lower < x);
    CHECK(profiled.profile.parameters[j].upper > x);
  }
  const sg::plot::Figure& profiles = app->identify_panel().figure();
  CHECK(profiles.plots.size() == 4);
  CHECK(profiles.title == "profile likelihood");
  // Its export buttons write the profiles, named after the scene and the figure.
  const fs::path out = k_tmp / "out";
  fs::remove_all(out);
  app->export_identify(ExportKind::svg, ImVec2(0, 0), ImVec2(100, 100));
  app->export_identify(ExportKind::json, ImVec2(0, 0), ImVec2(100, 100));
  CHECK(fs::file_size(out / "identify_cube_toss_profile_likelihood.svg") > 1000);
  CHECK(fs::file_size(out / "identify_cube_toss_profile_likelihood.json") > 1000);
  // Esc while profiling: the worker stops after the refit in progress, the tab says cancelled.
  app->identify();
  for (int i = 0; i < 4000 && !app->identification().profiling; ++i) {
    std::this_thread::sleep_for(2ms);
    app->update(0.0f);
  }
  REQUIRE(app->identification().profiling);
  app->cancel();
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->identification().phase == SweepPhase::cancelled);
  CHECK(app->identification().profile.cancelled);
  REQUIRE(app->set_path("identify.profile", false));

  // identify.bootstrap: refits on measurements drawn from the fitted model; an interval per number in the
  // table and the draws' histograms below it.
  REQUIRE(app->set_path("identify.bootstrap", 8));
  REQUIRE(app->wait_until_idle(120s));
  app->identify();
  REQUIRE(app->wait_until_idle(120s));
  const IdentifySnapshot& booted = app->identification();
  REQUIRE(booted.phase == SweepPhase::finished);
  REQUIRE(booted.bootstrap.status == "ok");
  CHECK_FALSE(booted.bootstrapping);
  REQUIRE(booted.bootstrap.draws.size() == 8);
  REQUIRE(booted.bootstrap.lower.size() == 4);
  for (std::size_t j = 0; j < 4; ++j) {
    CAPTURE(booted.paths[j]);
    CHECK(booted.bootstrap.lower[j] < booted.bootstrap.upper[j]);
    CHECK(booted.bootstrap.lower[j] <= booted.bootstrap.median[j]);
    CHECK(booted.bootstrap.median[j] <= booted.bootstrap.upper[j]);
  }
  const sg::plot::Figure& histograms = app->identify_panel().figure();
  CHECK(histograms.title == "parametric bootstrap");
  REQUIRE(histograms.plots.size() == 5);  // a histogram per number, then the most correlated pair's draws
  CHECK(histograms.plots[0].series[0].name == "8 bootstrap draws");
  CHECK(histograms.plots[4].series[0].x.size() == 8);
  app->export_identify(ExportKind::csv, ImVec2(0, 0), ImVec2(100, 100));
  CHECK(fs::file_size(out / "identify_cube_toss_parametric_bootstrap_body_0_friction_0.csv") > 100);
  // Esc while drawing: the worker stops after the refits in progress, the draws made so far are kept.
  REQUIRE(app->set_path("identify.bootstrap", 400));
  REQUIRE(app->wait_until_idle(120s));
  app->identify();
  for (int i = 0; i < 4000 && !app->identification().bootstrapping; ++i) {
    std::this_thread::sleep_for(2ms);
    app->update(0.0f);
  }
  REQUIRE(app->identification().bootstrapping);
  app->cancel();
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->identification().phase == SweepPhase::cancelled);
  CHECK(app->identification().bootstrap.cancelled);
  CHECK(app->identification().bootstrap.draws.size() < 400);
  REQUIRE(app->set_path("identify.bootstrap", 0));
  REQUIRE(app->set_path("identify.noise", 0.0));

  // Cancel: a long Adam fit stops after its current step.
  REQUIRE(app->set_path("identify.method", "adam"));
  REQUIRE(app->set_path("identify.steps", 100000));
  REQUIRE(app->wait_until_idle(120s));
  app->identify();
  for (int i = 0; i < 2000 && app->identification().steps.size() < 2; ++i) {
    std::this_thread::sleep_for(5ms);
    app->update(0.0f);
  }
  app->cancel();
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->identification().phase == SweepPhase::cancelled);
  CHECK(app->identification().steps.size() < 1000);
}

// The Cost tab: the accuracy-against-cost study runs on the worker at the clicked value, its figure and
// table are drawn, and Esc cancels a running study.
TEST_CASE("workbench: the Cost tab measures each method's error against its run time on the worker") {
  auto app = make_app({"sweep.points=20"});
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  REQUIRE(app->wait_until_idle(60s));
  app->select_value(1.5);
  sg::TradeoffOptions options;
  options.families = {"euler", "tsit5"};
  options.tolerances = {1e-4, 1e-8};
  options.step_divisions = {1, 10};
  options.repeats = 1;
  app->run_tradeoff_study(1.5, options);
  app->show_tradeoff_tab();
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 2);
  const TradeoffSnapshot& study = app->tradeoff();
  REQUIRE(study.phase == SweepPhase::finished);
  REQUIRE(study.result.ok());
  CHECK(study.result.value == 1.5);
  CHECK(study.result.reference.grad == doctest::Approx(0.80035364).epsilon(1e-8));
  CHECK(study.result.rows.size() == 4);
  CHECK(study.done == study.total);
  CHECK(app->tradeoff_panel().figure().plots.size() == 2);
  CHECK(app->message() == "accuracy vs cost: done");

  // A long study (every default family on the box toss) is cancelled by Esc between its runs.
  REQUIRE(app->apply_preset("box_toss_diffmjx"));
  REQUIRE(app->wait_until_idle(120s));
  app->run_tradeoff_study(-2.0, sg::TradeoffOptions{});
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  app->update(0.0f);
  CHECK(app->tradeoff().done == 0);  // the new study's progress, not the last one's
  while (app->tradeoff().done < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
    app->update(0.0f);
  }
  app->cancel();
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->tradeoff().phase == SweepPhase::cancelled);
  CHECK(app->tradeoff().result.cancelled);
  CHECK(app->tradeoff().done < app->tradeoff().total);
  run_frames(*runner, 1);
}

TEST_CASE("workbench: a particle scene opened after a camera saved on bodies starts from its own view") {
  WorkbenchOptions options;
  options.scenes_folder = k_scenes;
  options.out_folder = k_tmp / "out";
  options.debounce = 20ms;
  const std::string toy = (k_scenes / "toy_point_mass.json").string();
  {
    // The saved camera framed a rigid scene's bodies (centimetres): the toy's view is fitted afresh.
    auto app = std::make_shared<WorkbenchApp>(options);
    app->set_camera_fits_bodies(true);
    REQUIRE(app->open_scene(toy, {}));
    const Workbench hooks = app->make_workbench();
    const std::optional<sg::render::Camera> camera = hooks.camera_request(false);
    REQUIRE(camera.has_value());
    CHECK(camera->distance == doctest::Approx(hooks.camera_request(true)->distance));
    CHECK_FALSE(app->camera_fits_bodies());  // saved so next time
  }
  {
    // The saved camera was the user's on a particle scene: kept.
    auto app = std::make_shared<WorkbenchApp>(options);
    app->set_camera_fits_bodies(false);
    REQUIRE(app->open_scene(toy, {}));
    CHECK_FALSE(app->make_workbench().camera_request(false).has_value());
  }
  {
    auto app = std::make_shared<WorkbenchApp>(options);
    REQUIRE(app->open_scene((k_scenes / "toss_box_diffmjx.json").string(), {}));
    CHECK(app->camera_fits_bodies());
  }
}

TEST_CASE(
    "workbench: another preset after edits in the controls asks first, without edits it opens at once") {
  auto app = make_app();
  ControlsRequest preset;
  preset.preset = "toy_fine";
  ControlsRequest edit;
  edit.edits = {{"contact.penalty.k", 80.0}};
  app->apply(edit);
  REQUIRE(app->edits_since_open() == 1);
  app->apply(preset);
  CHECK(app->switch_pending());
  CHECK(app->document().config()["contact"]["penalty"]["k"] == 80.0);  // nothing replaced yet
  app->confirm_switch(false);                                          // keep editing
  CHECK_FALSE(app->switch_pending());
  CHECK(app->document().config()["contact"]["penalty"]["k"] == 80.0);
  app->apply(preset);
  app->confirm_switch(true);  // discard and open
  CHECK(app->active_preset() == "toy_fine");
  CHECK(app->edits_since_open() == 0);
  app->apply(preset);  // no edits since: at once
  CHECK_FALSE(app->switch_pending());
  CHECK(app->active_preset() == "toy_fine");
}
