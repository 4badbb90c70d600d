// MuJoCo's tendon pulleys (<pulley divisor>): a spatial tendon's branches after a pulley count divided by
// its divisor, in the length and the Jacobian (mj_tendon). A rope with a spring and a length limit, hung
// from two hooks over a pulley of divisor 2 with a weight on each branch and a motor pulling it, against
// mj_step; AD against reverse mode and FD; path errors at their entries.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

const char* const kPulley = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <site name="hook" pos="0 0 2"/>
    <site name="hook2" pos="0.4 0 2"/>
    <body name="a" pos="0 0 1">
      <joint name="az" type="slide" axis="0 0 1" damping="0.5"/>
      <geom type="sphere" size="0.05" mass="1"/>
      <site name="sa"/>
    </body>
    <body name="b" pos="0.45 0 1.2">
      <joint name="bz" type="slide" axis="0 0 1" damping="0.5"/>
      <joint name="bx" type="slide" axis="1 0 0" damping="0.2"/>
      <geom type="sphere" size="0.05" mass="0.6"/>
      <site name="sb"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="rope" limited="true" range="0 1.35" stiffness="40" springlength="1.3">
      <site site="hook"/><site site="sa"/>
      <pulley divisor="2"/>
      <site site="hook2"/><site site="sb"/>
    </spatial>
  </tendon>
  <actuator><motor name="winch" tendon="rope"/></actuator>
</mujoco>
)";

}  // namespace

TEST_CASE(
    "tendon pulleys: imported and stepped as mj_step does, length limit and spring included (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("tendon_pulley", kPulley);
  const nlohmann::json keys = sg::test::imported("tendon_pulley", kPulley);
  const nlohmann::json& path = keys["model"]["tree"]["tendons"][0]["path"];
  REQUIRE(path.size() == 5);
  CHECK(path[2]["pulley"] == 2.0);
  const sg::Problem p = sg::test::load_scene(file, {"model.tree.actuators.0.ctrl=-3"});
  sg::test::check_follows_mj_step("pulley", p, file, 1000, 0.002, 0.1);
  // The divisor acts: a divisor of 1 (or 4) moves the weights differently.
  sg::test::check_each_matters(
      file, {"model.tree.actuators.0.ctrl=-3"},
      {"model.tree.tendons.0.path.2.pulley=1", "model.tree.tendons.0.path.2.pulley=4"}, 1000, 0.002);
}

TEST_CASE("tendon pulleys: forward mode equals reverse mode and FD") {
  const std::string file = sg::test::write_mjcf("tendon_pulley_grad", kPulley);
  const sg::Problem p = sg::test::load_scene(
      file, {"model.tree.actuators.0.ctrl=-3", "integrator.steps=300",
             R"(loss.terms=[{"quantity": "qpos", "joint": "az"}, {"quantity": "qpos", "joint": "bx"}])"});
  sg::test::check_reverse_and_fd(p,
                                 {"model.tree.actuators.0.ctrl", "model.tree.bodies.0.joints.0.qvel",
                                  "model.tree.sites.1.pos.2", "model.tree.bodies.1.joints.1.qpos"},
                                 1e-9, 1e-5);
}

TEST_CASE("tendon pulleys: a pulley last, two in a row, a lone site and a mixed entry are errors") {
  const std::string file = sg::test::write_mjcf("tendon_pulley_bad", kPulley);
  const std::string t = "model.tree.tendons.0.path";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {t + R"(=[{"site": "hook"}, {"site": "sa"}, {"pulley": 2}])", "starts and ends at a site"},
      {t + R"(=[{"site": "hook"}, {"site": "sa"}, {"pulley": 2}, {"pulley": 3}, {"site": "hook2"}, {"site": "sb"}])",
       t + ".3: two pulleys in a row"},
      {t + R"(=[{"site": "hook"}, {"site": "sa"}, {"pulley": 2}, {"site": "hook2"}, {"pulley": 2}, {"site": "sb"}])",
       t + ".3: a site between pulleys"},
      {t + ".2.site=hook", t + ".2: give exactly one of site, geom, joint and pulley"},
      {t + ".2.pulley=-1", t + ".2.pulley"}};
  sg::test::check_load_errors(file, cases);
}
