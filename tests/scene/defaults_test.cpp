// Defaults: an empty scene resolves to the documented defaults, and resolving is idempotent.
#include <doctest/doctest.h>

#include <cmath>

#include "scene_test_util.hpp"

using namespace sg::scene;
using nlohmann::json;

TEST_CASE("an empty scene is filled with every default") {
  const LoadResult r = load_scene_text("{}", "inline");
  REQUIRE(r.ok());
  const json& c = r.config;
  CHECK(c["name"] == "untitled");
  CHECK(c["description"] == "");
  CHECK(c["model"]["gravity"] == json({0.0, 0.0, -9.81}));
  CHECK(c["model"]["plane"]["enabled"] == true);
  CHECK(c["model"]["plane"]["height"] == 0.0);
  REQUIRE(c["model"]["particles"].size() == 1);
  CHECK(c["model"]["particles"][0] ==
        json({{"mass", 1.0}, {"radius", 0.0}, {"pos", {0.0, 0.0, 1.0}}, {"vel", {0.0, 0.0, 0.0}}}));
  CHECK(c["contact"]["model"] == "penalty");
  CHECK(c["contact"]["penalty"]["k"] == 50.0);
  CHECK(c["contact"]["penalty"]["c"] == 1.0);
  CHECK(c["contact"]["mujoco"]["solref"] == json({0.02, 1.0}));
  CHECK(c["contact"]["mujoco"]["solimp"] == json({0.9, 0.95, 0.001, 0.5, 2.0}));
  CHECK(c["contact"]["mujoco"]["refsafe"] == true);
  CHECK(c["contact"]["elastic"]["restitution"] == 1.0);
  CHECK(c["contact"]["elastic"]["toi"] == false);
  CHECK(c["contact"]["hard"]["kappa"] == "inf");
  CHECK(c["contact"]["hard"]["iterations"] == 10);
  CHECK(c["contact"]["hard"]["friction"] == 0.0);
  CHECK(c["integrator"]["type"] == "euler");
  CHECK(c["integrator"]["dt"] == 0.01);
  CHECK(c["integrator"]["steps"] == 100);
  CHECK(c["integrator"]["substeps"] == 1);
  CHECK(c["integrator"]["rtol"] == 1e-6);
  CHECK(c["integrator"]["atol"] == 1e-6);
  CHECK(c["integrator"]["max_steps"] == 4096);
  CHECK(c["integrator"]["initial_step"] == "dt");
  CHECK(c["integrator"]["dt_min"] == 0.0);
  CHECK(c["integrator"]["step_to_outputs"] == true);
  const json& pid = c["integrator"]["controller"];
  CHECK(pid == json({{"pcoeff", 0.0},
                     {"icoeff", 1.0},
                     {"dcoeff", 0.0},
                     {"safety", 0.9},
                     {"factor_min", 0.2},
                     {"factor_max", 10.0},
                     {"reject_factor_max", 0.9}}));
  CHECK(c["gradient"]["fd_eps"] == 1e-6);
  CHECK(c["gradient"]["through_controller"] == false);
  CHECK(c["gradient"]["control_tangents"] == false);
  CHECK(c["gradient"]["smoothing"] == json({{"samples", 0}, {"sigma", 0.05}, {"seed", 1}}));
  REQUIRE(c["loss"]["terms"].size() == 1);
  CHECK(c["loss"]["terms"][0] == json({{"quantity", "position"},
                                       {"body", 0},
                                       {"axis", "z"},
                                       {"joint", ""},
                                       {"site", ""},
                                       {"component", 0},
                                       {"kind", "value"},
                                       {"target", 0.0},
                                       {"weight", 1.0}}));
  CHECK(c["sweep"] ==
        json({{"parameter", "model.particles.0.pos.2"}, {"from", 0.0}, {"to", 1.0}, {"points", 200}}));
}

TEST_CASE("every schema key is present in a resolved config") {
  // Bodies, their forces, tree bodies, joints, geoms, actuators, excludes, pairs, equalities, sites, tendons,
  // meshes, height fields, identified numbers and rollouts default to none; one of each shows that their
  // entries are filled too.
  const LoadResult r = load_scene_text(
      R"({"model": {"bodies": [{"forces": [{}]}], "tree": {"bodies": [{"joints": [{}], "geoms": [{}]}],
          "actuators": [{}], "world_geoms": [{}], "excludes": [{}], "pairs": [{}], "equalities": [{}], "sites": [{}],
          "tendons": [{"path": [{}]}], "meshes": [{}], "hfields": [{}]}},
          "identify": {"parameters": [{}], "rollouts": [{}]}, "control": {"actuators": [{}]}})",
      "inline");
  REQUIRE(r.ok());
  for (const FieldSpec& spec : scene_fields()) {
    std::string concrete = spec.path;
    for (auto at = concrete.find('*'); at != std::string::npos; at = concrete.find('*'))
      concrete.replace(at, 1, "0");
    CHECK_MESSAGE(get_path(r.config, concrete).has_value(), concrete);
  }
}

TEST_CASE("entries of object arrays get their own defaults") {
  const LoadResult r = load_scene_text(
      R"({"model": {"particles": [{"mass": 2}, {"pos": [1, 2, 3]}]}, "loss": {"terms": [{"body": 1}]}})",
      "inline");
  REQUIRE(r.ok());
  const json& p = r.config["model"]["particles"];
  REQUIRE(p.size() == 2);
  CHECK(p[0]["mass"] == 2.0);
  CHECK(p[0]["pos"] == json({0.0, 0.0, 1.0}));
  CHECK(p[1]["mass"] == 1.0);
  CHECK(p[1]["pos"] == json({1.0, 2.0, 3.0}));
  CHECK(p[1]["vel"] == json({0.0, 0.0, 0.0}));
  CHECK(r.config["loss"]["terms"][0]["axis"] == "z");
  CHECK(r.config["loss"]["terms"][0]["body"] == 1);
}

TEST_CASE("the default name is the file's stem") {
  CHECK(load_scene_text("{}", "scenes/bouncing_ball.json").config["name"] == "bouncing_ball");
  CHECK(load_scene_text("{}", "typed in the editor").config["name"] == "untitled");
  CHECK(load_scene_text(R"({"name": "kept"})", "scenes/other.json").config["name"] == "kept");
}

TEST_CASE("resolving a resolved config gives the same config") {
  const char* text = R"({
    "name": "bounce", "model": {"particles": [{"mass": 2, "pos": [0, 0, 0.5]}, {}]},
    "contact": {"model": "hard", "hard": {"kappa": 300, "iterations": 20.0}},
    "integrator": {"type": "moreau", "steps": 50},
    "loss": {"terms": [{"body": 1, "kind": "square", "target": 1}]},
    "sweep": {"parameter": "model.particles[1].vel[2]", "from": -3, "to": -1, "points": 1}
  })";
  const LoadResult first = load_scene_text(text, "inline");
  REQUIRE(first.ok());
  CHECK(first.config["contact"]["hard"]["iterations"] == 20);
  CHECK(first.config["contact"]["hard"]["iterations"].is_number_integer());
  CHECK(first.config["sweep"]["parameter"] == "model.particles.1.vel.2");
  const LoadResult second = resolve_scene(first.config, "inline");
  REQUIRE(second.ok());
  CHECK(second.config == first.config);
  CHECK(second.config.dump() == first.config.dump());
  // And for the all-defaults config, through a dump and a parse.
  const LoadResult defaults = load_scene_text("{}", "inline");
  CHECK(load_scene_text(defaults.config.dump(2), "inline").config == defaults.config);
}

TEST_CASE("kappa accepts a number or \"inf\"") {
  CHECK(load_scene_text(R"({"contact": {"hard": {"kappa": 300}}})", "x").config["contact"]["hard"]["kappa"] ==
        300.0);
  CHECK(
      load_scene_text(R"({"contact": {"hard": {"kappa": "inf"}}})", "x").config["contact"]["hard"]["kappa"] ==
      "inf");
  json doc = {{"contact", {{"hard", {{"kappa", HUGE_VAL}}}}}};
  const LoadResult from_code = resolve_scene(doc, "code");
  REQUIRE(from_code.ok());
  CHECK(from_code.config["contact"]["hard"]["kappa"] == "inf");
}
