// Rigid-body scenes in the workbench, headless: sweep, click, 3-D bodies following the trajectory,
// CFD virtual contact lines, camera fit, rigid trajectory plots, presets.
#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include "tests/test_paths.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gui/app/headless_runner.hpp"
#include "gui/app/panel_names.hpp"
#include "gui/app/workbench_app.hpp"
#include "gui/document/presets.hpp"
#include "gui/document/scene_document.hpp"
#include "gui/view3d/rigid_body_view.hpp"
#include "gui/view3d/scene_bounds.hpp"
#include "gui/view3d/scene_view_3d.hpp"
#include "headless_test_util.hpp"
#include "plots/sweep_figures/trajectory_figure.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

using namespace sg::gui;
using namespace sg::gui::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

const fs::path k_scenes = fs::path(sg::test::source_dir()) / "scenes";

const sg::render::Primitive* first_of(const sg::render::Scene3D& scene, sg::render::Shape shape) {
  for (const auto& p : scene.prims)
    if (p.shape == shape) return &p;
  return nullptr;
}

long count_lines(const sg::render::Scene3D& scene, sg::render::LineKind kind) {
  return std::count_if(scene.lines.begin(), scene.lines.end(),
                       [kind](const sg::render::Line& l) { return l.kind == kind; });
}

// The billiards trajectory at force_y = 0 with or without CFD, and a frame where the balls (r = 0.042) are
// 1..10 cm apart: within the CFD range but not touching.
struct Billiards {
  SceneDocument doc;
  sg::Trajectory tr;
  int frame = -1;
};

void simulate_billiards(bool cfd, Billiards& out) {
  REQUIRE(
      out.doc.open((k_scenes / "billiards.json").string(),
                   {std::string("contact.cfd.enabled=") + (cfd ? "true" : "false"), "integrator.steps=40"}));
  out.tr = sg::simulate_trajectory(*out.doc.problem(), 0.0);
  REQUIRE(out.tr.status == "ok");
  REQUIRE(out.tr.layout == "rigid");
  for (std::size_t f = 1; f < out.tr.q.size() && out.frame < 0; ++f) {
    const auto& q = out.tr.q[f];
    const double gap = std::hypot(q[7] - q[0], q[8] - q[1], q[9] - q[2]) - 2 * 0.042;
    if (gap > 0.01 && gap < 0.1) out.frame = static_cast<int>(f);
  }
  REQUIRE(out.frame > 0);
}

}  // namespace

TEST_CASE("rigid: the box toss opens, sweeps, a click selects a value, the box turns with the trajectory") {
  auto app = make_scene_app("toss_box_diffmjx.json", {"sweep.points=12"});
  // Before any trajectory: the box from the scene's pos and euler (60 deg about x).
  sg::render::Scene3D initial;
  build_scene_view(app->document().config(), {}, initial);
  const auto* box0 = first_of(initial, sg::render::Shape::kBox);
  REQUIRE(box0 != nullptr);
  CHECK(box0->pos[2] == doctest::Approx(0.2f));
  CHECK(box0->size[0] == doctest::Approx(0.05f));
  CHECK(box0->quat[0] == doctest::Approx(std::cos(M_PI / 6)).epsilon(1e-6));
  CHECK(box0->quat[1] == doctest::Approx(std::sin(M_PI / 6)).epsilon(1e-6));
  // The camera frames a 20 cm toss, not the 7 m default.
  REQUIRE(app->pending_camera().has_value());
  CHECK(app->pending_camera()->distance < 1.0f);
  CHECK(app->pending_camera()->target[2] == doctest::Approx(0.14f).epsilon(0.2));

  AppShell shell(app->make_workbench(), AppSettings{});
  std::string error;
  auto runner = HeadlessShellRunner::create(shell, 1280, 800, &error);
  REQUIRE_MESSAGE(runner != nullptr, error);
  run_frames(*runner, 1);
  CHECK(shell.settings().camera.distance < 1.0f);  // the fitted camera was applied
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 2);
  CHECK(app->sweep().phase == SweepPhase::finished);
  CHECK(app->plots().sweep_figure().plots.at(0).series.at(0).x.size() == 12);

  // Click a quarter of the way into the loss plot (top-left of the plot panel).
  const ImGuiWindow* plots = ImGui::FindWindowByName(k_plots_window);
  REQUIRE(plots != nullptr);
  const ImRect inner = plots->InnerRect;
  const float sweep_width = (inner.GetWidth() - 3.0f * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
  const ImVec2 at(inner.Min.x + 0.45f * sweep_width, inner.Min.y + 0.3f * inner.GetHeight());
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = at;
  io.MouseDown[0] = true;
  run_frames(*runner, 1);
  io.MouseDown[0] = false;
  run_frames(*runner, 1);
  REQUIRE(app->selected_value().has_value());
  const double selected = *app->selected_value();
  CHECK(selected > -3.0);
  CHECK(selected < -1.0);
  CHECK(std::fabs(selected - -2.0) > 0.05);  // not the scene's initial value: the click chose it
  REQUIRE(app->wait_until_idle(60s));
  const auto tr = app->trajectory();
  REQUIRE(tr != nullptr);
  CHECK(tr->value == doctest::Approx(selected));
  REQUIRE(tr->layout == "rigid");
  REQUIRE(tr->q.size() == 101);

  // The drawn box follows the recorded quaternion (float tolerance 1e-5) and it turns over the toss.
  float quat[2][4];
  for (int k = 0; k < 2; ++k) {
    const int frame = k == 0 ? 0 : 60;
    app->player().seek_frame(frame);
    run_frames(*runner, 1);
    const auto* box = first_of(shell.last_scene(), sg::render::Shape::kBox);
    REQUIRE(box != nullptr);
    for (int c = 0; c < 4; ++c) {
      quat[k][c] = box->quat[c];
      CHECK(box->quat[c] ==
            doctest::Approx(tr->q[static_cast<std::size_t>(frame)][3 + static_cast<std::size_t>(c)])
                .epsilon(1e-5));
    }
    CHECK(box->pos[2] == doctest::Approx(tr->q[static_cast<std::size_t>(frame)][2]).epsilon(1e-5));
  }
  const float dot = std::fabs(quat[0][0] * quat[1][0] + quat[0][1] * quat[1][1] + quat[0][2] * quat[1][2] +
                              quat[0][3] * quat[1][3]);
  CHECK(dot < 0.999f);  // rotated by more than ~5 degrees between frame 0 and frame 60
  CHECK(count_lines(shell.last_scene(), sg::render::LineKind::kTrail) >= 60);

  // Rigid trajectory plots: body stride 7 in q, 6 in v.
  const sg::plot::Figure fig = app->plots().trajectory_figure();
  REQUIRE(fig.plots.size() == 4);
  CHECK(fig.plots[0].series[2].y[60] == doctest::Approx(tr->q[60][2]));
  CHECK(fig.plots[1].series[2].y[60] == doctest::Approx(tr->v[60][2]));
}

TEST_CASE("rigid: billiards shows CFD virtual contact lines only with CFD, the plots pick a body") {
  Billiards on, off;
  simulate_billiards(true, on);
  simulate_billiards(false, off);
  const auto view = [](const Billiards& b, int frame) {
    sg::render::Scene3D scene;
    SceneViewOptions options;
    options.trajectory = &b.tr;
    options.frame = frame;
    build_scene_view(b.doc.config(), options, scene);
    return scene;
  };
  const sg::render::Scene3D with_cfd = view(on, on.frame), without = view(off, on.frame);
  MESSAGE("billiards frame " << on.frame << " (t = " << on.tr.t[static_cast<std::size_t>(on.frame)] << " s)");
  CHECK(count_lines(with_cfd, sg::render::LineKind::kVirtualForce) >= 1);
  CHECK(count_lines(without, sg::render::LineKind::kVirtualForce) == 0);
  // The balls rest on the table (z = -0.015): real contact normals in either case (a ball may hover a
  // fraction of a micrometre above it in a given frame, so at least one).
  CHECK(count_lines(with_cfd, sg::render::LineKind::kContactNormal) >= 1);
  CHECK(count_lines(without, sg::render::LineKind::kContactNormal) >= 1);
  // The table plane is drawn at its height; two spheres of radius 0.042.
  const auto* plane = first_of(with_cfd, sg::render::Shape::kPlane);
  REQUIRE(plane != nullptr);
  CHECK(plane->pos[2] == doctest::Approx(-0.015f));
  CHECK(std::count_if(with_cfd.prims.begin(), with_cfd.prims.end(), [](const auto& p) {
          return p.shape == sg::render::Shape::kSphere && std::fabs(p.size[0] - 0.042f) < 1e-6f;
        }) == 2);
  // The virtual line lies between the balls (x between the two centres, 1e-6 m slack).
  const auto& q = on.tr.q[static_cast<std::size_t>(on.frame)];
  for (const auto& line : with_cfd.lines) {
    if (line.kind != sg::render::LineKind::kVirtualForce) continue;
    const float mid = 0.5f * (line.from[0] + line.to[0]);
    CHECK(mid > static_cast<float>(q[0]) - 1e-6f);
    CHECK(mid < static_cast<float>(q[7]) + 1e-6f);
  }

  // The camera frames 4 cm balls 17.5 cm apart: a distance well under a metre, the target between them.
  const sg::render::Camera camera = fitted_camera(on.doc.config());
  CHECK(camera.distance < 1.0f);
  CHECK(camera.target[0] == doctest::Approx(-0.2875f).epsilon(0.05));

  // Body 1 (the 8-ball) in the trajectory plots: q stride 7.
  const sg::plot::Figure fig = sg::trajectory_figure(on.tr, 1);
  CHECK(fig.plots[0].series[0].y[5] == doctest::Approx(on.tr.q[5][7]));
  CHECK(fig.plots[2].series[0].y[5] == doctest::Approx(on.tr.force[5][1]));
}

TEST_CASE("rigid: every 3-D preset loads its scene and overrides") {
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();  // the robot presets import MJCF
#endif
  WorkbenchOptions options;
  options.scenes_folder = k_scenes;
  options.debounce = 10s;  // load only: no sweep starts within the test
  auto app = std::make_shared<WorkbenchApp>(options);
  int rigid = 0;
  for (const Preset& preset : preset_table()) {
    INFO(preset.name);
    REQUIRE(app->apply_preset(preset.name));
    CHECK(app->document().error().empty());
    if (app->document().config()["model"].value("type", std::string()) == "rigid") ++rigid;
  }
  CHECK(rigid == 19);
  app->cancel();
  REQUIRE(app->apply_preset("box_toss_diffmjx_softcol"));
  CHECK(app->document().config()["collision"]["mode"].get<std::string>() == "diffmjx");
  CHECK(app->document().config()["collision"]["softness"].get<double>() == 0.1);
  REQUIRE(app->apply_preset("box_toss_diffmjx"));
  CHECK(app->document().config()["integrator"]["rtol"].get<double>() == doctest::Approx(1e-7));
  CHECK(app->document().config()["integrator"]["events"].get<bool>());
  CHECK(app->document().config()["sweep"]["points"].get<int>() == 200);  // the whole sweep: ms per point
  REQUIRE(app->apply_preset("box_toss_diffmjx_plain"));
  CHECK_FALSE(
      app->document().config()["integrator"]["events"].get<bool>());  // DiffMJX's stepping, to compare
  REQUIRE(app->apply_preset("billiards_nocfd"));
  CHECK_FALSE(app->document().config()["contact"]["cfd"]["enabled"].get<bool>());
  CHECK(app->document().config()["sweep"]["points"].get<int>() == 200);
  CHECK(find_preset("billiards_cfd")->show_time > 0.0);
}
