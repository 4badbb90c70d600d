// Every kind of error: the path it names, the message it gives, and that all are collected in one pass.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "scene_test_util.hpp"

using namespace sg::scene;
using namespace sg::scene::test;
using nlohmann::json;

TEST_CASE("malformed JSON reports line and column from the byte offset") {
  const std::string text = "{\n  \"integrator\": {\n    \"dt\": 0.1,,\n  }\n}\n";
  const LoadResult r = load_scene_text(text, "scenes/x.json");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].line == 3);
  CHECK(r.errors[0].column == 15);  // the second comma
  CHECK(r.errors[0].path == "");
  CHECK(r.format_errors().rfind("scenes/x.json:3:15: malformed JSON: ", 0) == 0);
  CHECK(contains(r.format_errors(), "unexpected ','"));
  // A broken first line, and the end of the input.
  const LoadResult first = load_scene_text("{x}", "a.json");
  REQUIRE(first.errors.size() == 1);
  CHECK(first.errors[0].line == 1);
  CHECK(first.errors[0].column == 2);
  const LoadResult truncated = load_scene_text("{\"a\": [1,\n2", "b.json");
  REQUIRE(truncated.errors.size() == 1);
  CHECK(truncated.errors[0].line == 2);
  CHECK(contains(truncated.errors[0].message, "malformed JSON"));
}

TEST_CASE("unknown keys are reported with a suggestion") {
  const LoadResult r =
      load_scene_text(R"({"contact": {"modle": "hard"}, "integrater": {}})", "scenes/x.json");
  CHECK(message_at(r, "contact.modle") == "unknown key (did you mean \"contact.model\"?)");
  CHECK(message_at(r, "integrater") == "unknown key (did you mean \"integrator\"?)");
  CHECK(contains(r.format_errors(),
                 "scenes/x.json: contact.modle: unknown key (did you mean \"contact.model\"?)\n"));
  // A key written at the wrong level points at where it belongs.
  CHECK(message_at(load_scene_text(R"({"contact": {"dt": 1}})", "x"), "contact.dt") ==
        "unknown key (did you mean \"integrator.dt\"?)");
  // Nothing close: the valid keys are listed.
  CHECK(message_at(load_scene_text(R"({"sweep": {"zzzzzz": 1}})", "x"), "sweep.zzzzzz") ==
        "unknown key (valid keys here: parameter, from, to, points)");
  // Inside an array entry the index is part of the path.
  CHECK(message_at(load_scene_text(R"({"model": {"particles": [{}, {"mas": 1}]}})", "x"),
                   "model.particles.1.mas") == "unknown key (did you mean \"model.particles.1.mass\"?)");
}

TEST_CASE("values of the wrong type") {
  const LoadResult r = load_scene_text(
      R"({"integrator": {"dt": "fast"}, "model": {"plane": {"enabled": 1}, "gravity": [0, -9.81]},
          "name": 7, "contact": []})",
      "x");
  CHECK(message_at(r, "integrator.dt") == "expected a number > 0, got \"fast\"");
  CHECK(message_at(r, "model.plane.enabled") == "expected true or false, got 1");
  CHECK(message_at(r, "model.gravity") == "expected an array of 3 numbers, got [0,-9.81]");
  CHECK(message_at(r, "name") == "expected a string, got 7");
  CHECK(message_at(r, "contact") == "expected an object, got []");
  const LoadResult component = load_scene_text(R"({"model": {"particles": [{"vel": [0, "up", 0]}]}})", "x");
  CHECK(message_at(component, "model.particles.0.vel.1") == "expected a number, got \"up\"");
}

TEST_CASE("values out of range and non-integers") {
  const LoadResult r = load_scene_text(
      R"({"integrator": {"dt": -0.1, "steps": 2.5, "substeps": 0, "controller": {"safety": 1.5}},
          "contact": {"elastic": {"restitution": 2}, "hard": {"iterations": 1001, "kappa": 0}},
          "model": {"particles": [{"mass": 0}]}})",
      "scenes/x.json");
  CHECK(contains(r.format_errors(), "scenes/x.json: integrator.dt: expected a number > 0, got -0.1\n"));
  CHECK(message_at(r, "integrator.steps") == "expected an integer in [1, 10000000], got 2.5");
  CHECK(message_at(r, "integrator.substeps") == "expected an integer in [1, 1000000], got 0");
  CHECK(message_at(r, "integrator.controller.safety") == "expected a number in (0, 1], got 1.5");
  CHECK(message_at(r, "contact.elastic.restitution") == "expected a number in [0, 1], got 2");
  CHECK(message_at(r, "contact.hard.iterations") == "expected an integer in [1, 1000], got 1001");
  CHECK(message_at(r, "contact.hard.kappa") == "expected a number > 0 or \"inf\", got 0");
  CHECK(message_at(r, "model.particles.0.mass") == "expected a number > 0, got 0");
  const LoadResult seed = load_scene_text(R"({"gradient": {"smoothing": {"seed": -1}}})", "x");
  CHECK(message_at(seed, "gradient.smoothing.seed") == "expected an integer >= 0, got -1");
}

TEST_CASE("a bad choice lists the choices and suggests the closest") {
  const LoadResult r =
      load_scene_text(R"({"contact": {"model": "hrd"}, "integrator": {"type": 4}})", "scenes/x.json");
  CHECK(contains(
      r.format_errors(),
      "scenes/x.json: contact.model: expected one of none, penalty, mujoco, elastic, hard; got \"hrd\" "
      "(did you mean \"hard\"?)\n"));
  CHECK(message_at(r, "integrator.type") ==
        "expected one of euler, moreau, rk4, bosh3, dopri5, tsit5, dopri8; got 4");
}

TEST_CASE("sweep range: from must be below to, and at least one point") {
  const LoadResult r = load_scene_text(R"({"sweep": {"from": 2, "to": 1}})", "scenes/x.json");
  CHECK(contains(r.format_errors(), "scenes/x.json: sweep.from: must be less than sweep.to (got 2 > 1)\n"));
  CHECK(message_at(load_scene_text(R"({"sweep": {"from": 1, "to": 1}})", "x"), "sweep.from") ==
        "must be less than sweep.to (got 1 = 1)");
  // A single point may sit on a degenerate range.
  CHECK(load_scene_text(R"({"sweep": {"from": 1, "to": 1, "points": 1}})", "x").ok());
  CHECK(message_at(load_scene_text(R"({"sweep": {"from": 2, "to": 1, "points": 1}})", "x"), "sweep.from") ==
        "must not exceed sweep.to (got 2 > 1)");
  CHECK(message_at(load_scene_text(R"({"sweep": {"points": 0}})", "x"), "sweep.points") ==
        "expected an integer in [1, 1000000], got 0");
}

TEST_CASE("sweep parameter must be differentiable and is matched to the nearest path") {
  const LoadResult typo = load_scene_text(R"({"sweep": {"parameter": "model.particles.0.poss.2"}})", "x");
  CHECK(message_at(typo, "sweep.parameter") ==
        "\"model.particles.0.poss.2\" is not a differentiable parameter (did you mean "
        "\"model.particles.0.pos.2\"?)");
  const LoadResult missing_particle =
      load_scene_text(R"({"sweep": {"parameter": "model.particles.3.mass"}})", "x");
  CHECK(message_at(missing_particle, "sweep.parameter") ==
        "\"model.particles.3.mass\" is not a differentiable parameter (did you mean "
        "\"model.particles.0.mass\"?)");
  CHECK(issue_at(load_scene_text(R"({"sweep": {"parameter": "integrator.dt"}})", "x"), "sweep.parameter"));
  CHECK(load_scene_text(R"({"sweep": {"parameter": "contact.penalty.k"}})", "x").ok());
}

TEST_CASE("loss terms must name an existing particle") {
  const LoadResult r = load_scene_text(R"({"loss": {"terms": [{"body": 0}, {"body": 1}]}})", "x");
  CHECK(issue_at(r, "loss.terms.0.body") == nullptr);
  CHECK(message_at(r, "loss.terms.1.body") == "particle index 1 out of range (the scene has 1 particle)");
  CHECK(message_at(load_scene_text(R"({"loss": {"terms": []}})", "x"), "loss.terms") ==
        "expected an array of at least 1 objects, got 0 entries");
}

TEST_CASE("particle count is bounded") {
  json doc = {{"model", {{"particles", json::array()}}}};
  for (int i = 0; i < 17; ++i) doc["model"]["particles"].push_back(json::object());
  CHECK(message_at(resolve_scene(doc, "x"), "model.particles") ==
        "expected an array of 1 to 16 objects, got 17 entries");
  doc["model"]["particles"].erase(16);
  CHECK(resolve_scene(doc, "x").ok());
  CHECK(message_at(load_scene_text(R"({"model": {"particles": [3]}})", "x"), "model.particles.0") ==
        "expected an object, got 3");
}

TEST_CASE("impulse contact models require their integrator") {
  const LoadResult elastic =
      load_scene_text(R"({"contact": {"model": "elastic"}, "integrator": {"type": "rk4"}})", "x");
  CHECK(message_at(elastic, "integrator.type") ==
        "contact.model \"elastic\" requires integrator.type \"euler\", got \"rk4\" (choose "
        "integrator.type=euler)");
  const LoadResult hard = load_scene_text(R"({"contact": {"model": "hard"}})", "x");
  CHECK(contains(message_at(hard, "integrator.type"), "choose integrator.type=moreau"));
  CHECK(load_scene_text(R"({"contact": {"model": "hard"}, "integrator": {"type": "moreau"}})", "x").ok());
  CHECK(load_scene_text(R"({"contact": {"model": "mujoco"}, "integrator": {"type": "tsit5"}})", "x").ok());
}

TEST_CASE("MuJoCo solref signs and solimp components") {
  const LoadResult mixed = load_scene_text(R"({"contact": {"mujoco": {"solref": [0.02, -1]}}})", "x");
  CHECK(message_at(mixed, "contact.mujoco.solref") ==
        "mixed signs: use both > 0 (timeconst, dampratio) or both <= 0 (-stiffness, -damping), got "
        "[0.02,-1.0]");
  CHECK(load_scene_text(R"({"contact": {"mujoco": {"solref": [-1000, -10]}}})", "x").ok());
  const LoadResult solimp =
      load_scene_text(R"({"contact": {"mujoco": {"solimp": [-0.1, 1.2, -1, 0.5, 0.5]}}})", "x");
  CHECK(message_at(solimp, "contact.mujoco.solimp.0") == "dmin: expected a number in [0, 1], got -0.1");
  CHECK(message_at(solimp, "contact.mujoco.solimp.1") == "dmax: expected a number in [0, 1], got 1.2");
  CHECK(message_at(solimp, "contact.mujoco.solimp.2") == "width: expected a number >= 0, got -1");
  CHECK(issue_at(solimp, "contact.mujoco.solimp.3") == nullptr);
  CHECK(message_at(solimp, "contact.mujoco.solimp.4") == "power: expected a number >= 1, got 0.5");
  // dmin = 0 and dmax = 1 are allowed: MuJoCo clamps them into [1e-4, 0.9999] (DiffMJX uses dmin = 0).
  CHECK(load_scene_text(R"({"contact": {"mujoco": {"solimp": [0, 1, 0.001, 0.5, 2]}}})", "x").ok());
  CHECK(message_at(load_scene_text(R"({"contact": {"mujoco": {"solimp": [0, 1, 0.001, 1, 2]}}})", "x"),
                   "contact.mujoco.solimp.3") == "mid: expected a number in (0, 1), got 1");
}

TEST_CASE("dt_min must be below dt") {
  CHECK(message_at(load_scene_text(R"({"integrator": {"dt_min": 0.01}})", "x"), "integrator.dt_min") ==
        "must be less than integrator.dt (got 0.01 >= 0.01)");
}

TEST_CASE("stepping across output times needs contact events off") {
  const char* across = R"({"integrator": {"type": "tsit5", "step_to_outputs": false}})";
  CHECK(message_at(load_scene_text(across, "x"), "integrator.step_to_outputs") ==
        "false needs integrator.events = false (contact events are located within output intervals; set "
        "integrator.events=false to step across them as DiffMJX)");
  CHECK(
      load_scene_text(R"({"integrator": {"type": "tsit5", "step_to_outputs": false, "events": false}})", "x")
          .errors.empty());
  // Fixed-step integrators ignore both keys.
  CHECK(load_scene_text(R"({"integrator": {"step_to_outputs": false}})", "x").errors.empty());
}

TEST_CASE("non-finite numbers from code are rejected with their path") {
  json doc = {{"integrator", {{"dt", std::nan("")}}}, {"model", {{"gravity", {0.0, HUGE_VAL, 0.0}}}}};
  const LoadResult r = resolve_scene(doc, "code");
  CHECK(message_at(r, "integrator.dt") == "NaN is not allowed (expected a number > 0)");
  CHECK(message_at(r, "model.gravity.1") == "expected a number, got inf");
}

TEST_CASE("all problems are collected in one pass") {
  const LoadResult r = load_scene_text(
      R"({"contact": {"modle": "hard", "penalty": {"k": -1}}, "integrator": {"dt": -0.1, "steps": 2.5},
          "sweep": {"from": 2, "to": 1}, "extra": true})",
      "scenes/x.json", {"integrator.tyep=rk4", "model.particles.1.mass=2"});
  CHECK(r.errors.size() == 8);
  for (const char* path : {"integrator.tyep", "model.particles.1", "contact.modle", "contact.penalty.k",
                           "integrator.dt", "integrator.steps", "sweep.from", "extra"})
    CHECK_MESSAGE(issue_at(r, path) != nullptr, path);
  // One line per issue, each starting with the source.
  const std::string text = r.format_errors();
  CHECK(std::count(text.begin(), text.end(), '\n') == 8);
  CHECK(text.rfind("scenes/x.json: ", 0) == 0);
}

TEST_CASE("wrong top-level type and missing files") {
  const LoadResult array = load_scene_text("[1, 2]", "scenes/x.json");
  REQUIRE(array.errors.size() == 1);
  CHECK(array.format_errors() == "scenes/x.json: expected a JSON object at the top level, got an array\n");
  CHECK(array.config["integrator"]["dt"] == 0.01);  // defaults still present for display
  const LoadResult missing = load_scene_file("/nonexistent/dir/scene.json");
  REQUIRE(missing.errors.size() == 1);
  CHECK(missing.format_errors() == "/nonexistent/dir/scene.json: cannot read scene file: file not found\n");
  CHECK(!load_scene_file(sg::test::binary_dir()).ok());
}

TEST_CASE("a scene file on disk loads with overrides") {
  const auto path = std::filesystem::path(sg::test::binary_dir()) / "scene_test_drop.json";
  {
    std::ofstream out(path);
    out << R"({"integrator": {"dt": 0.005}, "model": {"particles": [{"pos": [0, 0, 2]}]}})";
  }
  const LoadResult r = load_scene_file(path.string(), {"model.particles.0.vel.2=-1"});
  std::filesystem::remove(path);
  REQUIRE_MESSAGE(r.ok(), r.format_errors());
  CHECK(r.source == path.string());
  CHECK(r.config["name"] == "scene_test_drop");
  CHECK(r.config["integrator"]["dt"] == 0.005);
  CHECK(r.config["model"]["particles"][0]["vel"] == json({0.0, 0.0, -1.0}));
}
