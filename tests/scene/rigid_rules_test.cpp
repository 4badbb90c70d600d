// Field checks and cross-field rules of the rigid-body model, MuJoCo geom parameters and CFD.
#include <doctest/doctest.h>

#include "scene_test_util.hpp"

using namespace sg::scene;
using namespace sg::scene::test;
using nlohmann::json;

namespace {

// A valid rigid scene with the given bodies (JSON array text) and extra overrides.
LoadResult rigid(const std::string& bodies, const std::vector<std::string>& overrides = {}) {
  return load_scene_text(
      R"({"model": {"type": "rigid", "bodies": )" + bodies + R"(}, "contact": {"model": "mujoco"}})",
      "scenes/x.json", overrides);
}

}  // namespace

TEST_CASE("a rigid scene needs at least one body") {
  const LoadResult r = rigid("[]");
  REQUIRE(r.errors.size() == 1);
  CHECK(message_at(r, "model.bodies") == "model.type \"rigid\" needs at least one body, got 0 entries");
  // A particle scene ignores the (empty) bodies block.
  CHECK(load_scene_text(R"({"model": {"type": "particles"}})", "x").ok());
}

TEST_CASE("a rigid scene accepts only the contact models that have a rigid implementation") {
  for (const char* particle_model : {"penalty", "elastic"}) {
    const LoadResult r = rigid("[{}]", {std::string("contact.model=") + particle_model});
    CHECK(message_at(r, "contact.model") ==
          "\"" + std::string(particle_model) +
              "\" is a particle contact model; model.type \"rigid\" supports none, mujoco, hard (choose "
              "contact.model=mujoco)");
  }
  CHECK(rigid("[{}]", {"contact.model=none"}).ok());
  // "hard" still needs the Moreau integrator.
  CHECK(contains(message_at(rigid("[{}]", {"contact.model=hard"}), "integrator.type"),
                 "choose integrator.type=moreau"));
  CHECK(rigid("[{}]", {"contact.model=hard", "integrator.type=moreau"}).ok());
}

TEST_CASE("body-body contact for every pair of solids, the convex collider's pairs only exact") {
  // An ellipsoid or a cylinder against another solid goes to MuJoCo's convex collider (MPR).
  CHECK(rigid(R"([{"shape": "box"}, {"shape": "cylinder"}])").ok());
  CHECK(rigid(R"([{"shape": "capsule"}, {"shape": "sphere"}, {"shape": "ellipsoid"}])").ok());
  CHECK(rigid(R"([{"shape": "box"}, {"shape": "box"}, {"shape": "sphere"}])").ok());
  // It has no smooth detector: a softness names the first such pair.
  const LoadResult soft = rigid(R"([{"shape": "sphere"}, {"shape": "capsule"}, {"shape": "ellipsoid"}])",
                                {"collision.softness=0.01"});
  CHECK(
      message_at(soft, "collision.softness") ==
      "sphere-ellipsoid contact (model.bodies.0 and model.bodies.2, MuJoCo's convex collider) has no smooth "
      "detector; set collision.softness=0 (got 0.01), or model.collide_bodies=false");
  CHECK(soft.format_errors().rfind("scenes/x.json: collision.softness: sphere-ellipsoid contact", 0) == 0);
  CHECK(rigid(R"([{"shape": "sphere"}, {"shape": "ellipsoid"}])",
              {"collision.softness=0.01", "model.collide_bodies=false"})
            .ok());
  CHECK(rigid(R"([{"shape": "sphere"}, {"shape": "capsule"}])", {"collision.softness=0.01"}).ok());
  // One body has no pairs.
  CHECK(rigid(R"([{"shape": "cylinder"}])", {"collision.softness=0.01"}).ok());
}

TEST_CASE("box-box contact has no smooth detector: a softness with two colliding boxes is refused") {
  const std::string boxes = R"([{"shape": "box"}, {"shape": "box"}])";
  CHECK(message_at(rigid(boxes, {"collision.softness=0.01"}), "collision.softness") ==
        "box-box contact has no smooth detector; with two or more boxes colliding with each other set "
        "collision.softness=0 (got 0.01), or model.collide_bodies=false");
  CHECK(rigid(boxes, {"collision.softness=0.01", "model.collide_bodies=false"}).ok());
  const std::string capsule_box = R"([{"shape": "capsule"}, {"shape": "box"}])";
  CHECK(contains(message_at(rigid(capsule_box, {"collision.softness=0.01"}), "collision.softness"),
                 "capsule-box contact has no smooth detector"));
  CHECK(rigid(capsule_box).ok());
  CHECK(rigid(R"([{"shape": "box"}, {"shape": "sphere"}])", {"collision.softness=0.01"}).ok());
}

TEST_CASE("a force acts over a non-empty window of output steps") {
  const LoadResult r =
      rigid(R"([{"forces": [{"from_step": 3, "to_step": 8}, {"from_step": 5, "to_step": 5}]}])");
  CHECK(issue_at(r, "model.bodies.0.forces.0.from_step") == nullptr);
  CHECK(message_at(r, "model.bodies.0.forces.1.from_step") ==
        "must be less than model.bodies.0.forces.1.to_step (got 5 >= 5)");
  CHECK(message_at(rigid(R"([{"forces": [{"to_step": 0}]}])"), "model.bodies.0.forces.0.to_step") ==
        "expected an integer >= 1, got 0");
}

TEST_CASE("CFD requires the MuJoCo contact model") {
  const LoadResult r = load_scene_text(R"({"contact": {"cfd": {"enabled": true}}})", "x");
  CHECK(message_at(r, "contact.cfd.enabled") ==
        "requires contact.model \"mujoco\", got \"penalty\" (choose contact.model=mujoco or set "
        "contact.cfd.enabled=false)");
  CHECK(rigid("[{}]", {"contact.cfd.enabled=true", "contact.cfd.mode=forward"}).ok());
  CHECK(message_at(rigid("[{}]", {"contact.cfd.mode=backward"}), "contact.cfd.mode") ==
        "expected one of straight_through, forward; got \"backward\"");
}

TEST_CASE("loss terms of a rigid scene index bodies") {
  const LoadResult r = rigid("[{}, {}]", {R"(loss.terms=[{"body": 1}, {"body": 2}])"});
  CHECK(issue_at(r, "loss.terms.0.body") == nullptr);
  CHECK(message_at(r, "loss.terms.1.body") == "body index 2 out of range (the scene has 2 bodies)");
  CHECK(message_at(rigid("[{}]", {R"(loss.terms=[{"body": 1}])"}), "loss.terms.0.body") ==
        "body index 1 out of range (the scene has 1 body)");
}

TEST_CASE("field checks of bodies and geoms") {
  const LoadResult r = rigid(R"([{"shape": "cone", "size": [0.1, 0, 0.1], "density": 0, "mass": -1,
                                  "friction": [1, -0.1, 0], "condim": 2, "margin": -0.01}])");
  CHECK(message_at(r, "model.bodies.0.shape") ==
        "expected one of sphere, capsule, box, cylinder, ellipsoid; got \"cone\"");
  CHECK(message_at(r, "model.bodies.0.size.1") == "expected a number > 0, got 0");
  CHECK(message_at(r, "model.bodies.0.density") == "expected a number > 0, got 0");
  CHECK(message_at(r, "model.bodies.0.mass") == "expected a number >= 0, got -1");
  CHECK(message_at(r, "model.bodies.0.friction.1") == "expected a number >= 0, got -0.1");
  CHECK(message_at(r, "model.bodies.0.condim") == "expected an integer, one of 1, 3; got 2");
  CHECK(message_at(r, "model.bodies.0.margin") == "expected a number >= 0, got -0.01");
  CHECK(message_at(load_scene_text(R"({"model": {"plane": {"condim": 6}}})", "x"), "model.plane.condim") ==
        "expected an integer, one of 1, 3; got 6");
  CHECK(message_at(load_scene_text(R"({"contact": {"mujoco": {"iterations": 0, "impratio": 0}}})", "x"),
                   "contact.mujoco.iterations") == "expected an integer in [1, 10000], got 0");
  CHECK(message_at(load_scene_text(R"({"collision": {"softness": -1}})", "x"), "collision.softness") ==
        "expected a number >= 0, got -1");
  CHECK(message_at(load_scene_text(R"({"contact": {"cfd": {"beta": 0}}})", "x"), "contact.cfd.beta") ==
        "expected a number > 0, got 0");
  json too_many = {{"model", {{"type", "rigid"}, {"bodies", json::array()}}},
                   {"contact", {{"model", "none"}}}};
  for (int i = 0; i < 9; ++i) too_many["model"]["bodies"].push_back(json::object());
  CHECK(message_at(resolve_scene(too_many, "x"), "model.bodies") ==
        "expected an array of 0 to 8 objects, got 9 entries");
  CHECK(message_at(rigid(R"([{"forces": [{}, {}, {}, {}, {}]}])"), "model.bodies.0.forces") ==
        "expected an array of 0 to 4 objects, got 5 entries");
}

TEST_CASE("solref and solimp rules hold for every geom, and CFD's solimp has its own") {
  const LoadResult r =
      rigid(R"([{"solref": [0.02, -1], "solimp": [0, 1, 0.001, 0.5, 2]},
                                  {"solimp": [0.9, 0.95, 0.001, 0, 0.5]}])",
            {"model.plane.solref=[-1000, 10]", "model.plane.solimp=[1.5, 0.95, 0.001, 0.5, 2]"});
  CHECK(message_at(r, "model.bodies.0.solref") ==
        "mixed signs: use both > 0 (timeconst, dampratio) or both <= 0 (-stiffness, -damping), got "
        "[0.02,-1.0]");
  CHECK(issue_at(r, "model.bodies.0.solimp.0") == nullptr);  // dmin = 0 as in DiffMJX
  CHECK(message_at(r, "model.bodies.1.solimp.3") == "mid: expected a number in (0, 1), got 0");
  CHECK(message_at(r, "model.bodies.1.solimp.4") == "power: expected a number >= 1, got 0.5");
  CHECK(contains(message_at(r, "model.plane.solref"), "mixed signs"));
  CHECK(message_at(r, "model.plane.solimp.0") == "dmin: expected a number in [0, 1], got 1.5");
  const LoadResult cfd = load_scene_text(R"({"contact": {"cfd": {"solimp": [-0.1, 0.01, 0, 1.5, 2]}}})", "x");
  CHECK(message_at(cfd, "contact.cfd.solimp.0") == "d_far: expected a number in [0, 1], got -0.1");
  CHECK(message_at(cfd, "contact.cfd.solimp.2") == "width: expected a number > 0, got 0");
  CHECK(message_at(cfd, "contact.cfd.solimp.3") == "mid: expected a number in (0, 1], got 1.5");
  CHECK(issue_at(cfd, "contact.cfd.solimp.1") == nullptr);
}

TEST_CASE(
    "collision.mode agrees with collision.softness, and diffmjx covers box, sphere, ellipsoid on the plane") {
  // auto (the default) keeps the softness' meaning: 0 exact, > 0 smooth.
  CHECK(rigid("[{}]", {"collision.softness=0.001"}).ok());
  CHECK(rigid("[{}]", {"collision.mode=exact"}).ok());
  CHECK(rigid("[{}]", {"collision.mode=smooth", "collision.softness=0.001"}).ok());
  CHECK(message_at(rigid("[{}]", {"collision.mode=exact", "collision.softness=0.001"}), "collision.mode") ==
        "\"exact\" needs collision.softness=0 (got collision.softness=0.001); choose collision.mode=auto or "
        "smooth, or collision.softness=0");
  CHECK(contains(message_at(rigid("[{}]", {"collision.mode=smooth"}), "collision.mode"),
                 "\"smooth\" needs collision.softness > 0"));
  CHECK(
      message_at(rigid("[{}]", {"collision.mode=diffmjx"}), "collision.mode") ==
      "\"diffmjx\" needs collision.softness > 0, softjax's softness (got collision.softness=0); DiffMJX uses "
      "collision.softness=0.1");
  const std::vector<std::string> diffmjx = {"collision.mode=diffmjx", "collision.softness=0.1"};
  for (const char* shape : {"box", "sphere", "ellipsoid"})
    CHECK(rigid(std::string(R"([{"shape": ")") + shape + R"("}])", diffmjx).ok());
  for (const char* shape : {"capsule", "cylinder"}) {
    const LoadResult r =
        rigid(R"([{"shape": "box"}, {"shape": ")" + std::string(shape) + R"("}])",
              {"collision.mode=diffmjx", "collision.softness=0.1", "model.collide_bodies=false"});
    CHECK(message_at(r, "collision.mode") ==
          "collision.mode diffmjx supports box, sphere, ellipsoid; "
          "model.bodies.1 is a " +
              std::string(shape) + " (choose collision.mode=auto)");
  }
  CHECK(message_at(rigid(R"([{}, {}])", diffmjx), "collision.mode") ==
        "collision.mode diffmjx collides bodies with the plane only; set model.collide_bodies=false");
  CHECK(
      rigid(R"([{}, {}])", {"collision.mode=diffmjx", "collision.softness=0.1", "model.collide_bodies=false"})
          .ok());
  CHECK(contains(message_at(rigid("[{}]", {"collision.mode=soft"}), "collision.mode"), "diffmjx"));
}
