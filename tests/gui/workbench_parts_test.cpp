// The workbench's pure parts: scene-to-3-D mapping, playback arithmetic, control generation helpers.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "engine/scene/scene.hpp"
#include "gui/document/presets.hpp"
#include "gui/document/scenes_folder.hpp"
#include "gui/panels/controls_panel.hpp"
#include "gui/panels/field_widget.hpp"
#include "gui/panels/plot_decimation.hpp"
#include "gui/view3d/scene_view_3d.hpp"
#include "gui/view3d/trajectory_player.hpp"
#include "gui/workers/sweep_worker.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

using namespace sg::gui;
namespace fs = std::filesystem;

namespace {
nlohmann::json toy_config() {
  const auto load = sg::scene::load_scene_file(sg::test::source_dir() + "/scenes/toy_point_mass.json");
  REQUIRE(load.ok());
  return load.config;
}
}  // namespace

TEST_CASE("scene view: plane, sphere at the trajectory frame, trail and a contact force line") {
  const nlohmann::json config = toy_config();
  sg::render::Scene3D scene;
  build_scene_view(config, {}, scene);
  REQUIRE(scene.prims.size() == 2);
  CHECK(scene.prims[1].pos[2] == doctest::Approx(1.0f));  // the initial position without a trajectory
  CHECK(scene.prims[1].size[0] == doctest::Approx(visual_radius(0.0)));
  CHECK(visual_radius(0.0) > 0.0f);
  CHECK(visual_radius(0.25) == doctest::Approx(0.25f));
  CHECK(scene.lines.empty());

  sg::Trajectory tr;
  tr.t = {0.0, 0.1, 0.2};
  tr.q = {{0, 0, 1.0}, {0, 0, 0.5}, {0, 0, -0.05}};
  tr.v = tr.q;
  tr.force = {{0.0}, {0.0}, {2.5}};
  SceneViewOptions options;
  options.trajectory = &tr;
  options.frame = 2;
  scene = {};
  build_scene_view(config, options, scene);
  REQUIRE(scene.prims.size() == 2);
  CHECK(scene.prims[1].pos[2] == doctest::Approx(-0.05f));
  long trails = 0, contacts = 0;
  for (const auto& line : scene.lines) {
    trails += line.kind == sg::render::LineKind::kTrail;
    contacts += line.kind == sg::render::LineKind::kContactNormal;
  }
  CHECK(trails == 2);  // frames 0-1-2
  REQUIRE(contacts == 1);
  options.frame = 1;  // no force at frame 1: no contact line
  scene = {};
  build_scene_view(config, options, scene);
  for (const auto& line : scene.lines) CHECK(line.kind != sg::render::LineKind::kContactNormal);
}

TEST_CASE("trajectory player: real-time playback with speed, stepping, scrubbing, clamping") {
  TrajectoryPlayer player;
  player.set_times({0.0, 0.1, 0.2, 0.3, 0.4});
  CHECK(player.frame() == 0);
  player.play();
  player.advance(0.25);
  CHECK(player.frame() == 2);
  player.speed = 0.5f;
  player.advance(0.2);  // 0.1 s of simulated time
  CHECK(player.frame() == 3);
  player.advance(10.0);
  CHECK(player.frame() == 4);
  CHECK_FALSE(player.playing());  // stops at the end
  player.play();                  // Play at the last frame starts over
  CHECK(player.playing());
  CHECK(player.frame() == 0);
  player.advance(10.0);
  CHECK(player.frame() == 4);
  player.step(-2);
  CHECK(player.frame() == 2);
  player.seek_frame(99);
  CHECK(player.frame() == 4);
  player.set_times({0.0, 0.1});  // a shorter trajectory clamps the position
  CHECK(player.frame() == 1);
  player.set_times({});
  CHECK(player.frame_count() == 0);
  player.play();
  CHECK_FALSE(player.playing());
}

TEST_CASE("controls: only the active contact block, adaptive keys for adaptive integrators") {
  nlohmann::json config = toy_config();
  CHECK(field_shown("contact.model", config));
  CHECK(field_shown("contact.penalty.k", config));
  CHECK_FALSE(field_shown("contact.hard.kappa", config));
  CHECK_FALSE(field_shown("integrator.rtol", config));
  CHECK(field_shown("integrator.substeps", config));
  config["integrator"]["type"] = "tsit5";
  CHECK(field_shown("integrator.rtol", config));
  CHECK(field_shown("integrator.controller.pcoeff", config));
  CHECK_FALSE(field_shown("integrator.substeps", config));
  const auto paths = expand_field_path("model.particles.*.mass", config);
  REQUIRE(paths.size() == 1);
  CHECK(paths[0] == "model.particles.0.mass");
  CHECK(expand_field_path("integrator.dt", config) == std::vector<std::string>{"integrator.dt"});
}

TEST_CASE("controls: a rigid scene shows its bodies and CFD, not the particle keys") {
  nlohmann::json config = toy_config();
  CHECK(field_shown("model.particles.*.mass", config));
  CHECK_FALSE(field_shown("model.bodies.*.shape", config));
  config["model"]["type"] = "rigid";
  config["contact"]["model"] = "mujoco";
  CHECK_FALSE(field_shown("model.particles.*.mass", config));
  CHECK(field_shown("model.bodies.*.shape", config));
  CHECK(field_shown("contact.cfd.enabled", config));
  CHECK(field_shown("contact.mujoco.impratio", config));
  CHECK_FALSE(field_shown("contact.mujoco.solref", config));  // rigid scenes set solref per geom
  config["contact"]["model"] = "none";
  CHECK_FALSE(field_shown("contact.cfd.enabled", config));
  // Hard contact: kappa and the iterations, not the particles' friction (bodies take their surfaces').
  config["contact"]["model"] = "hard";
  CHECK(field_shown("contact.hard.kappa", config));
  CHECK(field_shown("contact.hard.iterations", config));
  CHECK_FALSE(field_shown("contact.hard.friction", config));
}

TEST_CASE("controls: nested arrays expand per element, and an empty one gives no field") {
  // billiards: the cue ball has one timed force, the other ball none.
  const sg::scene::LoadResult load = sg::scene::load_scene_file(
      (std::filesystem::path(sg::test::source_dir()) / "scenes" / "billiards.json").string());
  REQUIRE(load.ok());
  const auto paths = expand_field_path("model.bodies.*.forces.*.force", load.config);
  REQUIRE(paths.size() == 1);
  CHECK(paths[0] == "model.bodies.0.forces.0.force");
  for (const auto& spec : sg::scene::scene_fields()) {
    if (spec.kind == sg::scene::FieldKind::object_array) continue;
    for (const std::string& path : expand_field_path(spec.path, load.config)) {
      INFO(path);
      CHECK(path.find('*') == std::string::npos);
      CHECK(sg::scene::get_path(load.config, path).has_value());
    }
  }
}

TEST_CASE("controls: every generated field path exists in a resolved scene, values clamp to the schema") {
  const nlohmann::json config = toy_config();
  long shown = 0;
  for (const auto& spec : sg::scene::scene_fields()) {
    if (spec.kind == sg::scene::FieldKind::object_array) continue;
    for (const std::string& path : expand_field_path(spec.path, config)) {
      INFO(path);
      CHECK(sg::scene::get_path(config, path).has_value());
      ++shown;
    }
  }
  CHECK(shown > 30);
  const sg::scene::FieldSpec* dt = sg::scene::find_field("integrator.dt");
  REQUIRE(dt != nullptr);
  CHECK(clamp_to_spec(*dt, -1.0) > 0.0);  // exclusive lower bound 0
  CHECK(clamp_to_spec(*dt, 0.25) == 0.25);
  const sg::scene::FieldSpec* restitution = sg::scene::find_field("contact.elastic.restitution");
  REQUIRE(restitution != nullptr);
  CHECK(clamp_to_spec(*restitution, 1.5) == 1.0);
  // Dragging: positive fields move by 1% of their value per pixel (a logarithmic feel across decades), also
  // from 0; signed fields by 1% of their magnitude, at least 1e-3.
  CHECK(drag_speed(*dt, 0.01) == doctest::Approx(1e-4));
  CHECK(drag_speed(*dt, 1e-6) == doctest::Approx(1e-8));
  CHECK(drag_speed(*dt, 0.0) > 0.0);
  const sg::scene::FieldSpec* pos = sg::scene::find_field("model.particles.*.pos");
  REQUIRE(pos != nullptr);
  CHECK(drag_speed(*pos, 0.0) == doctest::Approx(1e-3));
  CHECK(drag_speed(*pos, -50.0) == doctest::Approx(0.5));
}

TEST_CASE("presets: every row names an existing scene and valid overrides") {
  const fs::path scenes = fs::path(sg::test::source_dir()) / "scenes";
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();  // the robot presets import MJCF
#endif
  CHECK(preset_table().size() == 42);  // 10 particle, 19 rigid-body and 13 robot experiments
  for (const Preset& preset : preset_table()) {
    INFO(preset.name);
    const auto load = sg::scene::load_scene_file((scenes / preset.scene).string(), preset.overrides);
    CHECK(load.ok());
    CHECK(find_preset(preset.name) == &preset);
  }
  const auto files = list_scene_files(scenes);
  CHECK(files.size() >= 3);
  CHECK(std::is_sorted(files.begin(), files.end()));
}

TEST_CASE("plot thinning keeps short series, bounds long ones, keeps extremes and gaps") {
  sg::plot::Series s;
  for (int i = 0; i < 2000; ++i) {
    s.x.push_back(i);
    s.y.push_back(i == 777 ? 50.0 : (i >= 1000 && i < 1010 ? std::nan("") : std::sin(0.1 * i)));
  }
  const sg::plot::Series thin = decimate_series(s, 400);
  CHECK(thin.x.size() <= 400 + 200);  // at most a min, a max and a gap marker per bucket
  CHECK(thin.x.size() >= 200);
  CHECK(*std::max_element(thin.y.begin(), thin.y.end()) == 50.0);  // the spike survives
  CHECK(std::any_of(thin.y.begin(), thin.y.end(), [](double y) { return std::isnan(y); }));
  sg::plot::Series short_series;
  short_series.x = {0, 1, 2};
  short_series.y = {1, 2, 3};
  CHECK(decimate_series(short_series, 400).y == short_series.y);
}

TEST_CASE("a running sweep's time left is extrapolated from the points done") {
  SweepSnapshot s;
  s.result.points.resize(200);
  CHECK(s.seconds_left() < 0.0);  // no point done yet: no estimate
  s.completed = 50;
  s.elapsed_seconds = 10.0;
  CHECK(s.seconds_left() == doctest::Approx(30.0));
  s.completed = 200;
  CHECK(s.seconds_left() == 0.0);
}
