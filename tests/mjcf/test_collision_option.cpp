// MuJoCo's option collision (all, predefined, dynamic): which geom pairs mj_collision tests. A paddle that
// touches nothing but through its explicit pair strikes a ball that rolls into a puck resting on the floor:
// under predefined the puck, in no pair, falls through the floor; under dynamic the paddle, whose contype is
// 0, swings through the ball. Each option against MuJoCo 2.2.2's mj_step on the same file.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"
#include "tests/mjcf/strike_scene.hpp"

namespace {

std::string strike(const std::string& collision) {
  return sg::test::strike_mjcf("collision=\"" + collision + "\"");
}

const std::vector<std::string>& kSwing = sg::test::kStrikeSwing;

}  // namespace

TEST_CASE(
    "option collision predefined and dynamic import as model.tree.collision and follow mj_step (tol 1e-9)") {
  for (const std::string collision : {"predefined", "dynamic"}) {
    CAPTURE(collision);
    const std::string xml = strike(collision);
    CHECK(sg::test::imported("collision_" + collision, xml)["model"]["tree"]["collision"] == collision);
    const std::string file = sg::test::write_mjcf("collision_" + collision, xml);
    const sg::Problem p = sg::test::load_scene(file, kSwing);
    const sg::mjcf::TreeStepComparison c =
        sg::test::check_follows_mj_step(("collision " + collision).c_str(), p, file, 600, 0.002, 1.0);
    CHECK(c.max_contacts >= 1);
    // The option acts: the same scene colliding every pair (MuJoCo's default) parts from mj_step.
    sg::test::check_each_matters(file, kSwing, {"model.tree.collision=all"}, 600, 0.002);
  }
  // The default leaves the key out.
  CHECK(!sg::test::imported("collision_all", strike("all"))["model"]["tree"].contains("collision"));
}

TEST_CASE("option collision decides which geoms the import keeps: a mesh outside the pairs is a visual") {
  // A tetrahedron that may touch the ball through the filter: a mesh geom (with its mesh) under all and
  // dynamic, a visual (left out, and its mesh with it) under predefined, where only the pair collides.
  const auto model = [](const std::string& collision) {
    return sg::test::mjcf_model(
        R"(<geom name="floor" type="plane" size="1 1 0.1"/>
           <body name="ball" pos="0 0 0.2"><freejoint/><geom name="ball" size="0.05"/></body>
           <body name="rock" pos="0.3 0 0.2"><freejoint/><geom name="rock" type="mesh" mesh="tetra"/></body>)",
        R"(<option collision=")" + collision + R"("/>
           <asset><mesh name="tetra" vertex="0 0 0 0.1 0 0 0 0.1 0 0 0 0.1"/></asset>
           <contact><pair geom1="ball" geom2="floor"/></contact>)");
  };
  for (const std::string collision : {"all", "dynamic"}) {
    CAPTURE(collision);
    const nlohmann::json tree = sg::test::imported("mesh_" + collision, model(collision))["model"]["tree"];
    REQUIRE(tree["bodies"][1]["geoms"].size() == 1);
    CHECK(tree["bodies"][1]["geoms"][0]["type"] == "mesh");
    CHECK(tree["meshes"].size() == 1);
  }
  const nlohmann::json keys = sg::test::imported("mesh_predefined", model("predefined"));
  CHECK(keys["model"]["tree"]["collision"] == "predefined");
  CHECK(keys["model"]["tree"]["pairs"].size() == 1);
  CHECK(keys["model"]["tree"]["bodies"][1]["geoms"].empty());
  CHECK_FALSE(keys["model"]["tree"].contains("meshes"));
}
