// Actuators with activation dynamics other than a muscle's (MuJoCo's dyntype integrator and filter): the gain
// multiplies an activation that integrates ctrl or follows it with a time constant. Imported, stepped against
// mj_step, and differentiated in the controls, the time constant and the start activation.
#include <doctest/doctest.h>

#include <string>

#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// An arm driven by a low-pass filtered motor (tau 0.05 s, gain 3) that holds it against gravity for a moment
// before it falls onto the floor, and a cart
// on a slide whose position servo tracks an integrated velocity command (MuJoCo's intvelocity without its
// activation limits: act' = ctrl, force = 20 (act - x) - 2 xdot).
const char* const kDriven = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="arm" pos="0 0 0.2">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0.3 0 0"/>
    </body>
    <body name="cart" pos="0 0.5 0.1">
      <joint name="rail" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.05 0.05 0.05" mass="0.5"/>
    </body>
  </worldbody>
  <actuator>
    <general name="lowpass" joint="shoulder" dyntype="filter" dynprm="0.05" gainprm="3"/>
    <general name="glide" joint="rail" dyntype="integrator" gainprm="20" biastype="affine" biasprm="0 -20 -2"/>
  </actuator>
</mujoco>
)";

const std::vector<std::string> kControls = {"model.tree.actuators.0.ctrl=-0.3",
                                            "model.tree.actuators.1.ctrl=0.6"};

}  // namespace

TEST_CASE("integrator and filter actuator dynamics: imported, and stepped as mj_step does (tol 1e-9)") {
  const nlohmann::json keys = sg::test::imported("actuator_dynamics", kDriven);
  const nlohmann::json& a = keys["model"]["tree"]["actuators"];
  REQUIRE(a.size() == 2);
  CHECK(a[0]["dyntype"] == "filter");
  CHECK(a[0]["timeconst"][0] == 0.05);
  CHECK(a[1]["dyntype"] == "integrator");
  const std::string file = sg::test::write_mjcf("actuator_dynamics", kDriven);
  const sg::Problem p = sg::test::load_scene(file, kControls);
  const sg::mjcf::TreeStepComparison c =
      sg::test::check_follows_mj_step("filter and integrator", p, file, 1000, 0.002, 0.5);
  CHECK(c.act <= 1e-9);
  CHECK(c.max_contacts >= 1);  // the arm reaches the floor
  // A start activation, and the filter's time constant changed by the scene: still MuJoCo's motion with the
  // same numbers in its model.
  const sg::Problem started = sg::test::load_scene(
      file,
      sg::test::with_sets(kControls, {"model.tree.actuators.0.act=-0.5", "model.tree.actuators.1.act=0.2"}));
  const sg::mjcf::TreeStepComparison s =
      sg::mjcf::compare_tree_with_mj_step(started.data.tree, file, 1000, 0.002, false);
  CHECK(s.qpos <= 1e-9);
  CHECK(s.act <= 1e-9);
  // With another time constant than the file's the motion is another: the comparison sees the filter act.
  const sg::Problem slower =
      sg::test::load_scene(file, sg::test::with_sets(kControls, {"model.tree.actuators.0.timeconst.0=0.2"}));
  CHECK(sg::mjcf::compare_tree_with_mj_step(slower.data.tree, file, 300, 0.002, false).qpos > 1e-3);
}

TEST_CASE(
    "integrator and filter actuators differentiate: forward = reverse = FD, AD = FD over a Tsit5 sweep") {
  const std::string file = sg::test::write_mjcf("actuator_dynamics_grad", kDriven);
  // Euler, 300 steps: the arm's angle and the cart's position against both controls, the time constant and
  // the start activations.
  const std::string loss =
      R"(loss.terms=[{"quantity": "qpos", "joint": "shoulder"}, {"quantity": "position", "body": 1, "axis": "x"}])";
  const sg::Problem euler =
      sg::test::load_scene(file, sg::test::with_sets(kControls, {"integrator.steps=300", loss}));
  sg::test::check_reverse_and_fd(
      euler,
      {"model.tree.actuators.0.ctrl", "model.tree.actuators.1.ctrl", "model.tree.actuators.0.timeconst.0",
       "model.tree.actuators.0.act", "model.tree.actuators.1.act"},
      1e-9, 1e-5);
  // Tsit5 1e-12 with the arm's floor contacts located: the loss against the filter's time constant, 21
  // points.
  const sg::Problem p = sg::test::load_scene(
      file, sg::test::with_sets(kControls, {"integrator.type=tsit5", "integrator.rtol=1e-12",
                                            "integrator.atol=1e-12", "integrator.steps=250", loss,
                                            "sweep.parameter=model.tree.actuators.0.timeconst.0",
                                            "sweep.from=0.02", "sweep.to=0.2", "sweep.points=21"}));
  // Tolerance 5e-4: the arm's landing makes the gradient sensitive to the integrator's error; at 0.029 s AD
  // is 0.469468 at 1e-12 and 0.469524 at 1e-13, central FD (eps 1e-6, 1e-13) 0.469522. Measured: 1.6e-4.
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 21, 5e-4, true);
  MESSAGE("filter's time constant under Tsit5 1e-12: worst relative AD-FD difference " << worst);
  sg::test::check_reverse_equals_forward("actuator dynamics, Tsit5", p,
                                         {"model.tree.actuators.0.timeconst.0"}, 1, true);
}

TEST_CASE("actuator dynamics refuse what they cannot say, naming the key or element") {
  const std::string file = sg::test::write_mjcf("actuator_dynamics_bad", kDriven);
  sg::mjcf::register_importer();
  const sg::ProblemLoad zero = sg::load_problem_file(file, {"model.tree.actuators.0.timeconst.0=0"});
  CHECK(!zero.ok());
  CHECK(zero.errors.find("model.tree.actuators.0.timeconst.0: a filter's time constant must be > 0") !=
        std::string::npos);
  const sg::ProblemLoad unknown = sg::load_problem_file(file, {"model.tree.actuators.1.dyntype=muscle"});
  CHECK(!unknown.ok());
  CHECK(unknown.errors.find("model.tree.actuators.1.dyntype") != std::string::npos);
  const std::string user = sg::test::import_errors("actuator_dynamics_user", R"(<mujoco><worldbody><body>
<joint name="j" axis="0 1 0"/><geom size="0.1"/></body></worldbody>
<actuator><general name="custom" joint="j" dyntype="user"/></actuator></mujoco>)");
  CHECK(user.find("actuator 'custom': user actuator dynamics are not supported") != std::string::npos);
}
