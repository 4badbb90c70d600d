// Ball joint limits (MuJoCo's cone limit: the rotation angle from the rest pose kept below the larger end of
// range, one row along the rotation's axis): two arms on ball joints swung into their cones, against mj_step;
// their onsets and releases are located contact events under the adaptive integrators.
#include <doctest/doctest.h>

#include <string>

#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// A hanging arm in a 0.6 rad cone, swung out sideways and around; a second arm with a margin and a stiffer
// limit, started tilted (by the scene) and swung into a 0.4 rad cone, scraping the floor as it passes the
// vertical.
const char* const kCones = R"(<mujoco>
  <compiler angle="radian"/>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="ball" limited="true" range="0 0.6" damping="0.01"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0 0 -0.4"/>
      <site name="tip" pos="0 0 -0.4"/>
    </body>
    <body name="stick" pos="0.8 0 0.41">
      <joint name="hip" type="ball" limited="true" range="0 0.4" margin="0.05" solreflimit="0.01 1"/>
      <geom type="capsule" size="0.02" fromto="0 0 0 0 0 -0.4"/>
    </body>
  </worldbody>
</mujoco>
)";

const std::vector<std::string> kSwing = {
    "model.tree.bodies.0.joints.0.ball_qvel=[3, 0, 1]",
    "model.tree.bodies.1.joints.0.ball_qpos=[0.9887711, 0, 0.1494381, 0]",
    "model.tree.bodies.1.joints.0.ball_qvel=[0, 2.5, 0]"};

}  // namespace

TEST_CASE(
    "ball joint limits: imported, and stepped as mj_step does, two arms swung into their cones (tol 1e-9)") {
  const nlohmann::json keys = sg::test::imported("ball_limits", kCones);
  const nlohmann::json& j = keys["model"]["tree"]["bodies"][0]["joints"][0];
  CHECK(j["limited"] == true);
  CHECK(j["range"] == nlohmann::json({0.0, 0.6}));
  CHECK(keys["model"]["tree"]["bodies"][1]["joints"][0]["margin"] == 0.05);
  const std::string file = sg::test::write_mjcf("ball_limits", kCones);
  const sg::Problem p = sg::test::load_scene(file, kSwing);
  const sg::mjcf::TreeStepComparison c =
      sg::test::check_follows_mj_step("ball limits", p, file, 1000, 0.002, 1.0);
  CHECK(c.max_contacts >= 1);  // the stick scrapes the floor
  // Without the limits the arms swing further: the comparison sees the limits act.
  const sg::Problem free_swing =
      sg::test::load_scene(file, sg::test::with_sets(kSwing, {"model.tree.bodies.0.joints.0.limited=false",
                                                              "model.tree.bodies.1.joints.0.limited=false"}));
  CHECK(sg::mjcf::compare_tree_with_mj_step(free_swing.data.tree, file, 300, 0.002, false).qpos > 1e-2);
}

TEST_CASE("ball joint limits differentiate and are located events under Tsit5: AD = FD over a sweep") {
  const std::string file = sg::test::write_mjcf("ball_limits_grad", kCones);
  const std::string loss =
      R"(loss.terms=[{"quantity": "site", "site": "tip", "axis": "y"}, {"quantity": "qpos", "joint": "hip", "component": 2}])";
  // Euler, 300 steps: forward = reverse = FD in the arms' start rates.
  const sg::Problem euler =
      sg::test::load_scene(file, sg::test::with_sets(kSwing, {"integrator.steps=300", loss}));
  sg::test::check_reverse_and_fd(
      euler, {"model.tree.bodies.0.joints.0.ball_qvel.0", "model.tree.bodies.1.joints.0.ball_qvel.1"}, 1e-9,
      1e-5);
  // Tsit5 1e-12 with the limit's onsets and releases located: the tip's y after 0.5 s against the swing's
  // rate, 21 points.
  const sg::Problem p = sg::test::load_scene(
      file, sg::test::with_sets(kSwing, {"integrator.type=tsit5", "integrator.rtol=1e-12",
                                         "integrator.atol=1e-12", "integrator.steps=250", loss,
                                         "sweep.parameter=model.tree.bodies.0.joints.0.ball_qvel.0",
                                         "sweep.from=2", "sweep.to=4", "sweep.points=21"}));
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 21, 1e-4, true);
  MESSAGE("ball limit under Tsit5 1e-12: worst relative AD-FD difference " << worst);
  sg::test::check_reverse_equals_forward("ball limit, Tsit5", p, {"model.tree.bodies.0.joints.0.ball_qvel.0"},
                                         2, true);
}
