// A hinge's or slide's ref (MuJoCo's qpos0: the coordinate where the body is at rest): kinematics turn and
// move the body by qpos - ref, while springs, limits and actuators read qpos itself; the import starts the
// joint at ref, as mj_resetData does. Checked step by step against mj_step and differentiated.
#include <doctest/doctest.h>

#include <string>

#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// An arm on a hinge (ref 0.7 rad, a spring towards 0.2, a position servo) carrying a hand on a slide (ref
// 0.05 m). With the servo's control at 2 the arm presses into its upper limit (1.5 rad) and the hand slides
// out onto its own (0.2 m): measured 1.549 rad and 0.219 m at most.
const char* const kArm = R"(<mujoco>
  <compiler angle="radian"/>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" ref="0.7" springref="0.2" stiffness="1" damping="0.1"
             limited="true" range="-0.5 1.5"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0.4 0 0"/>
      <body name="hand" pos="0.4 0 0">
        <joint name="wrist" type="slide" axis="1 0 0" ref="0.05" limited="true" range="-0.1 0.2"/>
        <geom type="sphere" size="0.05"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position name="servo" joint="shoulder" kp="5" ctrlrange="-1 2" ctrllimited="true"/>
  </actuator>
</mujoco>
)";

}  // namespace

TEST_CASE("a joint's ref: imported, started at, and stepped as mj_step does, limits engaged (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("joint_ref", kArm);
  const nlohmann::json keys = sg::test::imported("joint_ref", kArm);
  const nlohmann::json& shoulder = keys["model"]["tree"]["bodies"][0]["joints"][0];
  CHECK(shoulder["ref"] == 0.7);
  CHECK(shoulder["qpos"] == 0.7);
  CHECK(keys["model"]["tree"]["bodies"][1]["joints"][0]["ref"] == 0.05);
  const sg::Problem p = sg::test::load_scene(file, {"model.tree.actuators.0.ctrl=2"});
  // Measured 6e-17 in qpos and 1.3e-15 in qvel over 1000 steps (2 s).
  const auto c = sg::mjcf::compare_tree_with_mj_step(p.data.tree, file, 1000, 0.002, false);
  CHECK(c.qpos < 1e-9);
  CHECK(c.xpos < 1e-9);
  CHECK(c.qvel < 1e-9);
  // Without ref (the body's rest pose at coordinate 0) the same start is another pose: the comparison sees
  // it.
  const sg::Problem shifted =
      sg::test::load_scene(file, {"model.tree.actuators.0.ctrl=2", "model.tree.bodies.0.joints.0.ref=0"});
  CHECK(sg::mjcf::compare_tree_with_mj_step(shifted.data.tree, file, 10, 0.002, false).xpos > 0.1);
}

TEST_CASE("a joint's ref is a differentiable scene number: forward = reverse = FD") {
  const std::string file = sg::test::write_mjcf("joint_ref_gradient", kArm);
  // The loss (the hand's final x, body 1) after 200 steps, with the hinge in its limit from about 0.3 s.
  const sg::Problem p =
      sg::test::load_scene(file, {"model.tree.actuators.0.ctrl=2", "integrator.steps=200",
                                  R"(loss.terms=[{"quantity": "position", "body": 1, "axis": "x"}])"});
  sg::test::check_reverse_and_fd(p, {"model.tree.bodies.0.joints.0.ref", "model.tree.bodies.1.joints.0.ref"},
                                 1e-9, 1e-5);
}
