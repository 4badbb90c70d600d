// Activation limits (MuJoCo's actlimited and actrange): mj_advance clamps a limited activation to its range
// after each Euler or RK4 step. A cart's integrated velocity command (MuJoCo's intvelocity) runs into its
// limit, and an arm's filtered motor is held at its bound; against mj_step, and differentiated.
#include <doctest/doctest.h>

#include <string>

#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

const char* const kLimited = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <body name="arm" pos="0 0 0.5">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0.3 0 0"/>
    </body>
    <body name="cart" pos="0 0.5 0.1">
      <joint name="rail" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.05 0.05 0.05" mass="0.5"/>
    </body>
  </worldbody>
  <actuator>
    <general name="plain" joint="rail" gainprm="0.1"/>
    <general name="lowpass" joint="shoulder" dyntype="filter" dynprm="0.05" gainprm="3" actlimited="true"
             actrange="-0.5 0.5"/>
    <general name="glide" joint="rail" dyntype="integrator" gainprm="20" biastype="affine" biasprm="0 -20 -2"
             actlimited="true" actrange="-0.2 0.3"/>
  </actuator>
</mujoco>
)";

// The filter heads for -0.9 and stops at -0.5 after about 30 ms; the cart's target position integrates 0.6
// m/s and stops at 0.3 m after 0.55 s (272.7 steps: a bound reached exactly at a step's end would be
// a kink of the step map, where FD and AD part).
const std::vector<std::string> kControls = {"model.tree.actuators.1.ctrl=-0.9",
                                            "model.tree.actuators.2.ctrl=0.55",
                                            "model.tree.actuators.0.ctrl=0.2"};

}  // namespace

TEST_CASE(
    "activation limits: imported, and clamped after each step as mj_step does, Euler and RK4 (tol 1e-9)") {
  const nlohmann::json keys = sg::test::imported("activation_limits", kLimited);
  const nlohmann::json& a = keys["model"]["tree"]["actuators"];
  REQUIRE(a.size() == 3);
  CHECK(a[1]["actlimited"] == true);
  CHECK(a[2]["actrange"] == nlohmann::json({-0.2, 0.3}));
  CHECK_FALSE(a[0].contains("actlimited"));  // (MuJoCo refuses actrange on an actuator without dynamics)
  const std::string file = sg::test::write_mjcf("activation_limits", kLimited);
  const sg::Problem p = sg::test::load_scene(file, kControls);
  const sg::mjcf::TreeStepComparison c =
      sg::test::check_follows_mj_step("activation limits", p, file, 1000, 0.002, 0.2);
  CHECK(c.act <= 1e-9);
  const sg::Problem rk4 = sg::test::load_scene(file, sg::test::with_sets(kControls, {"integrator.type=rk4"}));
  const sg::mjcf::TreeStepComparison r =
      sg::mjcf::compare_tree_with_mj_step(rk4.data.tree, file, 1000, 0.002, true);
  MESSAGE("RK4: qpos " << r.qpos << ", act " << r.act);
  CHECK(r.qpos <= 1e-9);
  CHECK(r.act <= 1e-9);
  // Without the limits the motion is another: the comparison sees each clamp act.
  sg::test::check_each_matters(
      file, kControls, {"model.tree.actuators.1.actlimited=false", "model.tree.actuators.2.actlimited=false"},
      1000, 0.002);
}

TEST_CASE("activation limits differentiate: forward = reverse = FD, Euler and RK4") {
  const std::string file = sg::test::write_mjcf("activation_limits_grad", kLimited);
  const std::string loss =
      R"(loss.terms=[{"quantity": "qpos", "joint": "shoulder"}, {"quantity": "position", "body": 1, "axis": "x"}])";
  // 400 steps: both activations reach their bounds; the controls act before that, the gain after.
  for (const char* method : {"euler", "rk4"}) {
    CAPTURE(method);
    const sg::Problem p = sg::test::load_scene(
        file, sg::test::with_sets(kControls,
                                  {std::string("integrator.type=") + method, "integrator.steps=400", loss}));
    sg::test::check_reverse_and_fd(
        p,
        {"model.tree.actuators.1.ctrl", "model.tree.actuators.2.ctrl", "model.tree.actuators.1.timeconst.0",
         "model.tree.actuators.2.act", "model.tree.actuators.1.gear"},
        1e-9, 1e-5);
  }
}

TEST_CASE("activation limits refuse what they cannot do, naming the key") {
  const std::string file = sg::test::write_mjcf("activation_limits_bad", kLimited);
  sg::mjcf::register_importer();
  struct Case {
    std::vector<std::string> sets;
    std::string expected;
  };
  const Case cases[] = {
      {{"integrator.type=tsit5"},
       "model.tree.actuators.1.actlimited: activation limits clamp after each step (MuJoCo's mj_advance): "
       "set "
       "integrator.type euler, rk4 or moreau"},
      {{"model.tree.actuators.2.actrange=[0.3, -0.2]"}, "model.tree.actuators.2.actrange: expected lo < hi"},
      {{"model.tree.actuators.0.actlimited=true", "model.tree.actuators.0.actrange=[-1, 1]"},
       "model.tree.actuators.0.actlimited: the actuator has no activation to limit"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.expected);
    const sg::ProblemLoad load = sg::load_problem_file(file, c.sets);
    CHECK(!load.ok());
    CAPTURE(load.errors);
    CHECK(load.errors.find(c.expected) != std::string::npos);
  }
}
