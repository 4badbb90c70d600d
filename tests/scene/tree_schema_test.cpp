// The joint-tree part of the schema (model.type "tree"): defaults, differentiable paths in the problem's
// order, overrides into joints, and bad input reported at its key path.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/problem/load_problem.hpp"
#include "scene_test_util.hpp"

using namespace sg::scene;
using namespace sg::scene::test;
using nlohmann::json;

namespace {

// Two links on hinges about y; the second has a ball joint too.
const char* kTwoLinks = R"({
  "model": {
    "type": "tree",
    "tree": {"bodies": [
      {"name": "upper", "parent": -1, "pos": [0, 0, 1], "ipos": [0, 0, -0.2],
       "joints": [{"type": "hinge", "axis": [0, 2, 0], "damping": 0.1, "qpos": 0.5}]},
      {"name": "lower", "parent": 0, "pos": [0, 0, -0.4], "quat": [2, 0, 0, 0], "mass": 0.5,
       "joints": [{"type": "ball", "ball_qvel": [0, 1, 0]}]}
    ]}
  },
  "contact": {"model": "none"},
  "integrator": {"type": "rk4", "dt": 0.01, "steps": 10},
  "loss": {"terms": [{"body": 1, "axis": "x"}]}
})";

LoadResult load_with(const std::vector<std::string>& sets) {
  return load_scene_text(kTwoLinks, "tree.json", sets);
}

}  // namespace

TEST_CASE("a tree scene resolves with every key and sweeps gravity by default") {
  const LoadResult r = load_with({});
  INFO(r.format_errors());
  REQUIRE(r.ok());
  const json& b = r.config["model"]["tree"]["bodies"];
  CHECK(b[1]["iquat"] == json({1.0, 0.0, 0.0, 0.0}));
  CHECK(b[0]["joints"][0]["armature"] == 0.0);
  CHECK(b[1]["joints"][0]["ball_qpos"] == json({1.0, 0.0, 0.0, 0.0}));
  CHECK(r.config["sweep"]["parameter"] == "model.gravity.2");
  // From the scene's own gravity (where simulate runs by default) to half of it.
  const double g = r.config["model"]["gravity"][2].get<double>();
  REQUIRE(g < 0.0);
  CHECK(r.config["sweep"]["from"] == g);
  CHECK(r.config["sweep"]["to"] == 0.5 * g);
  // Other scenes resolve with an empty tree.
  CHECK(load_scene_text("{}", "inline").config["model"]["tree"]["bodies"] == json::array());
}

TEST_CASE("a tree's differentiable paths are the problem's parameters, in the same order") {
  const LoadResult r = load_with({});
  REQUIRE(r.ok());
  const std::vector<std::string> paths = differentiable_paths(r.config);
  CHECK(std::find(paths.begin(), paths.end(), "model.plane.height") == paths.end());
  CHECK(std::find(paths.begin(), paths.end(), "model.bodies.0.pos.2") == paths.end());
  const sg::ProblemLoad p = sg::load_problem_json(r.config, "tree.json");
  REQUIRE(p.ok());
  CHECK(paths == sg::differentiable_parameters(*p.problem));
  CHECK(paths.front() == "model.gravity.0");
  CHECK(std::find(paths.begin(), paths.end(), "model.tree.bodies.1.joints.0.ball_qvel.1") != paths.end());
}

TEST_CASE("tree quaternions and axes are normalised on loading") {
  const sg::ProblemLoad p = sg::load_problem_text(kTwoLinks, "tree.json");
  REQUIRE(p.ok());
  const sg::TreeModel<double>& t = p.problem->data.tree.tree;
  CHECK(t.body[2].quat.w == 1.0);                    // [2, 0, 0, 0]
  CHECK(t.joint[0].axis.y == doctest::Approx(1.0));  // [0, 2, 0]
}

TEST_CASE("overrides reach a tree's joints") {
  const LoadResult r =
      load_with({"model.tree.bodies.0.joints.0.qpos=1.5", "model.tree.bodies.1.joints.0.type=slide"});
  REQUIRE(r.ok());
  CHECK(r.config["model"]["tree"]["bodies"][0]["joints"][0]["qpos"] == 1.5);
  CHECK(r.config["model"]["tree"]["bodies"][1]["joints"][0]["type"] == "slide");
}

TEST_CASE("bad tree input is reported at its key path") {
  CHECK(message_at(load_with({"model.tree.bodies.0.joints.0.type=hinje"}),
                   "model.tree.bodies.0.joints.0.type") ==
        "expected one of hinge, slide, ball, free; got \"hinje\" (did you mean \"hinge\"?)");
  CHECK(message_at(load_with({"model.tree.bodies.1.parent=1"}), "model.tree.bodies.1.parent") ==
        "parent 1 must be -1 (the world) or an earlier body (0 to 0): a parent precedes its children");
  CHECK(contains(message_at(load_with({"model.tree.bodies.1.parent=-2"}), "model.tree.bodies.1.parent"),
                 "expected an integer >= -1"));
  CHECK(contains(message_at(load_with({"model.tree.bodies.0.mass=nan"}), "model.tree.bodies.0.mass"), "NaN"));
  CHECK(contains(message_at(load_with({"model.tree.bodies.0.mass=-1"}), "model.tree.bodies.0.mass"), ">= 0"));
  CHECK(message_at(load_with({"model.tree.bodies.1.quat=[0,0,0,0]"}), "model.tree.bodies.1.quat") ==
        "a zero quaternion has no direction (it is normalised on loading)");
  CHECK(message_at(load_with({"model.tree.bodies.0.joints.0.axis=[0,0,0]"}),
                   "model.tree.bodies.0.joints.0.axis") ==
        "a zero axis has no direction (it is normalised on loading)");
  CHECK(contains(message_at(load_with({"model.tree.bodies.0.joints.0.pos=[0,nan,0]"}),
                            "model.tree.bodies.0.joints.0.pos"),
                 "NaN"));
  CHECK(contains(
      message_at(load_with({"model.tree.bodies.0.joints.0.axis=[0,1]"}), "model.tree.bodies.0.joints.0.axis"),
      "array of 3 numbers"));
  CHECK(contains(message_at(load_with({"contact.model=penalty"}), "contact.model"),
                 "joint trees collide with MuJoCo's soft contacts"));
  CHECK(contains(message_at(load_with({"integrator.type=moreau"}), "integrator.type"), "\"moreau\""));
  CHECK(load_with({"contact.model=hard", "integrator.type=moreau"}).ok());  // hard contact's impulse steps
  CHECK(message_at(load_with({"loss.terms.0.body=2"}), "loss.terms.0.body") ==
        "body index 2 out of range (the scene has 2 bodies)");
  CHECK(message_at(load_with({"model.tree.bodies=[]"}), "model.tree.bodies") ==
        "model.type \"tree\" needs at least one body, got 0 entries");
}

TEST_CASE("an unknown key inside a tree body or joint is an error with a suggestion") {
  const LoadResult r = load_scene_text(R"({"model": {"type": "tree", "tree": {"bodies": [
      {"joints": [{"damping": 1, "dampnig": 2}]}]}}, "contact": {"model": "none"}})",
                                       "tree.json");
  CHECK(contains(message_at(r, "model.tree.bodies.0.joints.0.dampnig"), "unknown key"));
}

TEST_CASE("a joint that moves no mass is refused at load, naming the joint") {
  const sg::ProblemLoad p = sg::load_problem_text(
      kTwoLinks, "tree.json", {"model.tree.bodies.1.mass=0", "model.tree.bodies.1.inertia=[0,0,0]"});
  CHECK_FALSE(p.ok());
  CHECK(contains(p.errors, "model.tree.bodies.1.joints.0: the joint moves no mass"));
  // Armature alone makes it move.
  CHECK(sg::load_problem_text(kTwoLinks, "tree.json",
                              {"model.tree.bodies.1.mass=0", "model.tree.bodies.1.inertia=[0,0,0]",
                               "model.tree.bodies.1.joints.0.armature=0.01"})
            .ok());
}

TEST_CASE("tree actuators resolve, differentiate ctrl and gear, and bad ones are reported at their key") {
  const std::string act = R"(model.tree.actuators=[{"body": 0, "joint": 0, "kind": "position", "kp": 3}])";
  const LoadResult r = load_with({act, "model.tree.actuators.0.ctrl=0.4"});
  INFO(r.format_errors());
  REQUIRE(r.ok());
  CHECK(r.config["model"]["tree"]["actuators"][0]["gear"] == 1.0);
  CHECK(r.config["model"]["tree"]["actuators"][0]["ctrllimited"] == false);
  const std::vector<std::string> paths = differentiable_paths(r.config);
  CHECK(std::find(paths.begin(), paths.end(), "model.tree.actuators.0.ctrl") != paths.end());
  const sg::ProblemLoad p = sg::load_problem_json(r.config, "tree.json");
  REQUIRE(p.ok());
  CHECK(paths == sg::differentiable_parameters(*p.problem));
  CHECK(p.problem->data.tree.act.nu == 1);
  CHECK(p.problem->data.tree.ctrl[0] == 0.4);
  CHECK(p.problem->data.tree.act.actuator[0].biasprm[1] == -3.0);

  CHECK(contains(message_at(load_with({act, "model.tree.actuators.0.body=2"}), "model.tree.actuators.0.body"),
                 "body 2 does not exist"));
  CHECK(
      contains(message_at(load_with({act, "model.tree.actuators.0.joint=1"}), "model.tree.actuators.0.joint"),
               "joint 1 does not exist"));
  // On the lower link's ball joint the actuator takes MuJoCo's whole gear: gear and gear_rest.
  const LoadResult ball =
      load_with({act, "model.tree.actuators.0.body=1", "model.tree.actuators.0.gear_rest.0=0.5"});
  INFO(ball.format_errors());
  REQUIRE(ball.ok());
  const sg::ProblemLoad on_ball = sg::load_problem_json(ball.config, "tree.json");
  REQUIRE(on_ball.ok());
  CHECK(on_ball.problem->data.tree.act.actuator[0].joint == 1);
  CHECK(on_ball.problem->data.tree.act.actuator[0].gear[1] == 0.5);
  CHECK(contains(message_at(load_with({act, "model.tree.actuators.0.ctrllimited=true",
                                       "model.tree.actuators.0.ctrlrange=[1,-1]"}),
                            "model.tree.actuators.0.ctrlrange"),
                 "lo > hi"));
  CHECK(contains(
      message_at(load_with({act, "model.tree.actuators.0.kind=spring"}), "model.tree.actuators.0.kind"),
      "spring"));
}

TEST_CASE("an actuator can name its joint, an unknown or ambiguous name is reported at joint_name") {
  const std::string act = R"(model.tree.actuators=[{"joint_name": "elbow", "gear": 2}])";
  const LoadResult r = load_with({act, "model.tree.bodies.0.joints.0.name=elbow"});
  INFO(r.format_errors());
  REQUIRE(r.ok());
  const sg::ProblemLoad p = sg::load_problem_json(r.config, "tree.json");
  REQUIRE(p.ok());
  CHECK(p.problem->data.tree.act.actuator[0].joint == 0);
  CHECK(p.problem->data.tree.act.actuator[0].gear[0] == 2.0);
  CHECK(message_at(load_with({act}), "model.tree.actuators.0.joint_name") ==
        "\"elbow\" names no joint (model.tree.bodies.*.joints.*.name)");
  CHECK(contains(message_at(load_with({act, "model.tree.bodies.0.joints.0.name=elbow",
                                       "model.tree.bodies.1.joints.0.name=elbow"}),
                            "model.tree.actuators.0.joint_name"),
                 "names several joints"));
  CHECK(load_with({act, "model.tree.bodies.1.joints.0.name=elbow"}).ok());  // a ball joint can be actuated
}

TEST_CASE("hinge and slide limits load into the constraint model with MuJoCo's defaults") {
  const LoadResult plain = load_with({});
  REQUIRE(plain.ok());
  const json& j = plain.config["model"]["tree"]["bodies"][0]["joints"][0];
  CHECK(j["limited"] == false);
  CHECK(j["solreflimit"] == json({0.02, 1.0}));
  CHECK(j["solimplimit"] == json({0.9, 0.95, 0.001, 0.5, 2.0}));
  const LoadResult r = load_with({"model.tree.bodies.0.joints.0.limited=true",
                                  "model.tree.bodies.0.joints.0.range=[-0.2, 0.4]",
                                  "model.tree.bodies.0.joints.0.margin=0.01"});
  INFO(r.format_errors());
  REQUIRE(r.ok());
  const sg::ProblemLoad p = sg::load_problem_json(r.config, "tree.json");
  REQUIRE(p.ok());
  const sg::JointTreeModel<double>& m = p.problem->data.tree;
  CHECK(m.constrained());
  CHECK(m.con.limit[0].limited);
  CHECK(m.con.limit[0].range[1] == 0.4);
  CHECK(m.con.limit[0].margin == 0.01);
  CHECK(m.con.dof_invweight0[0] > 0.0);  // mj_setConst's weights at qpos0
  CHECK(m.con.body_invweight0[1][0] > 0.0);
}

TEST_CASE("a ball joint's limit loads, and an inverted range is reported at its key") {
  const LoadResult ball =
      load_with({"model.tree.bodies.1.joints.0.limited=true", "model.tree.bodies.1.joints.0.range=[0, 1]"});
  INFO(ball.format_errors());
  CHECK(ball.ok());
  CHECK(contains(message_at(load_with({"model.tree.bodies.0.joints.0.limited=true",
                                       "model.tree.bodies.0.joints.0.range=[1, -1]"}),
                            "model.tree.bodies.0.joints.0.range"),
                 "lo > hi"));
}

namespace {

// kTwoLinks with a floor, a capsule on the upper link and a sphere on the lower one, colliding.
std::vector<std::string> with_geoms(std::vector<std::string> sets) {
  sets.insert(
      sets.begin(),
      {"contact.model=mujoco", R"(model.tree.world_geoms=[{"type": "plane", "friction": [0.5, 0, 0]}])",
       R"(model.tree.bodies.0.geoms=[{"type": "capsule", "size": [0.02, 0.2, 0], "pos": [0, 0, -0.2]}])",
       R"(model.tree.bodies.1.geoms=[{"type": "sphere", "size": [0.05, 0, 0], "solref": [0.01, 1]}])"});
  return sets;
}

std::string problem_errors(const LoadResult& r) {
  INFO(r.format_errors());
  REQUIRE(r.ok());
  const sg::ProblemLoad p = sg::load_problem_json(r.config, "tree.json");
  return p.errors;
}

}  // namespace

TEST_CASE("tree geoms resolve with MuJoCo's defaults, load into the constraint model and differentiate") {
  const LoadResult r = load_with(with_geoms({}));
  INFO(r.format_errors());
  REQUIRE(r.ok());
  const json& floor = r.config["model"]["tree"]["world_geoms"][0];
  CHECK(floor["solimp"] == json({0.9, 0.95, 0.001, 0.5, 2.0}));
  CHECK(floor["condim"] == 3);
  CHECK(floor["contype"] == 1);
  const sg::ProblemLoad p = sg::load_problem_json(r.config, "tree.json");
  INFO(p.errors);
  REQUIRE(p.ok());
  const sg::JointTreeModel<double>& m = p.problem->data.tree;
  REQUIRE(m.con.ngeom == 3);
  CHECK(m.constrained());
  CHECK(m.con.opt.contact);
  CHECK(m.con.geom[0].body == 1);  // bodies' geoms first, in order, then the world's
  CHECK(m.con.geom[0].rbound == doctest::Approx(0.22));
  CHECK(m.con.geom[1].solref[0] == 0.01);
  CHECK(m.con.geom[2].body == 0);
  CHECK(m.con.geom[2].type == sg::GeomType::plane);
  const std::vector<std::string> paths = differentiable_paths(r.config);
  CHECK(paths == sg::differentiable_parameters(*p.problem));
  CHECK(std::find(paths.begin(), paths.end(), "model.tree.world_geoms.0.friction.0") != paths.end());
  CHECK(std::find(paths.begin(), paths.end(), "model.tree.world_geoms.0.friction.1") == paths.end());
  CHECK(std::find(paths.begin(), paths.end(), "model.tree.bodies.1.geoms.0.size.0") != paths.end());
  // contact.model none keeps the geoms (to draw) without contacts.
  const LoadResult none = load_with(with_geoms({"contact.model=none"}));
  REQUIRE(none.ok());
  CHECK_FALSE(sg::load_problem_json(none.config, "tree.json").problem->data.tree.con.opt.contact);
}

TEST_CASE("bad tree geoms and contact settings are reported at their key paths") {
  CHECK(contains(message_at(load_with(with_geoms({"model.tree.bodies.1.geoms.0.size=[0, 0, 0]"})),
                            "model.tree.bodies.1.geoms.0.size.0"),
                 "a sphere needs size component 0 > 0"));
  CHECK(contains(message_at(load_with(with_geoms({"model.tree.bodies.0.geoms.0.quat=[0, 0, 0, 0]"})),
                            "model.tree.bodies.0.geoms.0.quat"),
                 "a zero quaternion"));
  CHECK(contains(message_at(load_with(with_geoms({"model.tree.bodies.0.geoms.0.type=cone"})),
                            "model.tree.bodies.0.geoms.0.type"),
                 "expected one of sphere, capsule, box, cylinder, ellipsoid, plane, mesh, hfield"));
  CHECK(contains(message_at(load_with(with_geoms({"model.tree.world_geoms.0.condim=2"})),
                            "model.tree.world_geoms.0.condim"),
                 "1, 3, 4, 6"));
  CHECK(load_with(with_geoms({"model.tree.world_geoms.0.condim=6"})).ok());
  CHECK(contains(message_at(load_with(with_geoms({"model.tree.world_geoms.0.solref=[0.02, -1]"})),
                            "model.tree.world_geoms.0.solref"),
                 "mixed signs"));
  // Elliptic cones load, with and without events at an adaptive integrator (the contact modes hold a
  // cone's zone).
  CHECK(load_with(with_geoms({"contact.mujoco.cone=elliptic"})).ok());
  CHECK(load_with(with_geoms({"contact.mujoco.cone=elliptic", "integrator.type=tsit5"})).ok());
  CHECK(load_with(
            with_geoms({"contact.mujoco.cone=elliptic", "integrator.type=tsit5", "integrator.events=false"}))
            .ok());
  // CFD in a tree's forward simulation loads with events on at an adaptive integrator (the contact modes
  // hold CFD's band), and with them off.
  const std::vector<std::string> forward_cfd = {"contact.cfd.enabled=true", "contact.cfd.mode=forward",
                                                "integrator.type=tsit5"};
  CHECK(load_with(with_geoms(forward_cfd)).ok());
  std::vector<std::string> without_events = forward_cfd;
  without_events.push_back("integrator.events=false");
  CHECK(load_with(with_geoms(without_events)).ok());
  CHECK(load_with(with_geoms({"contact.cfd.enabled=true", "integrator.type=tsit5"})).ok());
  CHECK(load_with(with_geoms({"contact.cfd.enabled=true", "contact.cfd.mode=forward"})).ok());
  CHECK(contains(message_at(load_with(with_geoms({"contact.model=elastic"})), "contact.model"),
                 "needs contact.model mujoco, hard or none"));
  CHECK(load_with(with_geoms({"contact.model=hard", "integrator.type=moreau"})).ok());
  CHECK(contains(message_at(load_with(with_geoms({"contact.model=hard"})), "integrator.type"), "moreau"));
  // Load-time checks that need the assembled tree: a plane on a moving body. Every pair of solids has a
  // collider (a cylinder against a box: MuJoCo's convex collider).
  CHECK(contains(problem_errors(load_with(with_geoms({"model.tree.bodies.1.geoms.0.type=plane"}))),
                 "model.tree.bodies.1.geoms.0.type: a plane on a body that moves"));
  CHECK(
      problem_errors(
          load_with(with_geoms(
              {"model.tree.bodies.1.geoms.0.type=cylinder", "model.tree.bodies.1.geoms.0.size=[0.05, 0.1, 0]",
               "model.tree.bodies.1.geoms.0.conaffinity=3",
               R"(model.tree.world_geoms=[{"type": "plane"}, {"type": "box", "contype": 2, "conaffinity": 2}])"})))
          .empty());
  // The box is kept from the capsule by its bits; with contype and conaffinity 0 the cylinder touches
  // nothing.
  CHECK(
      problem_errors(
          load_with(with_geoms(
              {"model.tree.bodies.1.geoms.0.type=cylinder", "model.tree.bodies.1.geoms.0.size=[0.05, 0.1, 0]",
               "model.tree.bodies.1.geoms.0.contype=0", "model.tree.bodies.1.geoms.0.conaffinity=0",
               R"(model.tree.world_geoms=[{"type": "plane"}, {"type": "box", "contype": 2, "conaffinity": 2}])"})))
          .empty());
}

TEST_CASE(
    "a free joint is a floating base: alone, at the root, without limits, actuated by a 6-number gear") {
  const LoadResult ok =
      load_with({"model.tree.bodies.0.joints=[{\"type\": \"free\", \"free_vel\": [1, 0, 0]}]"});
  INFO(ok.format_errors());
  REQUIRE(ok.ok());
  const sg::ProblemLoad p = sg::load_problem_json(ok.config, "tree.json");
  INFO(p.errors);
  REQUIRE(p.ok());
  CHECK(p.problem->data.tree.tree.nv == 9);  // 6 + the lower link's ball
  const std::vector<std::string> paths = differentiable_paths(ok.config);
  CHECK(paths == sg::differentiable_parameters(*p.problem));
  CHECK(std::find(paths.begin(), paths.end(), "model.tree.bodies.0.joints.0.free_vel.0") != paths.end());
  CHECK(contains(
      message_at(load_with({"model.tree.bodies.1.joints.0.type=free"}), "model.tree.bodies.1.joints.0.type"),
      "a free joint needs a body whose parent is the world (-1), got parent 0"));
  CHECK(contains(
      message_at(load_with({"model.tree.bodies.0.joints=[{\"type\": \"free\"}, {\"type\": \"hinge\"}]"}),
                 "model.tree.bodies.0.joints.0.type"),
      "a free joint must be its body's only joint (the body has 2)"));
  CHECK(contains(message_at(load_with({"model.tree.bodies.0.joints.0.type=free",
                                       "model.tree.bodies.0.joints.0.limited=true"}),
                            "model.tree.bodies.0.joints.0.limited"),
                 "a free joint has no limits (hinge, slide or ball only)"));
  const LoadResult pushed =
      load_with({"model.tree.bodies.0.joints.0.type=free",
                 R"(model.tree.actuators=[{"body": 0, "joint": 0, "gear_rest": [0, 1, 0, 0, 2]}])"});
  INFO(pushed.format_errors());
  REQUIRE(pushed.ok());
  const sg::ProblemLoad free_pushed = sg::load_problem_json(pushed.config, "tree.json");
  REQUIRE(free_pushed.ok());
  CHECK(free_pushed.problem->data.tree.act.actuator[0].gear[2] == 1.0);
  CHECK(free_pushed.problem->data.tree.act.actuator[0].gear[5] == 2.0);
}

namespace {

// The problem built from kTwoLinks with `sets`, failing the test if the scene or the problem does not load.
sg::ProblemLoad loaded_problem(const std::vector<std::string>& sets) {
  const LoadResult r = load_with(sets);
  INFO(r.format_errors());
  REQUIRE(r.ok());
  sg::ProblemLoad p = sg::load_problem_json(r.config, "tree.json");
  INFO(p.errors);
  REQUIRE(p.ok());
  return p;
}

}  // namespace

TEST_CASE("equality constraints load by name and body index, and bad ones are reported at their key path") {
  const std::string named = "model.tree.bodies.0.joints.0.name=shoulder";
  const auto equality = [](const std::string& entry) { return "model.tree.equalities=[" + entry + "]"; };
  const sg::ProblemLoad p = loaded_problem(
      {named, equality(R"({"type": "joint", "joint1": "shoulder", "polycoef": [0.1, 0, 0, 0, 0]},
                          {"type": "connect", "body1": 1, "anchor": [0, 0, -0.1]})")});
  const sg::JointTreeModel<double>& m = p.problem->data.tree;
  CHECK(m.constrained());
  REQUIRE(m.con.neq == 2);
  CHECK(m.con.eq[0].type == sg::EqualityType::kJoint);
  CHECK(m.con.eq[0].obj1 == 0);
  CHECK(m.con.eq[0].obj2 == -1);
  CHECK(m.con.eq[1].type == sg::EqualityType::kConnect);
  CHECK(m.con.eq[1].obj1 == 2);
  CHECK(m.con.eq[1].obj2 == 0);
  // The anchor's place on the world at qpos0 (mj_setConst), not at the start (the hinge's qpos 0.5): the
  // lower link's origin at z 1 - 0.4, the anchor 0.1 below it.
  CHECK(m.con.eq[1].anchor2.z == doctest::Approx(0.5).epsilon(1e-12));
  const auto error = [&](const std::vector<std::string>& sets) { return problem_errors(load_with(sets)); };
  CHECK(contains(error({named, equality(R"({"type": "joint", "joint1": "elbow"})")}),
                 "model.tree.equalities.0.joint1: no joint named \"elbow\""));
  CHECK(contains(error({equality(R"({"type": "joint"})")}), "model.tree.equalities.0.joint1: empty"));
  CHECK(contains(
      error({"model.tree.bodies.1.joints.0.name=wrist", equality(R"({"type": "joint", "joint1": "wrist"})")}),
      "joint \"wrist\" is not a hinge or slide"));
  CHECK(contains(error({named, equality(R"({"type": "joint", "joint1": "shoulder", "joint2": "shoulder"})")}),
                 "model.tree.equalities.0: joint1 and joint2 are the same"));
  CHECK(contains(error({equality(R"({"type": "tendon", "tendon1": "cable"})")}),
                 "model.tree.equalities.0.tendon1: no tendon named \"cable\""));
  CHECK(contains(error({equality(R"({"type": "weld", "body1": 5})")}),
                 "model.tree.equalities.0: body index 5 is past the last of the 2 bodies"));
  CHECK(contains(error({equality(R"({"type": "connect", "body1": 1, "body2": 1})")}),
                 "model.tree.equalities.0: body1 and body2 are the same body"));
  CHECK(contains(message_at(load_with({equality(R"({"type": "distance"})")}), "model.tree.equalities.0.type"),
                 "connect"));
}

TEST_CASE("a tendon limit loads into the constraint model, and an inverted range is reported at its key") {
  const std::string named = "model.tree.bodies.0.joints.0.name=shoulder";
  const std::string tendon =
      R"(model.tree.tendons=[{"name": "leash", "path": [{"joint": "shoulder", "coef": 2}], "limited": true,
                              "range": [-0.5, 0.5], "margin": 0.01}])";
  const sg::ProblemLoad p = loaded_problem({named, tendon});
  const sg::JointTreeModel<double>& m = p.problem->data.tree;
  CHECK(m.constrained());
  CHECK(m.con.tendon_limit[0].limited);
  CHECK(m.con.tendon_limit[0].range[1] == 0.5);
  CHECK(m.con.tendon_limit[0].margin == 0.01);
  CHECK(m.con.tendon_invweight0[0] > 0.0);  // mj_setConst's J M^-1 J' at qpos0
  CHECK(contains(message_at(load_with({named, tendon, "model.tree.tendons.0.range=[1, -1]"}),
                            "model.tree.tendons.0.range"),
                 "lo > hi"));
}
