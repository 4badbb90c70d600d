// Equality constraints on joint trees (MuJoCo's <equality>: connect, weld, joint, tendon): imported from
// MJCF, stepped against mj_step, differentiated (forward = reverse = FD), and run by the adaptive
// integrators, whose located contact modes keep the equality rows active throughout.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// Two arms: arm a (a hinge carrying a ball on a slide held at its ref by a one-joint equality) swings down
// onto the floor; arm b's hinge follows a's by a quadratic (joint equality), and its elbow is coupled to its
// shoulder through a fixed tendon held at its length at qpos0 (tendon equality, DeepMind's manipulator
// couples its fingers so).
const char* const kCoupled = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="a" pos="0 0 0.4">
      <joint name="ha" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0.4 0 0"/>
      <body name="a2" pos="0.4 0 0">
        <joint name="sa" type="slide" axis="1 0 0" ref="0.02"/>
        <geom type="sphere" size="0.06"/>
      </body>
    </body>
    <body name="b" pos="0 0.5 0.6">
      <joint name="hb" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0.3 0 0"/>
      <body name="b2" pos="0.3 0 0">
        <joint name="hb2" type="hinge" axis="0 1 0" ref="0.1"/>
        <geom type="capsule" size="0.03" fromto="0 0 0 0.3 0 0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="coupling"><joint joint="hb" coef="1"/><joint joint="hb2" coef="-0.5"/></fixed>
  </tendon>
  <equality>
    <joint name="follow" joint1="hb" joint2="ha" polycoef="0.1 0.8 0.3 0 0" solref="0.01 1"/>
    <tendon name="hold" tendon1="coupling" solimp="0.95 0.99 0.001" solref="0.005 0.5"/>
    <joint name="slide_fixed" joint1="sa"/>
  </equality>
</mujoco>
)";

// Connect: a parallelogram (three hinged links from the world, the last one's end connected back to the
// world: a closed loop) and a free box hanging from the world by a point off its centre (a spherical
// pendulum through a free joint).
const char* const kLoop = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <body name="l1" pos="0 0 1">
      <joint name="j1" type="hinge" axis="0 1 0" damping="0.01"/>
      <geom type="capsule" size="0.02" fromto="0 0 0 0.3 0 0"/>
      <body name="l2" pos="0.3 0 0">
        <joint name="j2" type="hinge" axis="0 1 0"/>
        <geom type="capsule" size="0.02" fromto="0 0 0 0 0 -0.3"/>
        <body name="l3" pos="0 0 -0.3">
          <joint name="j3" type="hinge" axis="0 1 0"/>
          <geom type="capsule" size="0.02" fromto="0 0 0 -0.3 0 0"/>
        </body>
      </body>
    </body>
    <body name="bob" pos="0.8 0 1">
      <freejoint/>
      <geom type="box" size="0.05 0.03 0.1"/>
    </body>
  </worldbody>
  <equality>
    <connect body1="l3" body2="world" anchor="-0.3 0 0"/>
    <connect name="hang" body1="bob" anchor="0.08 0.02 0.1" solref="0.02 0.8"/>
  </equality>
</mujoco>
)";

// Weld: a box held at the end of a swinging arm (a free body welded to a hinged one, its anchor at the arm's
// tip), and a plate welded to the world with a relpose (anchor and orientation) other than its start: pulled
// over and turned, with torquescale 2.
const char* const kWeld = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="arm" pos="0 0 0.8">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0.4 0 0"/>
    </body>
    <body name="box" pos="0.45 0 0.8" euler="0 0 30">
      <freejoint/>
      <geom type="box" size="0.05 0.04 0.03"/>
    </body>
    <body name="plate" pos="-0.5 0 1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.01"/>
    </body>
  </worldbody>
  <equality>
    <weld name="grip" body1="box" body2="arm" anchor="0.4 0 0" solref="0.01 1"/>
    <weld body1="plate" anchor="-0.45 0.02 0.9" relpose="0 0 0.05 0.9659 0.2588 0 0" torquescale="2"/>
  </equality>
</mujoco>
)";

}  // namespace

TEST_CASE("weld: a free body held by an arm and a plate pulled to a relpose, stepped as mj_step does") {
  const std::string file = sg::test::write_mjcf("equality_weld", kWeld);
  const nlohmann::json keys = sg::test::imported("equality_weld", kWeld);
  const nlohmann::json& eq = keys["model"]["tree"]["equalities"];
  REQUIRE(eq.size() == 2);
  CHECK(eq[0]["type"] == "weld");
  CHECK(eq[1]["torquescale"] == 2.0);
  CHECK(std::fabs(eq[1]["relpose"][4].get<double>() - 0.2588) < 1e-4);  // the compiler normalises it
  const sg::Problem p = sg::test::load_scene(file);
  sg::test::check_follows_mj_step("welds", p, file, 1000, 0.002, 0.5);
  // The weld's gradients: its time constant and the plate's.
  const sg::Problem g = sg::test::load_scene(
      file, {"integrator.steps=300", R"(loss.terms=[{"quantity": "position", "body": 1, "axis": "z"}])"});
  sg::test::check_reverse_and_fd(g, {"model.tree.equalities.0.solref.0", "model.tree.equalities.0.solimp.0"},
                                 1e-9, 1e-4);
}

TEST_CASE("joint and tendon equalities: imported and stepped as mj_step does, with contacts (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("equality_coupled", kCoupled);
  const nlohmann::json keys = sg::test::imported("equality_coupled", kCoupled);
  const nlohmann::json& eq = keys["model"]["tree"]["equalities"];
  REQUIRE(eq.size() == 3);
  CHECK(eq[0]["type"] == "joint");
  CHECK(eq[0]["joint1"] == "hb");
  CHECK(eq[0]["joint2"] == "ha");
  CHECK(eq[0]["polycoef"][2] == 0.3);
  CHECK(eq[1]["type"] == "tendon");
  CHECK(eq[1]["tendon1"] == "coupling");
  CHECK(eq[1]["tendon2"] == "");
  CHECK(eq[2]["joint2"] == "");
  const sg::Problem p = sg::test::load_scene(file);
  const auto c = sg::test::check_follows_mj_step("coupled arms", p, file, 1000, 0.002, 0.5);
  CHECK(c.max_contacts > 0);  // arm a's ball reaches the floor
}

TEST_CASE("connect: a closed loop and a free body hung by a point, stepped as mj_step does (tol 1e-9)") {
  const std::string file = sg::test::write_mjcf("equality_loop", kLoop);
  const nlohmann::json keys = sg::test::imported("equality_loop", kLoop);
  const nlohmann::json& eq = keys["model"]["tree"]["equalities"];
  REQUIRE(eq.size() == 2);
  CHECK(eq[0]["type"] == "connect");
  CHECK(eq[0]["body1"] == 2);
  CHECK(eq[0]["body2"] == -1);
  CHECK(eq[1]["body1"] == 3);
  const sg::Problem p = sg::test::load_scene(file);
  sg::test::check_follows_mj_step("loop and hanging box", p, file, 1000, 0.002, 0.5);
}

TEST_CASE("an inactive equality is left out, as mj_forward leaves it") {
  std::string xml = kLoop;
  const std::string hang = R"(<connect name="hang" body1="bob")";
  xml.replace(xml.find(hang), hang.size(), R"(<connect name="hang" active="false" body1="bob")");
  const std::string file = sg::test::write_mjcf("equality_inactive", xml);
  const nlohmann::json keys = sg::test::imported("equality_inactive", xml);
  REQUIRE(keys["model"]["tree"]["equalities"].size() == 1);
  CHECK(keys["model"]["tree"]["equalities"][0]["type"] == "connect");
  CHECK(keys["model"]["tree"]["equalities"][0]["body1"] == 2);
  // The box now falls freely next to MuJoCo's, which ignores the inactive constraint too.
  sg::test::check_follows_mj_step("loop, box falling", sg::test::load_scene(file), file, 500, 0.002, 2.0);
}

TEST_CASE("equality numbers are differentiable scene numbers: forward = reverse = FD") {
  const std::string coupled = sg::test::write_mjcf("equality_coupled_gradient", kCoupled);
  // Arm b's elbow body's final height after 300 steps (0.6 s), arm a on the floor from about 0.3 s.
  const sg::Problem p = sg::test::load_scene(
      coupled, {"integrator.steps=300", R"(loss.terms=[{"quantity": "position", "body": 3, "axis": "z"}])"});
  sg::test::check_reverse_and_fd(
      p, {"model.tree.equalities.0.polycoef.1", "model.tree.equalities.0.polycoef.2"}, 1e-9, 1e-5);
  // FD's eps 1e-6 is 2e-4 of the tendon equality's 5 ms time constant: FD's own error is near 1e-5 there.
  sg::test::check_reverse_and_fd(p, {"model.tree.equalities.0.solref.0", "model.tree.equalities.1.solref.0"},
                                 1e-9, 1e-4);
  const std::string loop = sg::test::write_mjcf("equality_loop_gradient", kLoop);
  const sg::Problem q = sg::test::load_scene(
      loop, {"integrator.steps=300", R"(loss.terms=[{"quantity": "position", "body": 3, "axis": "x"}])"});
  sg::test::check_reverse_and_fd(q, {"model.tree.equalities.1.solref.0", "model.tree.equalities.1.solimp.1"},
                                 1e-9, 1e-5);
}

TEST_CASE("equalities under Tsit5 with located contact events: AD = FD over a sweep") {
  const std::string file = sg::test::write_mjcf("equality_coupled_tsit5", kCoupled);
  // 21 points of the joint coupling's slope over 0.6 s; arm a's ball lands on the floor within the run. At
  // 1e-12 (at 1e-10 central FD is off by up to 2.3e-4 through the integrator's error, measured, while AD
  // moves by 1e-7 between the two tolerances).
  const sg::Problem p = sg::test::load_scene(
      file, {"integrator.type=tsit5", "integrator.rtol=1e-12", "integrator.atol=1e-12",
             "integrator.steps=300", R"(loss.terms=[{"quantity": "position", "body": 3, "axis": "z"}])",
             "sweep.parameter=model.tree.equalities.0.polycoef.1", "sweep.from=0.5", "sweep.to=1.1",
             "sweep.points=21"});
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 21, 1e-4);
  MESSAGE("coupled arms under Tsit5 1e-12: worst relative AD-FD difference " << worst);
  sg::test::check_reverse_equals_forward("coupled arms, Tsit5", p, {"model.tree.equalities.0.polycoef.1"}, 1,
                                         true);
}

TEST_CASE("scenes/four_bar.json: a closed loop follows mj_step, and AD = FD over its whole sweep") {
  const sg::Problem p = sg::test::load_scene(sg::test::source_path("scenes/four_bar.json"));
  sg::test::check_follows_mj_step("four_bar", p, sg::test::source_path("scenes/mjcf/four_bar.xml"), 500,
                                  0.002, 1.0);
  // The motor's torque within its ctrlrange (at +-1 central FD straddles the clamp): measured 3.5e-10 median.
  sg::test::check_sweep_and_reverse("four_bar", p, 101, 1e-6, {"model.tree.actuators.0.ctrl"});
}
