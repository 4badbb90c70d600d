// Capsule against box (engine/collision/collide_capsule_box.hpp) on joint trees, stepped by softgrad next to
// MuJoCo 2.2.2's mj_step on the same file: every branch of MuJoCo's choice of points (a segment end over a
// face, an edge's middle, a box corner; the second point along an edge or a face), through free capsules
// thrown onto boxes at many angles, a capsule finger sweeping a box, and the gradient against FD.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

using nlohmann::json;

namespace {

// A capsule thrown onto a box on the floor (the box a free body too), the capsule's start tilted by
// `euler` (degrees): lying flat lands along a face, tilted it lands on an end, across an edge or a corner.
// A pendulum beside them, touching nothing, makes the model a joint tree (free bodies alone import as
// model.type rigid).
std::string thrown_capsule_xml(const std::string& euler) {
  return R"(<mujoco><option timestep="0.002"/><worldbody>
    <geom name="floor" type="plane" size="3 3 0.1" contype="1" conaffinity="2"/>
    <body name="crate" pos="0 0 0.15" euler="0 0 20">
      <freejoint/>
      <geom name="box" type="box" size="0.2 0.15 0.15" contype="2" conaffinity="1" friction="0.6 0.005 0.0001"/>
    </body>
    <body name="rod" pos="0.05 0.02 0.45" euler=")" +
         euler + R"(">
      <freejoint/>
      <geom name="capsule" type="capsule" size="0.04 0.18" contype="1" conaffinity="3"/>
    </body>
    <body name="pendulum" pos="2 2 1">
      <joint type="hinge" axis="0 1 0"/>
      <geom type="sphere" pos="0 0 -0.3" size="0.05" contype="0" conaffinity="0"/>
    </body>
  </worldbody></mujoco>)";
}

std::string thrown_capsule_scene(const std::string& name, const std::string& xml) {
  json scene = json::parse(R"({
    "model": {"type": "mjcf", "tree": {"bodies": [{}, {"joints": [{"free_vel": [0.3, -0.2, -1.0], "ball_qvel": [1.5, -1, 2]}]}]}},
    "integrator": {"steps": 500},
    "loss": {"terms": [{"quantity": "position", "body": 1, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.bodies.1.joints.0.free_vel.0", "from": -0.5, "to": 0.5, "points": 7}})");
  scene["model"]["file"] = xml;
  return sg::test::write_scene(name, scene);
}

}  // namespace

TEST_CASE("capsules thrown onto a box follow mj_step at every start angle") {
  // 12 start orientations (flat along either box axis, tilted, end-on, diagonal): the capsule lands on the
  // box's faces, edges and corners, bounces and settles with one or two contacts against the box. Euler
  // against mj_step: measured qpos 3e-14 at worst. Tolerance 1e-10 (qpos) and 1e-8 (qvel).
  const char* angles[] = {"0 90 0", "90 0 0", "0 80 0",  "0 60 30",  "0 45 0",  "30 30 0",
                          "0 0 0",  "10 5 0", "0 90 45", "70 20 40", "0 30 80", "45 45 45"};
  int most = 0;
  for (std::size_t k = 0; k < sizeof(angles) / sizeof(angles[0]); ++k) {
    const char* euler = angles[k];
    CAPTURE(std::string(euler));
    const std::string name = "capsule_box_" + std::to_string(k);
    const std::string xml = sg::test::write_mjcf(name, thrown_capsule_xml(euler));
    const sg::Problem p = sg::test::load_scene(thrown_capsule_scene(name, xml));
    const auto c = sg::mjcf::compare_tree_with_mj_step(p.data.tree, xml, 500, p.integrator.dt, false);
    MESSAGE("euler " << std::string(euler) << ": max |dqpos| " << c.qpos << ", |dqvel| " << c.qvel
                     << ", up to " << c.max_contacts << " contacts");
    most = std::max(most, c.max_contacts);
    CHECK(c.qpos < 1e-10);
    CHECK(c.qvel < 1e-8);
  }
  CHECK(most >= 6);  // the box's four corners on the floor and the capsule's two points on the box
}

TEST_CASE("AD through capsule-box contacts matches central FD, and reverse equals forward") {
  // The thrown capsule's final x against its throw speed, 7 points, the capsule landing across the box's
  // edge with two contacts: the second point's place along the segment moves with the capsule's turn, so
  // the points' parameters carry derivatives. Forward-mode AD against central FD (eps 1e-6) of the same
  // Euler steps: measured 3.9e-9 relative at worst; tolerance 1e-6 at every point. Reverse equals forward
  // (1e-9) w.r.t. the throw, the capsule's radius and the box's half size.
  const std::string xml = sg::test::write_mjcf("capsule_box_sweep", thrown_capsule_xml("0 60 30"));
  const sg::Problem p = sg::test::load_scene(thrown_capsule_scene("capsule_box_sweep", xml));
  sg::test::check_sweep_and_reverse(
      "capsule-box", p, 7, 1e-6,
      {"model.tree.bodies.1.joints.0.free_vel.0", "model.tree.bodies.1.geoms.0.size.0",
       "model.tree.bodies.0.geoms.0.size.2"});
}
