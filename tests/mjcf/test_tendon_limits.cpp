// Tendon length limits on joint trees (MuJoCo's tendon limited/range/solreflimit/solimplimit/margin): a ball
// on a string (a spatial tendon that goes taut) and an arm on a leash (a fixed tendon on its hinge), against
// mj_step; their onsets and releases are located contact events under the adaptive integrators.
#include <doctest/doctest.h>

#include <string>

#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// The ball (two slides) starts 0.22 m from the string's anchor and falls until the 0.35 m string snaps taut,
// then swings and bounces on it; the arm's hinge falls into its leash's upper limit (0.6 rad, margin 0.01).
const char* const kString = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <site name="anchor" pos="0 0 1"/>
    <body name="ball" pos="0.2 0 0.9">
      <joint name="bx" type="slide" axis="1 0 0"/>
      <joint name="bz" type="slide" axis="0 0 1"/>
      <geom type="sphere" size="0.03" mass="0.1"/>
      <site name="knot"/>
    </body>
    <body name="arm" pos="0 0.3 1">
      <joint name="h" type="hinge" axis="0 -1 0" damping="0.02"/>
      <geom type="capsule" size="0.02" fromto="0 0 0 0.3 0 0"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="string" limited="true" range="0 0.35" solreflimit="0.01 1">
      <site site="anchor"/><site site="knot"/>
    </spatial>
    <fixed name="leash" limited="true" range="-0.5 0.6" margin="0.01"><joint joint="h" coef="1"/></fixed>
  </tendon>
</mujoco>
)";

}  // namespace

TEST_CASE("tendon limits: imported and stepped as mj_step does, a string going taut and a leash (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("tendon_limits", kString);
  const nlohmann::json keys = sg::test::imported("tendon_limits", kString);
  const nlohmann::json& t = keys["model"]["tree"]["tendons"];
  REQUIRE(t.size() == 2);
  CHECK(t[0]["limited"] == true);
  CHECK(t[0]["range"] == nlohmann::json({0.0, 0.35}));
  CHECK(t[0]["solreflimit"][0] == 0.01);
  CHECK(t[1]["margin"] == 0.01);
  const sg::Problem p = sg::test::load_scene(file);
  sg::test::check_follows_mj_step("string and leash", p, file, 1000, 0.002, 1.0);
  // Without the string's limit the ball falls freely: the comparison sees the limit act.
  const sg::Problem free_fall = sg::test::load_scene(file, {"model.tree.tendons.0.limited=false"});
  CHECK(sg::mjcf::compare_tree_with_mj_step(free_fall.data.tree, file, 300, 0.002, false).qpos > 0.01);
}

TEST_CASE("tendon limits differentiate and are located events under Tsit5: AD = FD over a sweep") {
  const std::string file = sg::test::write_mjcf("tendon_limits_tsit5", kString);
  // Euler: forward = reverse = FD in the ball's start x (the string's pull depends on it).
  const sg::Problem euler = sg::test::load_scene(
      file, {"integrator.steps=300", R"(loss.terms=[{"quantity": "position", "body": 0, "axis": "z"}])"});
  sg::test::check_reverse_and_fd(
      euler, {"model.tree.bodies.0.joints.0.qpos", "model.tree.bodies.0.joints.1.qvel"}, 1e-9, 1e-5);
  // Tsit5 1e-12 with located limit onsets: the ball's height after 0.5 s against its start x, 21 points.
  const sg::Problem p = sg::test::load_scene(
      file, {"integrator.type=tsit5", "integrator.rtol=1e-12", "integrator.atol=1e-12",
             "integrator.steps=250", R"(loss.terms=[{"quantity": "position", "body": 0, "axis": "z"}])",
             "sweep.parameter=model.tree.bodies.0.joints.0.qpos", "sweep.from=-0.1", "sweep.to=0.1",
             "sweep.points=21"});
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 21, 1e-4);
  MESSAGE("string under Tsit5 1e-12: worst relative AD-FD difference " << worst);
  sg::test::check_reverse_equals_forward("string, Tsit5", p, {"model.tree.bodies.0.joints.0.qpos"}, 2, true);
}
