// Mesh geoms, collided as MuJoCo 2.2.2 collides them: as their convex hull. A plane against a mesh takes the
// hull's deepest vertex and up to two of its hull neighbours (mjc_PlaneConvex); any other geom against a
// mesh, and mesh against mesh, one contact from MPR (mjc_Convex). Imported from MJCF (MuJoCo's compiled
// vertices and hull graph), stepped against mj_step; each pair acts; without a hull graph
// (convexhull="false") every vertex is tried, as MuJoCo does; forward mode against reverse mode and FD; bad
// meshes are errors at their keys.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// Bodies (model.tree.bodies): 0 rock (thrown onto the floor), 1 a static bar, 2 a wedge dropped onto the bar,
// 3 a second rock on the floor with 6 a skewed cube dropped onto it, 4 a third rock with 5 a ball dropped
// onto it. The ball falls apart from the cube: MPR on two flat mesh faces can jump with a rounding-level
// change of the state (a cube on a rock here once: 1e-15 in qpos moved its depth by 4.5e-5, in MuJoCo as in
// softgrad), and a ball rolling beside it brought such rounding, so the pair parted from mj_step where MuJoCo
// would have parted from itself.
const char* const kMeshes = R"(<mujoco>
  <option timestep="0.002"/>
  <asset>
    <mesh name="rock" vertex="0.1 0 0  -0.08 0.02 0.01  0.01 0.09 0.01  0.01 -0.1 -0.01  0 0.01 0.11
                              0.02 0.01 -0.08  0.06 0.06 0.05  -0.05 -0.05 0.06  0.05 -0.06 -0.04
                              -0.04 0.05 -0.05"/>
    <mesh name="wedge" vertex="-0.12 -0.05 0  0.12 -0.05 0  -0.12 0.05 0  0.12 0.05 0  -0.1 0 0.07  0.1 0 0.075"/>
    <mesh name="cube" vertex="-0.06 -0.06 -0.06  0.06 -0.06 -0.06  0.06 0.065 -0.06  -0.06 0.06 -0.06
                              -0.06 -0.06 0.06  0.065 -0.06 0.06  0.06 0.06 0.06  -0.06 0.06 0.065"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1" friction="1.2"/>
    <body name="rock" pos="0 0 0.15" euler="20 30 10">
      <freejoint name="rock"/>
      <geom name="rock" type="mesh" mesh="rock" density="800"/>
    </body>
    <body name="bar" pos="1 0 0">
      <geom name="bar" type="capsule" fromto="0 -0.1 0.2 0 0.1 0.2" size="0.04"/>
    </body>
    <body name="wedge" pos="1.02 0 0.4" euler="10 -20 40">
      <freejoint name="wedge"/>
      <geom name="wedge" type="mesh" mesh="wedge"/>
    </body>
    <body name="rock2" pos="-1 0 0.12">
      <freejoint name="rock2"/>
      <geom name="rock2" type="mesh" mesh="rock"/>
    </body>
    <body name="rock3" pos="-1 1 0.12" euler="0 0 30">
      <freejoint name="rock3"/>
      <geom name="rock3" type="mesh" mesh="rock"/>
    </body>
    <body name="ball" pos="-0.99 1.01 0.35">
      <freejoint name="ball"/>
      <geom name="ball" type="sphere" size="0.04"/>
    </body>
    <body name="cube" pos="-1.02 -0.01 0.6" euler="15 25 0">
      <freejoint name="cube"/>
      <geom name="cube" type="mesh" mesh="cube"/>
    </body>
  </worldbody>
</mujoco>
)";

// The rock thrown sideways and spinning.
const std::vector<std::string> kThrow = {"model.tree.bodies.0.joints.0.free_vel=[0.8, 0.2, 0]",
                                         "model.tree.bodies.0.joints.0.ball_qvel=[3, -2, 5]"};

// A skewed box given with its triangles, compiled without a hull (no graph): every vertex is tried.
const char* const kNoHull = R"(<mujoco>
  <compiler convexhull="false"/>
  <option timestep="0.002"/>
  <asset>
    <mesh name="box" vertex="-0.1 -0.06 -0.05  0.1 -0.06 -0.05  0.11 0.06 -0.05  -0.1 0.06 -0.05
                             -0.1 -0.06 0.05  0.1 -0.06 0.05  0.1 0.06 0.05  -0.1 0.07 0.05"
          face="0 2 1  0 3 2  4 5 6  4 6 7  0 1 5  0 5 4  2 3 7  2 7 6  0 4 7  0 7 3  1 2 6  1 6 5"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    <body name="box" pos="0 0 0.2" euler="25 -10 30">
      <freejoint name="box"/>
      <geom name="box" type="mesh" mesh="box"/>
    </body>
    <body name="ball" pos="0.02 0 0.45">
      <freejoint name="ball"/>
      <geom name="ball" type="sphere" size="0.04"/>
    </body>
  </worldbody>
</mujoco>
)";

}  // namespace

TEST_CASE("meshes: imported with MuJoCo's vertices and hull, stepped as mj_step does (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("meshes", kMeshes);
  const nlohmann::json keys = sg::test::imported("meshes", kMeshes);
  const nlohmann::json& tree = keys["model"]["tree"];
  REQUIRE(tree["meshes"].size() == 3);
  CHECK(tree["meshes"][0]["name"] == "rock");
  CHECK(tree["meshes"][0]["graph"].size() > 2);
  CHECK(tree["bodies"][0]["geoms"][0]["type"] == "mesh");
  CHECK(tree["bodies"][0]["geoms"][0]["mesh"] == "rock");
  const sg::Problem p = sg::test::load_scene(file, kThrow);
  const auto c = sg::test::check_follows_mj_step("meshes", p, file, 600, 0.002, 0.5);
  CHECK(c.max_contacts >= 6);
  // A mesh geom's size key is not read (the colliders read the mesh): a different one changes nothing.
  const sg::Problem sized =
      sg::test::load_scene(file, sg::test::with_sets(kThrow, {"model.tree.bodies.0.geoms.0.size=[1, 1, 1]"}));
  sg::test::check_follows_mj_step("meshes, size key changed", sized, file, 600, 0.002, 0.5);
  // Each mesh pair acts: the rock on the floor (plane-mesh), the wedge on the bar (capsule-mesh), the ball
  // and the cube on the second rock (sphere-mesh, mesh-mesh). Excluding one parts the run from mj_step.
  sg::test::check_each_matters(file, kThrow,
                               {"model.tree.excludes=[{\"body1\": 0, \"body2\": -1}]",
                                "model.tree.excludes=[{\"body1\": 1, \"body2\": 2}]",
                                "model.tree.excludes=[{\"body1\": 4, \"body2\": 5}]",
                                "model.tree.excludes=[{\"body1\": 3, \"body2\": 6}]"},
                               600, 0.002);
}

TEST_CASE("meshes: without a hull graph every vertex is tried, as MuJoCo does (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("mesh_no_hull", kNoHull);
  const nlohmann::json keys = sg::test::imported("mesh_no_hull", kNoHull);
  const nlohmann::json& mesh = keys["model"]["tree"]["meshes"][0];
  CHECK_FALSE(mesh.contains("graph"));
  CHECK(mesh["faces"].size() == 36);
  const std::vector<std::string> spin = {"model.tree.bodies.0.joints.0.ball_qvel=[2, 4, -3]"};
  const sg::Problem p = sg::test::load_scene(file, spin);
  const auto c = sg::test::check_follows_mj_step("mesh without hull", p, file, 600, 0.002, 0.5);
  CHECK(c.max_contacts >= 3);
}

TEST_CASE("meshes: plane-mesh gradients, forward mode equals reverse mode and FD") {
  const std::string file = sg::test::write_mjcf("meshes_grad", kMeshes);
  const sg::Problem p = sg::test::load_scene(
      file,
      sg::test::with_sets(
          kThrow,
          {"integrator.steps=200",
           R"(loss.terms=[{"quantity": "position", "body": 0, "axis": "x"}, {"quantity": "position", "body": 0, "axis": "y"}])"}));
  sg::test::check_reverse_and_fd(
      p,
      {"model.tree.bodies.0.joints.0.free_vel.0", "model.tree.bodies.0.joints.0.ball_qvel.2",
       "model.tree.world_geoms.0.friction.0"},
      1e-9, 1e-5);
}

TEST_CASE("meshes: MPR's mesh gradients, reverse mode equals forward mode") {
  // MPR stops at a tolerance, so its depth is piecewise smooth: FD across its branches is noise; forward and
  // reverse mode differentiate the same branches.
  const std::string file = sg::test::write_mjcf("meshes_mpr_grad", kMeshes);
  const sg::Problem p = sg::test::load_scene(
      file,
      sg::test::with_sets(
          kThrow,
          {"integrator.steps=300",
           R"(loss.terms=[{"quantity": "position", "body": 4, "axis": "y"}, {"quantity": "position", "body": 6, "axis": "x"}, {"quantity": "position", "body": 2, "axis": "x"}])"}));
  sg::test::check_reverse_equals_forward(
      "mesh MPR", p, {"model.tree.bodies.5.pos.0", "model.tree.bodies.6.pos.1", "model.tree.bodies.2.pos.0"},
      0, true);
}

TEST_CASE("meshes: a missing or unknown mesh, bad vertices, faces and graphs are errors at their keys") {
  const std::string file = sg::test::write_mjcf("meshes_bad", kMeshes);
  const std::string m = "model.tree.meshes.0", g = "model.tree.bodies.0.geoms.0";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {g + ".mesh=pebble", g + ".mesh: no mesh named \"pebble\""},
      {g + ".mesh=", g + ".mesh: a mesh geom needs a mesh"},
      {"model.tree.world_geoms.0.mesh=rock", "model.tree.world_geoms.0.mesh: only a mesh geom names a mesh"},
      {m + ".vertices=[0, 0, 0, 1, 0, 0, 0, 1]", m + ".vertices: 3 numbers per vertex"},
      {m + ".vertices=[0, 0, 0, 1, 0, 0, 0, 1, 0]", m + ".vertices: at least 4 vertices"},
      {m + ".faces=[0, 1]", m + ".faces: 3 vertex indices per triangle"},
      {m + ".faces=[0, 1, 99]", m + ".faces.2: vertex 99"},
      {m + ".faces=[0, 1.5, 2]", m + ".faces.1: not an index"},
      {m + ".graph=[4, 0, 0]", m + ".graph"},
      {"model.tree.meshes.1.name=rock", "model.tree.meshes.1.name: \"rock\" names two meshes"}};
  sg::test::check_load_errors(file, cases);
}
