// Explicit contact pairs (MuJoCo's <contact><pair>): a paddle that collides with nothing else strikes a ball
// through its pair, the ball meets the floor with the pair's own friction, and rolls into a puck whose body
// pair is excluded but whose geom pair is named. Against MuJoCo 2.2.2's mj_step on the same file, and
// differentiated through the pair's parameters.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"
#include "tests/mjcf/strike_scene.hpp"

namespace {

const std::string kStrike = sg::test::strike_mjcf();

const std::vector<std::string>& kSwing = sg::test::kStrikeSwing;

}  // namespace

TEST_CASE("explicit pairs import with their parameters and follow mj_step (tol 1e-9)") {
  const nlohmann::json keys = sg::test::imported("pairs_strike", kStrike);
  const nlohmann::json& pairs = keys["model"]["tree"]["pairs"];
  // In MuJoCo's compiled order: sorted by body pair, each pair's geoms by body.
  REQUIRE(pairs.size() == 3);
  CHECK(pairs[0]["geom1"] == "floor");
  CHECK(pairs[0]["friction"] == nlohmann::json({0.3, 0.9, 0.005, 0.0001, 0.0001}));
  CHECK(pairs[1]["name"] == "strike");
  CHECK(pairs[1]["geom1"] == "paddle");
  CHECK(pairs[1]["condim"] == 4);
  CHECK(pairs[1]["solref"] == nlohmann::json({0.01, 0.8}));
  CHECK(pairs[2]["geom2"] == "puck");
  CHECK(pairs[2]["margin"] == 0.002);
  const std::string file = sg::test::write_mjcf("pairs_strike", kStrike);
  const sg::Problem p = sg::test::load_scene(file, kSwing);
  CHECK(p.data.tree.con.npair == 3);
  const sg::mjcf::TreeStepComparison c =
      sg::test::check_follows_mj_step("explicit pairs", p, file, 600, 0.002, 1.0);
  CHECK(c.max_contacts >= 3);
  // Each pair acts: without the pairs the paddle passes through the ball, and the ball's floor contact and
  // its collision with the puck change with their own parameters.
  sg::test::check_each_matters(
      file, kSwing,
      {"model.tree.pairs=[]", "model.tree.pairs.1.solref=[0.05,1]",
       "model.tree.pairs.0.friction=[1,1,0.005,0.0001,0.0001]", "model.tree.pairs.2.solref=[-300,-30]"},
      600, 0.002);
}

TEST_CASE("a pair's friction and solref differentiate: forward = reverse = FD") {
  const std::string file = sg::test::write_mjcf("pairs_grad", kStrike);
  const sg::Problem p = sg::test::load_scene(
      file,
      sg::test::with_sets(kSwing, {"integrator.steps=450",
                                   R"(loss.terms=[{"quantity": "position", "body": 2, "axis": "x"}])"}));
  sg::test::check_reverse_and_fd(
      p, {"model.tree.pairs.1.solref.0", "model.tree.pairs.0.friction.0", "model.tree.pairs.2.solref.1"},
      1e-9, 1e-4);
}

TEST_CASE("a pair naming no geom, two geoms, or one geom twice is an error at its key") {
  const auto errors_with = [](const std::string& name, const nlohmann::json& pair) {
    nlohmann::json scene = nlohmann::json::parse(R"({"contact": {"model": "mujoco"},
      "model": {"type": "tree", "tree": {"bodies": [
        {"joints": [{"type": "hinge"}], "geoms": [{"name": "a"}, {"name": "twin"}]},
        {"parent": 0, "geoms": [{"name": "twin", "pos": [0.2, 0, 0]}]}]}}})");
    scene["model"]["tree"]["pairs"] = nlohmann::json::array({pair});
    return sg::load_problem_file(sg::test::write_scene(name, scene)).errors;
  };
  CHECK(errors_with("pairs_missing", {{"geom1", "a"}, {"geom2", "b"}})
            .find("model.tree.pairs.0.geom2: no geom is named 'b'") != std::string::npos);
  CHECK(errors_with("pairs_twice", {{"geom1", "twin"}, {"geom2", "a"}})
            .find("model.tree.pairs.0.geom1: 2 geoms are named 'twin'") != std::string::npos);
  CHECK(errors_with("pairs_same", {{"geom1", "a"}, {"geom2", "a"}})
            .find("model.tree.pairs.0.geom2: the same geom as geom1") != std::string::npos);
  CHECK(
      errors_with("pairs_unnamed", {{"geom2", "a"}}).find("model.tree.pairs.0.geom1: needs a geom's name") !=
      std::string::npos);
}

TEST_CASE("a pair of two planes collides nothing, as in MuJoCo (which has no collider for it)") {
  const nlohmann::json planes = nlohmann::json::parse(R"({"contact": {"model": "mujoco"},
      "model": {"type": "tree", "tree": {"bodies": [{"joints": [{"type": "hinge"}], "geoms": [{}]}],
        "world_geoms": [{"name": "floor", "type": "plane"},
                        {"name": "wall", "type": "plane", "quat": [0.7071067811865476, 0.7071067811865476, 0, 0]}],
        "pairs": [{"geom1": "floor", "geom2": "wall"}]}}})");
  const sg::ProblemLoad loaded = sg::load_problem_file(sg::test::write_scene("pairs_planes", planes));
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  CHECK(loaded.problem->data.tree.con.npair == 0);
}

TEST_CASE("AD through explicit pairs matches central FD across a sweep of the floor pair's friction") {
  // The puck's final x against the ball-floor pair's sliding friction, 9 points over [0.1, 0.9], 450 Euler
  // steps (strike, roll, collision with the puck through the third pair): every point within 1e-4 of FD
  // (measured 1.8e-8 at worst).
  const std::string file = sg::test::write_mjcf("pairs_sweep", kStrike);
  const sg::Problem p = sg::test::load_scene(
      file, sg::test::with_sets(kSwing, {"integrator.steps=450",
                                         R"(loss.terms=[{"quantity": "position", "body": 2, "axis": "x"}])",
                                         "sweep.parameter=model.tree.pairs.0.friction.0", "sweep.from=0.1",
                                         "sweep.to=0.9", "sweep.points=9"}));
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 9, 1e-4, true);
  MESSAGE("explicit pairs sweep: worst relative AD-FD " << worst);
}
