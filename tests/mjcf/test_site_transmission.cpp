// MuJoCo's site transmission (mjTRN_SITE, with and without a reference site) and the 6-number gears of
// ball and free joint transmissions (mjTRN_JOINT and mjTRN_JOINTINPARENT) on joint trees: a thrusting
// free body with a ball-jointed arm, stepped against mj_step, and differentiated in the controls and gears.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// A free "drone" body thrust by a site wrench, its arm's tip pulled towards a world site (refsite), the
// arm's ball joint twisted in its own and in its parent's frame, and the free joint pushed directly.
const char* const kDrone = R"(<mujoco>
  <option timestep="0.002"><flag contact="disable"/></option>
  <worldbody>
    <site name="anchor" pos="0.1 0.2 1.1" quat="0.9 0.1 0.3 0.2"/>
    <body name="drone" pos="0 0 1">
      <freejoint name="root"/>
      <geom type="box" size="0.1 0.08 0.03" mass="0.5"/>
      <site name="thrust" pos="0.05 0.02 0.01" euler="10 20 30"/>
      <body name="arm" pos="0.1 0 0">
        <joint name="wrist" type="ball" damping="0.05" armature="0.01"/>
        <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0" mass="0.1"/>
        <site name="tip" pos="0.2 0 0" euler="0 30 0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <general name="lift" site="thrust" gear="0.3 0.1 1 0.001 0.002 0.003" ctrllimited="true" ctrlrange="0 10"/>
    <position name="reach" site="tip" refsite="anchor" gear="1 0.5 0 0 0.2 1" kp="2"/>
    <motor name="twist" joint="wrist" gear="0.2 0.5 1 0 0 0"/>
    <general name="parent" jointinparent="wrist" gear="0.3 -0.2 0.7 0 0 0"/>
    <motor name="push" joint="root" gear="1 0 0.5 0 0.1 0.2"/>
  </actuator>
</mujoco>
)";

const std::vector<std::string> kControls = {
    "model.tree.actuators.0.ctrl=6", "model.tree.actuators.1.ctrl=0.3", "model.tree.actuators.2.ctrl=0.004",
    "model.tree.actuators.3.ctrl=-0.003", "model.tree.actuators.4.ctrl=0.2"};

}  // namespace

TEST_CASE("site, ball and free joint transmissions import and follow mj_step (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("site_transmission", kDrone);
  const nlohmann::json keys = sg::test::imported("site_transmission", kDrone);
  const nlohmann::json& a = keys["model"]["tree"]["actuators"];
  REQUIRE(a.size() == 5);
  CHECK(a[0]["site"] == "thrust");
  CHECK(a[0]["gear"] == 0.3);
  CHECK(a[0]["gear_rest"] == nlohmann::json({0.1, 1.0, 0.001, 0.002, 0.003}));
  CHECK(a[1]["refsite"] == "anchor");
  CHECK(a[3]["jointinparent"] == true);
  const sg::Problem p = sg::test::load_scene(file, kControls);
  sg::test::check_follows_mj_step("drone", p, file, 500, 0.002, 0.1);
  // Each gear component, the reference site and the parent frame act in the comparison.
  sg::test::check_each_matters(
      file, kControls,
      {"model.tree.actuators.0.gear_rest.3=0.01", "model.tree.actuators.1.refsite=",
       "model.tree.actuators.1.gear_rest.4=0", "model.tree.actuators.2.gear_rest.0=0",
       "model.tree.actuators.3.jointinparent=false", "model.tree.actuators.4.gear_rest.4=0"},
      500, 0.002);
}

TEST_CASE("site, ball and free joint transmissions: forward mode equals reverse mode and FD") {
  const std::string file = sg::test::write_mjcf("site_transmission_grad", kDrone);
  const sg::Problem p = sg::test::load_scene(
      file, sg::test::with_sets(kControls, {"integrator.steps=200",
                                            R"(loss.terms=[{"quantity": "site", "site": "tip", "axis": "x"},
                                                {"quantity": "site", "site": "tip", "axis": "z"},
                                                {"quantity": "site", "site": "thrust", "axis": "y"}])"}));
  sg::test::check_reverse_and_fd(
      p,
      {"model.tree.actuators.0.ctrl", "model.tree.actuators.1.ctrl", "model.tree.actuators.2.ctrl",
       "model.tree.actuators.3.ctrl", "model.tree.actuators.4.ctrl", "model.tree.actuators.0.gear_rest.2",
       "model.tree.actuators.1.gear", "model.tree.actuators.4.gear_rest.1"},
      1e-9, 1e-5);
}

TEST_CASE("site transmissions: unknown sites, a refsite without a site and two transmissions are errors") {
  const std::string file = sg::test::write_mjcf("site_transmission_bad", kDrone);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"model.tree.actuators.0.site=nowhere", "model.tree.actuators.0.site: no site named 'nowhere'"},
      {"model.tree.actuators.1.refsite=gone", "model.tree.actuators.1.refsite: no site named 'gone'"},
      {"model.tree.actuators.2.refsite=anchor",
       "model.tree.actuators.2.refsite: a reference site needs site"},
      {"model.tree.actuators.0.cranksite=tip",
       "model.tree.actuators.0: give one transmission (site, cranksite, tendon or a joint)"}};
  sg::test::check_load_errors(file, cases);
}
