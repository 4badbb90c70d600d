// Height fields, collided as MuJoCo 2.2.2 collides them (mjc_ConvexHField): each triangle of the cells under
// a geom, as a prism down to the base, against the geom by MPR, one contact per triangle. Imported from MJCF
// (MuJoCo's compiled elevations, from a binary file written here), stepped against mj_step; each pair acts;
// forward mode against reverse mode and FD; bad fields are errors at their keys.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// A bumpy terrain, 2 m x 2 m, 21 x 21 points, bumps up to 0.15 m on a base 0.05 m deep. Bodies
// (model.tree.bodies): 0 a ball rolled across it, 1 a capsule, 2 a box (MPR), 3 an ellipsoid, 4 a mesh rock,
// each thrown onto another part of it.
const char* const kTerrain = R"(<mujoco>
  <option timestep="0.002"/>
  <asset>
    <hfield name="bumps" file="hfield_bumps.bin" size="1 1 0.15 0.05"/>
    <mesh name="rock" vertex="0.1 0 0  -0.08 0.02 0.01  0.01 0.09 0.01  0.01 -0.1 -0.01  0 0.01 0.11
                              0.02 0.01 -0.08  0.06 0.06 0.05  -0.05 -0.05 0.06  0.05 -0.06 -0.04
                              -0.04 0.05 -0.05"/>
  </asset>
  <worldbody>
    <geom name="terrain" type="hfield" hfield="bumps" pos="0 0 0" euler="0 0 10" friction="0.9"/>
    <body name="ball" pos="-0.6 -0.6 0.35">
      <freejoint name="ball"/>
      <geom name="ball" type="sphere" size="0.06"/>
    </body>
    <body name="capsule" pos="0.5 -0.5 0.4" euler="80 10 0">
      <freejoint name="capsule"/>
      <geom name="capsule" type="capsule" size="0.04 0.1"/>
    </body>
    <body name="box" pos="-0.5 0.5 0.4" euler="20 30 10">
      <freejoint name="box"/>
      <geom name="box" type="box" size="0.08 0.06 0.05"/>
    </body>
    <body name="egg" pos="0.5 0.5 0.4" euler="40 0 20">
      <freejoint name="egg"/>
      <geom name="egg" type="ellipsoid" size="0.08 0.05 0.06"/>
    </body>
    <body name="rock" pos="0 0 0.45" euler="20 30 10">
      <freejoint name="rock"/>
      <geom name="rock" type="mesh" mesh="rock"/>
    </body>
  </worldbody>
</mujoco>
)";

const std::vector<std::string> kThrow = {"model.tree.bodies.0.joints.0.free_vel=[0.9, 0.7, 0]",
                                         "model.tree.bodies.1.joints.0.ball_qvel=[2, -3, 4]",
                                         "model.tree.bodies.2.joints.0.free_vel=[0.4, -0.3, 0]",
                                         "model.tree.bodies.4.joints.0.ball_qvel=[3, -2, 5]"};

// MuJoCo's binary hfield format: int32 nrow, int32 ncol, then nrow x ncol float32 elevations, row by row.
void write_bumps(const std::string& xml_path) {
  const int n = 21;
  std::ofstream out(std::filesystem::path(xml_path).parent_path() / "hfield_bumps.bin", std::ios::binary);
  const std::int32_t dims[2] = {n, n};
  out.write(reinterpret_cast<const char*>(dims), sizeof dims);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = c / (n - 1.0), y = r / (n - 1.0);
      const float e =
          static_cast<float>(std::sin(7.0 * x) * std::cos(5.0 * y) + 0.3 * std::sin(13.0 * x * y));
      out.write(reinterpret_cast<const char*>(&e), sizeof e);
    }
}

std::string terrain_file(const std::string& name) {
  const std::string file = sg::test::write_mjcf(name, kTerrain);
  write_bumps(file);
  return file;
}

}  // namespace

TEST_CASE("height fields: imported with MuJoCo's elevations, stepped as mj_step does (tol 1e-9)") {
  const std::string file = terrain_file("hfield");
  const nlohmann::json keys = sg::test::imported("hfield", kTerrain);
  const nlohmann::json& tree = keys["model"]["tree"];
  REQUIRE(tree["hfields"].size() == 1);
  const nlohmann::json& field = tree["hfields"][0];
  CHECK(field["name"] == "bumps");
  CHECK(field["nrow"] == 21);
  CHECK(field["elevation"].size() == 441);
  CHECK(tree["world_geoms"][0]["type"] == "hfield");
  CHECK(tree["world_geoms"][0]["hfield"] == "bumps");
  const sg::Problem p = sg::test::load_scene(file, kThrow);
  const auto c = sg::test::check_follows_mj_step("hfield", p, file, 500, 0.002, 0.5);
  CHECK(c.max_contacts >= 8);
  // Each body's contacts with the field act: excluding one parts the run from mj_step.
  std::vector<std::string> offs;
  for (int b = 0; b < 5; ++b)
    offs.push_back("model.tree.excludes=[{\"body1\": " + std::to_string(b) + ", \"body2\": -1}]");
  sg::test::check_each_matters(file, kThrow, offs, 500, 0.002);
}

TEST_CASE("height fields: the ball's gradients, forward mode equals reverse mode and FD") {
  // MPR stops at its 1e-6 m tolerance, so a contact's depth is smooth only piecewise, with steps of about
  // that size; a relative FD step of 1e-6 straddles them (AD 0.4177 against FD 0.4510 for the launch speed
  // after 150 steps), one of 1e-8 stays on the piece AD differentiates. The field's own position is
  // differentiable.
  const std::string file = terrain_file("hfield_grad");
  for (const char* steps : {"integrator.steps=150", "integrator.steps=300"}) {
    CAPTURE(steps);
    const sg::Problem p =
        sg::test::load_scene(file, {"model.tree.bodies.0.joints.0.free_vel=[0.9, 0.7, 0]", steps,
                                    R"(loss.terms=[{"quantity": "position", "body": 0, "axis": "x"}])"});
    sg::test::check_reverse_and_fd(
        p,
        {"model.tree.bodies.0.joints.0.free_vel.0", "model.tree.bodies.0.geoms.0.friction.0",
         "model.tree.world_geoms.0.pos.2", "model.tree.world_geoms.0.pos.0"},
        1e-9, 1e-4, 1e-8);
  }
}

TEST_CASE("height fields: through an explicit pair, and beside a plane (no collider in MuJoCo either)") {
  // The ball collides with nothing by the filter (contype 0), with the field through its <pair>; the floor
  // plane lies 5 cm below the field's top and the field's base reaches through it: plane-field has no
  // collider in MuJoCo, so the pair is neither collided nor refused. A field of 3 x 3 points set at load
  // (MuJoCo's nrow/ncol without a file: all elevations 0).
  const std::string xml = sg::test::mjcf_model(
      R"(<geom name="floor" type="plane" size="3 3 0.1" pos="0 0 -0.05"/>
         <geom name="field" type="hfield" hfield="flat" euler="5 0 0"/>
         <body name="ball" pos="0.1 0 0.3"><freejoint/>
           <geom name="ball" type="sphere" size="0.05" contype="0" conaffinity="0"/></body>)",
      R"(<option timestep="0.002"/>
         <asset><hfield name="flat" nrow="3" ncol="3" size="1 1 0.1 0.1"/></asset>
         <contact><pair name="touch" geom1="ball" geom2="field"/></contact>)");
  const std::string file = sg::test::write_mjcf("hfield_pair", xml);
  const sg::Problem p = sg::test::load_scene(file, {"model.tree.bodies.0.joints.0.free_vel=[0.5, 0, 0]"});
  const auto c = sg::test::check_follows_mj_step("hfield pair", p, file, 400, 0.002, 0.5);
  CHECK(c.max_contacts >= 1);
}

TEST_CASE("height fields: a missing or unknown field and bad grids are errors at their keys") {
  const std::string file = terrain_file("hfield_bad");
  const std::string h = "model.tree.hfields.0", g = "model.tree.world_geoms.0";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {g + ".hfield=hills", g + ".hfield: no hfield named \"hills\""},
      {g + ".hfield=", g + ".hfield: an hfield geom needs an hfield"},
      {"model.tree.bodies.0.geoms.0.hfield=bumps",
       "model.tree.bodies.0.geoms.0.hfield: only an hfield geom names an hfield"},
      {h + ".nrow=20", h + ".elevation: 441 numbers where nrow x ncol is 420"},
      {h + ".elevation.3=1.5", h + ".elevation.3"},
      {h + ".size=[1, 1, 0.15, 0]", h + ".size.3: must be a positive number"}};
  sg::test::check_load_errors(file, cases);
}
