// The rigid-body part of the schema: defaults, a resolved two-sphere scene, differentiable paths and
// overrides that reach into bodies and their forces.
#include <doctest/doctest.h>

#include <algorithm>

#include "scene_test_util.hpp"

using namespace sg::scene;
using namespace sg::scene::test;
using nlohmann::json;

namespace {

const char* kTwoSpheres = R"({
  "model": {
    "type": "rigid",
    "bodies": [
      {"shape": "sphere", "size": [0.1, 0.1, 0.1], "pos": [0, 0, 0.5],
       "forces": [{"force": [1, 2, 3], "from_step": 2, "to_step": 5}]},
      {"shape": "sphere", "pos": [0.3, 0, 0.5], "vel": [-1, 0, 0], "mass": 2}
    ]
  },
  "contact": {"model": "mujoco"},
  "loss": {"terms": [{"body": 1, "axis": "x"}]}
})";

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

TEST_CASE("defaults of the rigid-body, CFD and collision keys") {
  const LoadResult r = load_scene_text("{}", "inline");
  REQUIRE(r.ok());
  const json& c = r.config;
  CHECK(c["model"]["type"] == "particles");
  CHECK(c["model"]["bodies"] == json::array());
  CHECK(c["model"]["collide_bodies"] == true);
  CHECK(c["model"]["plane"]["friction"] == json({1.0, 0.005, 0.0001}));
  CHECK(c["model"]["plane"]["solref"] == json({0.02, 1.0}));
  CHECK(c["model"]["plane"]["solimp"] == json({0.9, 0.95, 0.001, 0.5, 2.0}));
  CHECK(c["model"]["plane"]["condim"] == 3);
  CHECK(c["contact"]["mujoco"]["impratio"] == 1.0);
  CHECK(c["contact"]["mujoco"]["cone"] == "pyramidal");
  CHECK(c["contact"]["mujoco"]["iterations"] == 100);
  CHECK(c["contact"]["cfd"] == json({{"enabled", false},
                                     {"mode", "straight_through"},
                                     {"surrogate_events", true},
                                     {"solimp", {0.0, 0.01, 0.1, 1.0, 2.0}},
                                     {"beta", 1e6}}));
  CHECK(c["collision"]["softness"] == 0.0);
  CHECK(find_field("model.bodies.*.forces")->default_value == json::array());
}

TEST_CASE("a body entry and a force entry are filled with their defaults") {
  const LoadResult r = load_scene_text(R"({"model": {"bodies": [{"forces": [{}]}]}})", "inline");
  REQUIRE_MESSAGE(r.ok(), r.format_errors());
  const json& body = r.config["model"]["bodies"][0];
  CHECK(body == json({{"shape", "sphere"},
                      {"size", {0.05, 0.05, 0.05}},
                      {"density", 1000.0},
                      {"mass", 0.0},
                      {"pos", {0.0, 0.0, 0.0}},
                      {"euler", {0.0, 0.0, 0.0}},
                      {"vel", {0.0, 0.0, 0.0}},
                      {"angvel", {0.0, 0.0, 0.0}},
                      {"friction", {1.0, 0.005, 0.0001}},
                      {"solref", {0.02, 1.0}},
                      {"solimp", {0.9, 0.95, 0.001, 0.5, 2.0}},
                      {"condim", 3},
                      {"margin", 0.0},
                      {"damping", 0.0},
                      {"forces", json::array({{{"force", {0.0, 0.0, 0.0}},
                                               {"torque", {0.0, 0.0, 0.0}},
                                               {"from_step", 0},
                                               {"to_step", 1}}})}}));
}

TEST_CASE("a rigid scene with two spheres resolves, and resolving it again changes nothing") {
  const LoadResult r = load_scene_text(kTwoSpheres, "scenes/two_spheres.json");
  REQUIRE_MESSAGE(r.ok(), r.format_errors());
  const json& bodies = r.config["model"]["bodies"];
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0]["forces"][0]["force"] == json({1.0, 2.0, 3.0}));
  CHECK(bodies[0]["forces"][0]["to_step"] == 5);
  CHECK(bodies[1]["mass"] == 2.0);
  CHECK(bodies[1]["forces"] == json::array());
  // A rigid scene without a sweep parameter sweeps its first body's height, not a particle's.
  CHECK(r.config["sweep"]["parameter"] == "model.bodies.0.pos.2");
  const LoadResult again = resolve_scene(r.config, "scenes/two_spheres.json");
  REQUIRE(again.ok());
  CHECK(again.config == r.config);
}

TEST_CASE("differentiable_paths of a rigid scene list bodies, geoms, CFD and softness, not particles") {
  const LoadResult r = load_scene_text(kTwoSpheres, "x");
  REQUIRE(r.ok());
  const auto paths = differentiable_paths(r.config);
  CHECK(has(paths, "model.bodies.0.forces.0.force.1"));
  CHECK(has(paths, "model.bodies.0.forces.0.torque.2"));
  CHECK(has(paths, "model.bodies.1.vel.2"));
  CHECK(has(paths, "model.bodies.1.friction.0"));
  CHECK(!has(paths, "model.bodies.1.friction.1"));  // torsional and rolling friction carry no gradient
  CHECK(!has(paths, "model.bodies.0.margin"));
  CHECK(!has(paths, "model.particles.0.mass"));
  CHECK(!has(paths, "contact.penalty.k"));
  CHECK(!has(paths, "contact.mujoco.solref.0"));  // rigid contacts take solref from their geoms
  for (const auto& path : paths) {
    const auto value = get_path(r.config, path);
    REQUIRE_MESSAGE(value, path);
    CHECK_MESSAGE((value->is_number() || (path == "contact.hard.kappa" && *value == "inf")), path);
  }
}

TEST_CASE("the full differentiable list of a one-body rigid scene, in schema order") {
  const LoadResult r = load_scene_text(
      R"({"model": {"type": "rigid", "bodies": [{"forces": [{}]}]}, "contact": {"model": "mujoco"}})", "x");
  REQUIRE_MESSAGE(r.ok(), r.format_errors());
  std::vector<std::string> expected = {"model.gravity.0", "model.gravity.1", "model.gravity.2",
                                       "model.plane.height", "model.plane.friction.0"};
  auto add_vector = [&](const std::string& path, int n) {
    for (int i = 0; i < n; ++i) expected.push_back(path + "." + std::to_string(i));
  };
  add_vector("model.plane.solref", 2);
  add_vector("model.plane.solimp", 5);
  add_vector("model.bodies.0.size", 3);
  expected.push_back("model.bodies.0.density");
  expected.push_back("model.bodies.0.mass");
  for (const char* v : {"pos", "euler", "vel", "angvel"}) add_vector(std::string("model.bodies.0.") + v, 3);
  expected.push_back("model.bodies.0.friction.0");
  add_vector("model.bodies.0.solref", 2);
  add_vector("model.bodies.0.solimp", 5);
  expected.push_back("model.bodies.0.damping");
  add_vector("model.bodies.0.forces.0.force", 3);
  add_vector("model.bodies.0.forces.0.torque", 3);
  expected.push_back("contact.mujoco.impratio");
  add_vector("contact.cfd.solimp", 5);
  expected.push_back("contact.cfd.beta");
  expected.push_back("contact.hard.kappa");
  expected.push_back("loss.terms.0.target");
  CHECK(differentiable_paths(r.config) == expected);
}

TEST_CASE("the sweep parameter of a rigid scene must be one of the rigid paths") {
  const LoadResult r = load_scene_text(kTwoSpheres, "x", {"sweep.parameter=model.bodies.1.forces.0.force.2"});
  CHECK(message_at(r, "sweep.parameter") ==
        "\"model.bodies.1.forces.0.force.2\" is not a differentiable parameter (did you mean "
        "\"model.bodies.0.forces.0.force.2\"?)");
  CHECK(issue_at(load_scene_text(kTwoSpheres, "x", {"sweep.parameter=model.particles.0.pos.2"}),
                 "sweep.parameter"));
  CHECK(load_scene_text(kTwoSpheres, "x", {"sweep.parameter=contact.cfd.beta"}).ok());
  CHECK(load_scene_text(kTwoSpheres, "x", {"sweep.parameter=model.bodies.1.euler.0"}).ok());
  // Rigid-only parameters are not sweepable in a particle scene; the collision softness is a setting.
  CHECK(issue_at(load_scene_text(R"({"sweep": {"parameter": "contact.cfd.beta"}})", "x"), "sweep.parameter"));
  CHECK(
      issue_at(load_scene_text(kTwoSpheres, "x", {"sweep.parameter=collision.softness"}), "sweep.parameter"));
}

TEST_CASE("overrides reach into bodies and their forces") {
  const LoadResult r = load_scene_text(kTwoSpheres, "x",
                                       {"model.bodies.0.forces.0.force.2=5", "model.bodies[1].shape=capsule",
                                        "model.bodies.1.euler=[0, 90, 0]", "model.plane.condim=1"});
  REQUIRE_MESSAGE(r.ok(), r.format_errors());
  CHECK(r.config["model"]["bodies"][0]["forces"][0]["force"] == json({1.0, 2.0, 5.0}));
  CHECK(r.config["model"]["bodies"][1]["shape"] == "capsule");
  CHECK(r.config["model"]["bodies"][1]["euler"] == json({0.0, 90.0, 0.0}));
  CHECK(r.config["model"]["plane"]["condim"] == 1);
  CHECK(message_at(load_scene_text(kTwoSpheres, "x", {"model.bodies.1.forces.0.force.0=1"}),
                   "model.bodies.1.forces.0") == "index 0 out of range: model.bodies.1.forces has 0 entries");
}
