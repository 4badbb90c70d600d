// Joint-tree scenes (model.type "tree") in the workbench, headless: open, sweep, trajectory playback, the
// 3-D view's skeleton and geoms, camera framing, a rendered frame, refused bad files, the tree's controls.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/scene/mjcf_source.hpp"
#include "gui/app/app_shell.hpp"
#include "gui/app/headless_runner.hpp"
#include "gui/app/panel_names.hpp"
#include "gui/app/workbench_app.hpp"
#include "gui/document/scene_document.hpp"
#include "gui/panels/controls_panel.hpp"
#include "gui/view3d/scene_bounds.hpp"
#include "gui/view3d/scene_view_3d.hpp"
#include "gui/view3d/tree_body_view.hpp"
#include "headless_test_util.hpp"
#include "render/headless_context.hpp"
#include "render/renderer.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

using namespace sg::gui;
using namespace sg::gui::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using sg::render::Shape;

namespace {

const fs::path k_scenes = fs::path(sg::test::source_dir()) / "scenes";

std::vector<const sg::render::Primitive*> all_of(const sg::render::Scene3D& scene, Shape shape) {
  std::vector<const sg::render::Primitive*> found;
  for (const auto& p : scene.prims)
    if (p.shape == shape) found.push_back(&p);
  return found;
}

// Every computed point ok, with a finite loss and gradient.
void check_sweep_finished(const WorkbenchApp& app, std::size_t points) {
  CHECK(app.sweep().phase == SweepPhase::finished);
  REQUIRE(app.sweep().result.points.size() == points);
  for (const auto& p : app.sweep().result.points) {
    CHECK(p.status == "ok");
    CHECK(std::isfinite(p.loss));
    CHECK(std::isfinite(p.grad));
  }
}

// The midpoint of tree bodies a and b (scene bodies a - 1, b - 1) at a trajectory frame.
std::array<double, 3> midpoint(const sg::Trajectory& tr, int frame, int a, int b) {
  const auto& q = tr.q[static_cast<std::size_t>(frame)];
  std::array<double, 3> m{};
  for (std::size_t k = 0; k < 3; ++k)
    m[k] = 0.5 * (q[7 * static_cast<std::size_t>(a - 1) + k] + q[7 * static_cast<std::size_t>(b - 1) + k]);
  return m;
}

// Pixel (x, y from the top) where the camera projects a world point in a w x h image.
std::array<int, 2> project(const sg::render::Camera& camera, const float p[3], int w, int h) {
  const sg::render::Vec4f c =
      sg::render::camera_view_projection(camera, w, h) * sg::render::Vec4f{p[0], p[1], p[2], 1};
  return {static_cast<int>((c[0] / c[3] + 1.0f) * 0.5f * static_cast<float>(w)),
          static_cast<int>((1.0f - c[1] / c[3]) * 0.5f * static_cast<float>(h))};
}

}  // namespace

TEST_CASE("tree: the pendulum chain opens, sweeps to the end and its trajectory moves the drawn links") {
  auto app = make_scene_app("pendulum_chain.json", {"sweep.points=9"});
  CHECK(app->document().problem()->data.type == sg::ModelType::tree);
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  run_frames(*runner, 1);
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 2);
  check_sweep_finished(*app, 9);
  // The default trajectory at the scene's own angle (0.9 rad), recorded as rigid poses of the 4 bodies.
  const auto tr = app->trajectory();
  REQUIRE(tr != nullptr);
  CHECK(tr->value == doctest::Approx(0.9));
  REQUIRE(tr->layout == "tree");
  REQUIRE(tr->q.size() == 201);
  REQUIRE(tr->q[0].size() == 4 * 7);
  // Links from the shoulder's body to each child: three capsules; the first joins link1 and link2.
  for (const int frame : {0, 150}) {
    app->player().seek_frame(frame);
    run_frames(*runner, 1);
    const auto links = all_of(shell.last_scene(), Shape::kCapsule);
    REQUIRE(links.size() == 3);
    const auto m = midpoint(*tr, frame, 1, 2);
    for (std::size_t k = 0; k < 3; ++k) CHECK(links[0]->pos[k] == doctest::Approx(m[k]).epsilon(1e-5));
    CHECK(links[0]->size[1] == doctest::Approx(0.15f));  // half of the 0.3 m link
  }
  double swing = 0.0;  // how far link2's midpoint moves from its start over the run
  for (int f = 0; f < static_cast<int>(tr->q.size()); ++f)
    swing = std::max(swing, std::fabs(midpoint(*tr, f, 1, 2)[0] - midpoint(*tr, 0, 1, 2)[0]));
  CHECK(swing > 0.1);
  // The trail of the tip (the only leaf) up to frame 150.
  const auto trails = std::count_if(shell.last_scene().lines.begin(), shell.last_scene().lines.end(),
                                    [](const auto& l) { return l.kind == sg::render::LineKind::kTrail; });
  CHECK(trails == 150);
  // The trajectory plots read the tree bodies like rigid ones, and show the body the loss scores first (the
  // tip, scene body 3).
  CHECK(app->plots().body() == 3);
  const sg::plot::Figure fig = app->plots().trajectory_figure();
  REQUIRE_FALSE(fig.plots.empty());
  CHECK(fig.plots[0].series.at(0).y.at(150) == doctest::Approx(tr->q[150][3 * 7]));
}

TEST_CASE("tree: the 2-D map and Descend run on the pendulum chain") {
  auto app =
      make_scene_app("pendulum_chain.json", {"sweep.points=5", "optimize.starts=2", "optimize.steps=5"});
  REQUIRE(app->wait_until_idle(60s));
  app->run_map({"model.tree.bodies.0.joints.0.qpos", 0.2, 1.6, 4},
               {"model.tree.bodies.0.joints.0.damping", 0.02, 0.1, 3});
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->map().phase == SweepPhase::finished);
  REQUIRE(app->map().result.points.size() == 12);
  for (const sg::GridPoint& p : app->map().result.points) {
    CHECK(p.status == "ok");
    CHECK(std::isfinite(p.gy));
  }
  app->descend();
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->descent().phase == SweepPhase::finished);
  CHECK(app->descent().result.paths.size() == 2);
}

TEST_CASE("tree: the crane imported from MJCF opens in the workbench and sweeps") {
#ifndef SOFTGRAD_HAVE_MJCF
  std::printf("SOFTGRAD_TEST_SKIPPED: this build has no MJCF import (libmujoco-dev)\n");
  return;
#else
  sg::mjcf::register_importer();
  auto app = make_scene_app("crane.json", {"sweep.points=7"});
  CHECK(app->document().config()["model"]["type"] == "tree");
  REQUIRE(app->wait_until_idle(60s));
  check_sweep_finished(*app, 7);
  const auto tr = app->trajectory();
  REQUIRE(tr != nullptr);
  REQUIRE(tr->layout == "tree");
  CHECK(tr->q[0].size() == 3 * 7);
  // The imported geoms, not the skeleton: the trolley's box, the cable's capsule (1 m, from the trolley's
  // origin down) and the load's sphere.
  sg::render::Scene3D scene;
  build_scene_view(*app->document().problem(), {}, scene);
  const auto links = all_of(scene, Shape::kCapsule);
  REQUIRE(links.size() == 1);
  CHECK(links[0]->size[1] == doctest::Approx(0.5f));
  CHECK(all_of(scene, Shape::kSphere).size() == 1);
  CHECK(all_of(scene, Shape::kBox).size() == 1);
  // The camera frames the crane (origin 2 m up, load at 1 m), not the particle default.
  REQUIRE(app->pending_camera().has_value());
  CHECK(app->pending_camera()->target[2] > 1.2f);
  CHECK(app->pending_camera()->target[2] < 1.8f);
  CHECK(app->pending_camera()->distance < 7.0f);
#endif
}

TEST_CASE("tree: bodies without geoms are drawn as links and centre-of-mass spheres") {
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "pendulum_chain.json").string()), doc.error());
  sg::render::Scene3D scene;
  build_scene_view(*doc.problem(), {}, scene);
  // Before any trajectory the start: shoulder at (0, 0, 1.5), turned 0.9 rad about y.
  const auto links = all_of(scene, Shape::kCapsule);
  const auto spheres = all_of(scene, Shape::kSphere);
  REQUIRE(links.size() == 3);
  REQUIRE(spheres.size() == 4);
  const double s = std::sin(0.9), c = std::cos(0.9);
  // link1's centre of mass 0.15 m down its rod, link2's origin 0.3 m down.
  CHECK(spheres[0]->pos[0] == doctest::Approx(-0.15 * s).epsilon(1e-5));
  CHECK(spheres[0]->pos[2] == doctest::Approx(1.5 - 0.15 * c).epsilon(1e-5));
  CHECK(links[0]->pos[0] == doctest::Approx(-0.15 * s).epsilon(1e-5));
  CHECK(links[0]->pos[2] == doctest::Approx(1.5 - 0.15 * c).epsilon(1e-5));
  // The capsule's axis (its local z) lies along the rod, (-sin 0.9, 0, -cos 0.9).
  const float* q = links[0]->quat;
  const double axis_x = 2.0 * (q[1] * q[3] + q[0] * q[2]), axis_z = 1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2]);
  CHECK(std::fabs(-s * axis_x - c * axis_z) == doctest::Approx(1.0).epsilon(1e-5));
  // The 0.1 kg tip's sphere is smaller than the 1 kg rods' ones; the links are thinner than both.
  CHECK(spheres[3]->size[0] < spheres[0]->size[0]);
  CHECK(links[0]->size[0] < spheres[3]->size[0]);
  // Without a ground geom, a reference grid on the world's xy plane.
  const auto planes = all_of(scene, Shape::kPlane);
  REQUIRE(planes.size() == 1);
  CHECK(planes[0]->pos[2] == 0.0f);
}

TEST_CASE("tree: geoms replace a body's skeleton, posed in its frame, and a world plane is the ground") {
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "pendulum_chain.json").string()), doc.error());
  // The shipped trees have no geoms yet: give link2 a box 0.15 m down its frame and the world a plane.
  auto problem = std::make_unique<sg::Problem>(*doc.problem());
  sg::TreeConstraintModel<double>& con = problem->data.tree.con;
  con.ngeom = 2;
  con.geom[0].type = sg::GeomType::plane;
  con.geom[0].body = 0;
  con.geom[0].pos = {0.0, 0.0, 0.2};
  con.geom[1].type = sg::GeomType::box;
  con.geom[1].body = 2;
  con.geom[1].pos = {0.0, 0.0, -0.15};
  con.geom[1].size = {0.02, 0.03, 0.15};
  sg::render::Scene3D scene;
  build_scene_view(*problem, {}, scene);
  const auto boxes = all_of(scene, Shape::kBox), planes = all_of(scene, Shape::kPlane);
  REQUIRE(boxes.size() == 1);
  REQUIRE(planes.size() == 1);  // the plane geom, no reference grid
  CHECK(planes[0]->pos[2] == doctest::Approx(0.2f));
  CHECK(planes[0]->size[0] > 0.9f);  // as wide as the swing
  // link2's origin 0.3 m down the turned shoulder, the box's centre 0.15 m further along the same rod.
  const double s = std::sin(0.9), c = std::cos(0.9);
  CHECK(boxes[0]->pos[0] == doctest::Approx(-0.45 * s).epsilon(1e-5));
  CHECK(boxes[0]->pos[2] == doctest::Approx(1.5 - 0.45 * c).epsilon(1e-5));
  CHECK(boxes[0]->size[1] == doctest::Approx(0.03f));
  CHECK(boxes[0]->quat[0] == doctest::Approx(std::cos(0.45)).epsilon(1e-5));
  CHECK(std::fabs(boxes[0]->quat[2]) == doctest::Approx(std::sin(0.45)).epsilon(1e-5));
  // link2 has a geom now: no link into it and no sphere for it.
  CHECK(all_of(scene, Shape::kCapsule).size() == 2);
  CHECK(all_of(scene, Shape::kSphere).size() == 3);
}

TEST_CASE("tree: the camera frames the chain and the sphere it swings through") {
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "pendulum_chain.json").string()), doc.error());
  const SceneBounds bounds = problem_scene_bounds(*doc.problem());
  REQUIRE_FALSE(bounds.empty);
  // Three 0.3 m rods turning about the shoulder at (0, 0, 1.5) reach 0.9 m from it either way, and down,
  // not above the shoulder; their hinges all turn about y, so they stay in the x-z plane.
  CHECK(bounds.min[0] < -0.9f);
  CHECK(bounds.max[0] > 0.9f);
  CHECK(bounds.max[0] < 1.0f);
  CHECK(bounds.min[2] < 0.6f);
  CHECK(bounds.max[2] < 1.6f);
  CHECK(bounds.max[1] < 0.1f);
  CHECK(bounds.min[1] > -0.1f);
  const sg::render::Camera camera = fitted_camera(bounds);
  CHECK(std::fabs(camera.target[0]) < 0.05f);
  CHECK(camera.target[2] > 0.9f);
  CHECK(camera.target[2] < 1.2f);
  CHECK(camera.distance < 7.0f);
  // Particle scenes keep the default camera.
  REQUIRE(doc.open((k_scenes / "toy_point_mass.json").string()));
  CHECK(problem_scene_bounds(*doc.problem()).empty);
}

TEST_CASE("tree: a rendered frame shows the links where the camera projects them") {
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "pendulum_chain.json").string()), doc.error());
  constexpr int k_w = 320, k_h = 240;
  std::string error;
  auto context = sg::render::HeadlessContext::create(k_w, k_h, &error);
  REQUIRE_MESSAGE(context != nullptr, error);
  auto renderer = sg::render::Renderer::create(&error);
  REQUIRE_MESSAGE(renderer != nullptr, error);
  const sg::render::Camera camera = fitted_camera(problem_scene_bounds(*doc.problem()));
  const auto render = [&](const sg::render::Scene3D& scene) {
    context->bind_frame_target();
    renderer->draw(scene, camera, k_w, k_h);
    context->end_frame();
    return context->read_rgba();
  };
  sg::render::Scene3D tree, ground;
  build_scene_view(*doc.problem(), {}, tree);
  add_tree_ground(doc.problem()->data.tree, 2.0f, 0.25f, ground);
  const auto with = render(tree), without = render(ground);
  const auto links = all_of(tree, Shape::kCapsule);
  REQUIRE(links.size() == 3);
  for (const auto* link : links) {
    const auto [x, y] = project(camera, link->pos, k_w, k_h);
    REQUIRE(x >= 0);
    REQUIRE(x < k_w);
    REQUIRE(y >= 0);
    REQUIRE(y < k_h);
    const std::size_t i = (static_cast<std::size_t>(y) * k_w + static_cast<std::size_t>(x)) * 4;
    const int difference = std::abs(with[i] - without[i]) + std::abs(with[i + 1] - without[i + 1]) +
                           std::abs(with[i + 2] - without[i + 2]);
    INFO("link centre at pixel " << x << ", " << y);
    CHECK(difference > 30);
  }
  std::size_t differing = 0;
  for (std::size_t i = 0; i < with.size(); i += 4) differing += with[i] != without[i] ? 1 : 0;
  MESSAGE("pixels the tree covers: " << differing);
  CHECK(differing > 500);
}

TEST_CASE("tree: a bad tree file or edit leaves the open scene untouched") {
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "pendulum_chain.json").string()), doc.error());
  const auto problem = doc.problem();
  const long revision = doc.revision();
  // A body whose parent does not exist.
  nlohmann::json bad = doc.as_written();
  bad["model"]["tree"]["bodies"][1]["parent"] = 7;
  CHECK_FALSE(doc.open_text(bad.dump(), "bad_tree.json"));
  CHECK_FALSE(doc.error().empty());
  MESSAGE(doc.error());
  CHECK_FALSE(doc.open((k_scenes / "no_such_tree.json").string()));
  CHECK_FALSE(doc.set("model.tree.bodies.1.parent", 7));
  CHECK(doc.problem() == problem);
  CHECK(doc.revision() == revision);
  CHECK(doc.source().find("pendulum_chain.json") != std::string::npos);
  // The edited copy keeps the bad value until it is fixed; then edits of tree numbers are taken.
  REQUIRE(doc.set("model.tree.bodies.1.parent", 0));
  REQUIRE(doc.set("model.tree.bodies.0.joints.0.damping", 0.1));
  CHECK(doc.problem()->data.tree.joint[0].damping == 0.1);
  // A particle scene that turns into a tree without bodies is refused; the particles stay.
  REQUIRE(doc.open((k_scenes / "toy_point_mass.json").string()));
  CHECK_FALSE(doc.set("model.type", "tree"));
  CHECK(doc.problem()->data.type == sg::ModelType::particles);
}

TEST_CASE("controls: a tree scene shows its model.tree rows, not the particle, body or plane keys") {
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "pendulum_chain.json").string()), doc.error());
  const nlohmann::json& tree = doc.edited();
  CHECK(field_shown("model.tree.bodies.*.joints.*.qpos", tree));
  CHECK(field_shown("model.tree.bodies.*.mass", tree));
  CHECK(field_shown("model.gravity", tree));
  CHECK_FALSE(field_shown("model.particles.*.mass", tree));
  CHECK_FALSE(field_shown("model.bodies.*.shape", tree));
  CHECK_FALSE(field_shown("model.plane.height", tree));
  CHECK_FALSE(field_shown("contact.mujoco.solref", tree));  // a tree's contacts take their geoms' solref
  // Its MuJoCo contact options and Contacts From Distance (with contact.model mujoco).
  SceneDocument contacts;
  REQUIRE(contacts.open((k_scenes / "pendulum_chain.json").string(), {"contact.model=mujoco"}));
  for (const char* key : {"contact.cfd.enabled", "contact.cfd.solimp", "contact.mujoco.impratio",
                          "contact.mujoco.iterations", "contact.mujoco.refsafe"})
    CHECK_MESSAGE(field_shown(key, contacts.edited()), key);
  // Three hinges (the tip is welded): one start angle each.
  const auto qpos = expand_field_path("model.tree.bodies.*.joints.*.qpos", tree);
  REQUIRE(qpos.size() == 3);
  CHECK(qpos[0] == "model.tree.bodies.0.joints.0.qpos");
  REQUIRE(doc.open((k_scenes / "toy_point_mass.json").string()));
  CHECK_FALSE(field_shown("model.tree.bodies.*.mass", doc.edited()));
  CHECK(field_shown("model.plane.height", doc.edited()));
}

TEST_CASE("tree: the finger push's plots show the box, its contact force holding it up") {
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();
  auto app = make_scene_app("finger_push.json", {"sweep.points=5"});
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  run_frames(*runner, 1);
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 2);
  REQUIRE(app->trajectory() != nullptr);
  // The loss scores the box (scene body 2): the plots show it first. At the scene's own shoulder target
  // (0) the finger never reaches it, and at rest on the floor its contact force is its weight,
  // 0.2 kg x 9.81 m/s^2 = 1.962 N (the pyramid's edge forces sum to the normal force); 0.1% for the last
  // of its settling after 1.5 s.
  CHECK(app->plots().body() == 2);
  const sg::plot::Figure fig = app->plots().trajectory_figure();
  REQUIRE(fig.plots.size() >= 3);
  CHECK(fig.plots[2].series.at(0).y.back() == doctest::Approx(0.2 * 9.81).epsilon(1e-3));
  // Its contacts are drawn at the last frame: the box's corners on the floor.
  app->player().seek_frame(static_cast<int>(app->trajectory()->t.size()) - 1);
  run_frames(*runner, 1);
  const auto normals =
      std::count_if(shell.last_scene().lines.begin(), shell.last_scene().lines.end(),
                    [](const auto& l) { return l.kind == sg::render::LineKind::kContactNormal; });
  CHECK(normals >= 4);
#else
  MESSAGE("skipped: this build has no MJCF import (libmujoco)");
#endif
}

TEST_CASE("tree: the camera frames the humanoid by its joints' ranges, above the floor") {
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "humanoid_fall.json").string()), doc.error());
  const SceneBounds b = problem_scene_bounds(*doc.problem());
  // Its limbs are limited hinges: sampled within their ranges they reach about 1 m sideways (measured
  // -1.03 to 1.03 in x, -1.12 to 1.05 in y), where the links' lengths alone gave 2 m either way and framed
  // it small; nothing goes below the floor at z = 0 (it was -0.74); the head at 1.78 m stays in view.
  CHECK(b.max[0] - b.min[0] < 2.5f);
  CHECK(b.max[1] - b.min[1] < 2.5f);
  CHECK(b.max[0] - b.min[0] > 1.0f);
  CHECK(b.min[2] >= 0.0f);
  CHECK(b.max[2] > 1.6f);
#else
  MESSAGE("skipped: this build has no MJCF import (libmujoco)");
#endif
}

TEST_CASE("tree: tendons are drawn along their wrapped paths, sites as small spheres") {
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "mpc_arm26_reach.json").string()), doc.error());
  sg::render::Scene3D scene;
  build_scene_view(*doc.problem(), {}, scene);
  // arm26's 11 sites and the scene's hand; 2 spheres' worth of geoms is none (capsules and cylinders).
  const auto spheres = all_of(scene, Shape::kSphere);
  CHECK(spheres.size() == 12);
  // Six tendons: SF, SE, EF, EE each site - wrap (2 tangent points) - site or straight (3 or 1 segments),
  // BF and BE through two wraps; at the start (both joints at 0) every segment ends on a site or a tangent
  // point, and the hand site is at the forearm's tip (1, 0, 0).
  std::size_t tendon_lines = 0;
  for (const auto& line : scene.lines)
    if (line.kind == sg::render::LineKind::kCustom) ++tendon_lines;
  CHECK(tendon_lines >= 6);
  bool hand = false;
  for (const auto* s : spheres)
    hand = hand || (std::fabs(s->pos[0] - 1.0f) < 1e-6f && std::fabs(s->pos[1]) < 1e-6f);
  CHECK(hand);
  // The first tendon's path (SF: s0 at (-0.15, 0, 0) around the shoulder cylinder to s1 at (0.15, 0.06, 0))
  // starts at s0 and touches the cylinder (radius 0.1) tangentially.
  const auto& first = scene.lines.front();
  CHECK(first.from[0] == doctest::Approx(-0.15f));
  CHECK(std::hypot(first.to[0], first.to[1]) == doctest::Approx(0.1f).epsilon(1e-5));
#else
  MESSAGE("SOFTGRAD_TEST_SKIPPED: built without libmujoco (the arm26 scene imports MJCF)");
#endif
}

TEST_CASE(
    "tree: a MuJoCo model dropped on the window opens as a scene; a bad one leaves the scene as it was") {
#ifndef SOFTGRAD_HAVE_MJCF
  std::printf("SOFTGRAD_TEST_SKIPPED: this build has no MJCF import (libmujoco-dev)\n");
  return;
#else
  sg::mjcf::register_importer();
  auto app = make_scene_app("toss_box_diffmjx.json", {"sweep.points=5"});
  Workbench workbench = app->make_workbench();
  REQUIRE(workbench.open_dropped);
  // The model file itself, as the GLFW host hands a drop over (glfw_app.cpp).
  workbench.open_dropped((k_scenes / "mjcf" / "pendulum_chain.xml").string());
  CHECK(app->document().config()["model"]["type"] == "tree");
  CHECK(app->document().config()["name"] == "pendulum_chain");
  REQUIRE(app->wait_until_idle(60s));
  // A file that is not a model: refused with the reason, the chain stays open.
  const fs::path bad = fs::path(sg::test::binary_dir()) / "test_gui_tmp" / "dropped_not_a_model.xml";
  fs::create_directories(bad.parent_path());
  std::FILE* f = std::fopen(bad.string().c_str(), "w");
  REQUIRE(f != nullptr);
  std::fputs("<mujoco><worldbody>", f);
  std::fclose(f);
  workbench.open_dropped(bad.string());
  CHECK(app->document().config()["name"] == "pendulum_chain");
  CHECK(app->message().find("could not open dropped_not_a_model.xml") != std::string::npos);
  // With edits in the controls the drop asks first, as the Open button does.
  ControlsRequest edit;
  edit.edits.push_back({"model.gravity.2", -5.0});
  app->apply(edit);
  REQUIRE(app->edits_since_open() == 1);
  workbench.open_dropped((k_scenes / "toss_box_diffmjx.json").string());
  CHECK(app->switch_pending());
  CHECK(app->document().config()["name"] == "pendulum_chain");
#endif
}

TEST_CASE("tree: an MJCF file's keyframes are offered, and picking one opens the scene from it") {
#ifndef SOFTGRAD_HAVE_MJCF
  std::printf("SOFTGRAD_TEST_SKIPPED: this build has no MJCF import (libmujoco-dev)\n");
  return;
#else
  sg::mjcf::register_importer();
  const fs::path file = fs::path(sg::test::binary_dir()) / "test_gui_tmp" / "keyframes_arm.xml";
  fs::create_directories(file.parent_path());
  std::FILE* f = std::fopen(file.string().c_str(), "w");
  REQUIRE(f != nullptr);
  std::fputs(R"(<mujoco><worldbody><body name="arm"><joint name="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.03"/></body></worldbody>
      <keyframe><key name="lifted" qpos="0.7"/><key qpos="-0.4" qvel="2"/></keyframe></mujoco>)",
             f);
  std::fclose(f);
  auto app = make_scene_app("pendulum_chain.json", {"sweep.points=5"});
  REQUIRE_MESSAGE(app->open_scene(file.string()), app->document().error());
  // The file's keys as model.keyframe names them: a name, an unnamed key's index.
  CHECK(sg::scene::mjcf_keyframes(app->document().config(), app->document().source()) ==
        std::vector<std::string>{"lifted", "1"});
  CHECK(sg::scene::mjcf_keyframes(nlohmann::json::object(), "x.json").empty());
  const auto start = [&] {
    return app->document().config()["model"]["tree"]["bodies"][0]["joints"][0]["qpos"].get<double>();
  };
  CHECK(start() == 0.0);
  // The controls panel draws its keyframe row over the open model (and reads the file once).
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 800);
  run_frames(*runner, 2);
  CHECK(drawn_this_frame(k_controls_window));
  // What the row's combo asks for when a key is picked: the scene again, from that key.
  const auto pick = [&](const std::string& assignment) {
    ControlsRequest request;
    request.open_file = app->document().source();
    request.open_overrides = {assignment};
    app->apply(request);
  };
  pick("model.keyframe=\"lifted\"");
  CHECK(app->document().config()["model"]["keyframe"] == "lifted");
  CHECK(start() == 0.7);
  pick("model.keyframe=\"1\"");
  CHECK(start() == -0.4);
  CHECK(app->document().config()["model"]["tree"]["bodies"][0]["joints"][0]["qvel"] == 2.0);
  pick("model.keyframe=\"\"");
  CHECK(start() == 0.0);
  run_frames(*runner, 2);
  REQUIRE(app->wait_until_idle(60s));
#endif
}

#ifdef SOFTGRAD_HAVE_MJCF
TEST_CASE("tree: a height field is drawn as its grid's triangles, at the field's heights") {
  sg::mjcf::register_importer();
  SceneDocument doc;
  REQUIRE_MESSAGE(doc.open((k_scenes / "terrain_roll.json").string()), doc.error());
  sg::render::Scene3D scene;
  build_scene_view(*doc.problem(), {}, scene);
  const auto drawn = all_of(scene, Shape::kMesh);
  REQUIRE(drawn.size() == 1);  // the terrain; the ball is a sphere
  REQUIRE(drawn[0]->mesh >= 0);
  const sg::render::MeshData& mesh = *scene.meshes[static_cast<std::size_t>(drawn[0]->mesh)];
  CHECK(mesh.indices.size() == 32u * 32u * 6u);  // 33 x 33 points: two triangles per cell
  // The vertices span the field's 3 m x 3 m and its heights (terrain.png: elevations 0 to 1 of 0.2 m).
  float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v)
    for (std::size_t k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], mesh.vertices[6 * v + k]);
      hi[k] = std::max(hi[k], mesh.vertices[6 * v + k]);
    }
  CHECK(lo[0] == doctest::Approx(-1.5f));
  CHECK(hi[1] == doctest::Approx(1.5f));
  CHECK(lo[2] == doctest::Approx(0.0f));
  CHECK(hi[2] == doctest::Approx(0.2f));
  CHECK(all_of(scene, Shape::kSphere).size() == 1);
}
#endif
