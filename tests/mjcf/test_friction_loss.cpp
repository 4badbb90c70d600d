// Friction loss on joint trees (MuJoCo's dof and tendon frictionloss: a row per dof or tendon whose force is
// bounded by frictionloss, MuJoCo's Huber-like cost in Newton): a pendulum that scrapes the floor, a cart
// that slides to a stop, a spinning ball joint and two links coupled by a frictional tendon, against mj_step;
// the rows' switches between stick and slip are located events under the adaptive integrators.
#include <doctest/doctest.h>

#include <string>

#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

std::string friction_model(const std::string& option) {
  return R"(<mujoco>
  <compiler angle="radian"/>
  <option timestep="0.002" )" +
         option + R"(/>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    <body name="pendulum" pos="0 0 0.42">
      <joint name="swing" type="hinge" axis="0 1 0" frictionloss="0.05" damping="0.01"/>
      <geom type="capsule" size="0.03" fromto="0 0 0 0 0 -0.4"/>
      <site name="tip" pos="0 0 -0.4"/>
    </body>
    <body name="cart" pos="0.6 0 0.06">
      <joint name="rail" type="slide" axis="1 0 0" frictionloss="0.4"/>
      <geom type="box" size="0.05 0.05 0.05" mass="0.5"/>
    </body>
    <body name="top" pos="-0.6 0 0.5">
      <joint name="spin" type="ball" frictionloss="0.002" solreffriction="0.01 1"/>
      <geom type="box" size="0.1 0.05 0.02" mass="0.3"/>
    </body>
    <body name="link1" pos="0 0.6 0.8">
      <joint name="h1" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0"/>
      <body name="link2" pos="0.2 0 0">
        <joint name="h2" type="hinge" axis="0 1 0"/>
        <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="coupler" frictionloss="0.05"><joint joint="h1" coef="1"/><joint joint="h2" coef="-1"/></fixed>
  </tendon>
</mujoco>
)";
}

// The pendulum swings down from 0.8 rad through the floor's edge, the cart slides off at 1 m/s, the top
// spins, the first link is thrown.
const std::vector<std::string> kStart = {
    "model.tree.bodies.0.joints.0.qpos=0.8", "model.tree.bodies.1.joints.0.qvel=1",
    "model.tree.bodies.2.joints.0.ball_qvel=[0.5, 0, 3]", "model.tree.bodies.3.joints.0.qvel=2"};

}  // namespace

TEST_CASE(
    "friction loss: imported, and stepped as mj_step does, pyramidal and elliptic, Euler and RK4 (tol "
    "1e-9)") {
  const nlohmann::json keys = sg::test::imported("friction_loss", friction_model(""));
  const nlohmann::json& bodies = keys["model"]["tree"]["bodies"];
  CHECK(bodies[0]["joints"][0]["frictionloss"] == 0.05);
  CHECK(bodies[2]["joints"][0]["solreffriction"] == nlohmann::json({0.01, 1.0}));
  CHECK(keys["model"]["tree"]["tendons"][0]["frictionloss"] == 0.05);
  for (const char* option : {"", R"(cone="elliptic")"}) {
    CAPTURE(option);
    const std::string file = sg::test::write_mjcf(std::string("friction_loss") + (*option ? "_elliptic" : ""),
                                                  friction_model(option));
    const sg::Problem p = sg::test::load_scene(file, kStart);
    const sg::mjcf::TreeStepComparison c =
        sg::test::check_follows_mj_step("friction loss", p, file, 1000, 0.002, 1.0);
    CHECK(c.max_contacts >= 1);  // the pendulum scrapes the floor
    // RK4 with the top at rest: a spinning ball joint under RK4 is not MuJoCo's to round-off even without
    // friction (2.1e-7 in qpos over 500 steps, qvel to 4e-16: the quaternion's RK4 update, docs/engine.md).
    const sg::Problem still = sg::test::load_scene(file, {kStart[0], kStart[1], kStart[3]});
    const sg::mjcf::TreeStepComparison rk4 =
        sg::mjcf::compare_tree_with_mj_step(still.data.tree, file, 500, 0.002, true);
    MESSAGE("RK4: qpos " << rk4.qpos << ", qvel " << rk4.qvel);
    CHECK(rk4.qpos < 1e-9);
    CHECK(rk4.qvel < 1e-9);
  }
  // Without the friction the motion is another: the comparison sees each row act.
  const std::string file = sg::test::write_mjcf("friction_loss", friction_model(""));
  sg::test::check_each_matters(
      file, kStart,
      {"model.tree.bodies.1.joints.0.frictionloss=0", "model.tree.bodies.2.joints.0.frictionloss=0",
       "model.tree.tendons.0.frictionloss=0"},
      1000, 0.002);
}

TEST_CASE(
    "friction loss differentiates, and its stick-slip switches are located events under Tsit5: AD = FD") {
  const std::string file = sg::test::write_mjcf("friction_loss_grad", friction_model(""));
  const std::string loss =
      R"(loss.terms=[{"quantity": "position", "body": 1, "axis": "x"}, {"quantity": "qpos", "joint": "h2"}, )"
      R"({"quantity": "qpos", "joint": "spin", "component": 3}, {"quantity": "site", "site": "tip", "axis": "x"}])";
  // Euler, 400 steps: forward = reverse = FD in the friction losses and the starts.
  const sg::Problem euler =
      sg::test::load_scene(file, sg::test::with_sets(kStart, {"integrator.steps=400", loss}));
  sg::test::check_reverse_and_fd(
      euler,
      {"model.tree.bodies.1.joints.0.frictionloss", "model.tree.tendons.0.frictionloss",
       "model.tree.bodies.2.joints.0.frictionloss", "model.tree.bodies.1.joints.0.qvel",
       "model.tree.bodies.0.joints.0.frictionloss"},
      1e-9, 1e-5);
  // Tsit5 1e-12 with the rows' stick-slip switches located: the loss after 0.8 s against the cart's friction
  // loss (it sticks within the run from 0.3 N on), 21 points.
  const sg::Problem p = sg::test::load_scene(
      file, sg::test::with_sets(kStart, {"integrator.type=tsit5", "integrator.rtol=1e-12",
                                         "integrator.atol=1e-12", "integrator.steps=400", loss,
                                         "sweep.parameter=model.tree.bodies.1.joints.0.frictionloss",
                                         "sweep.from=0.2", "sweep.to=1", "sweep.points=21"}));
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 21, 1e-4, true);
  MESSAGE("friction loss under Tsit5 1e-12: worst relative AD-FD difference " << worst);
  sg::test::check_reverse_equals_forward("friction loss, Tsit5", p,
                                         {"model.tree.bodies.1.joints.0.frictionloss"}, 2, true);
}

TEST_CASE("friction loss refuses what a tree cannot hold, naming the key") {
  const std::string file = sg::test::write_mjcf("friction_loss_bad", friction_model(""));
  sg::mjcf::register_importer();
  const sg::ProblemLoad negative =
      sg::load_problem_file(file, {"model.tree.bodies.0.joints.0.frictionloss=-1"});
  CHECK(!negative.ok());
  CHECK(negative.errors.find("model.tree.bodies.0.joints.0.frictionloss") != std::string::npos);
  // Six ball joints with friction (18 rows) where the top and the cart had theirs: 20 rows > 16.
  const std::string ball = R"({"type": "ball", "frictionloss": 0.1})";
  const sg::ProblemLoad many = sg::load_problem_file(
      file, {"model.tree.bodies.2.joints=[" + ball + ", " + ball + ", " + ball + ", " + ball + "]",
             "model.tree.bodies.1.joints=[" + ball + ", " + ball + "]"});
  CHECK(!many.ok());
  CAPTURE(many.errors);
  CHECK(many.errors.find("friction-loss rows") != std::string::npos);
  CHECK(many.errors.find("a tree holds at most 16") != std::string::npos);
}

TEST_CASE("the shipped stick-slip block follows mj_step, sticks below its breakaway push, and AD equals FD") {
  const std::string scene = sg::test::source_path("scenes/stick_slip.json");
  const std::string xml = sg::test::source_path("scenes/mjcf/stick_slip.xml");
  for (const char* ctrl : {"0.3", "0.7"}) {
    CAPTURE(ctrl);
    const sg::Problem p = sg::test::load_scene(scene, {std::string("model.tree.actuators.0.ctrl=") + ctrl});
    const sg::mjcf::TreeStepComparison c =
        sg::mjcf::compare_tree_with_mj_step(p.data.tree, xml, 500, 0.002, false);
    CHECK(c.qpos < 1e-9);
    CHECK(c.qvel < 1e-9);
  }
  // The scene's sweep: AD = central FD at every point (1e-6); below |ctrl| = 0.4 the block creeps (gradient
  // under 0.01 m per unit of control), above it slides (over 2).
  const sg::Problem p = sg::test::load_scene(scene);
  const sg::SweepResult r = sg::run_sweep(p);
  const double worst = sg::test::check_sweep_ad_fd(r, 36, 1e-6);
  MESSAGE("stick_slip: worst relative AD-FD difference " << worst);
  for (const sg::PointResult& pt : r.points) {
    CAPTURE(pt.value);
    if (std::fabs(pt.value) < 0.38) CHECK(std::fabs(pt.grad) < 0.01);
    if (std::fabs(pt.value) > 0.42) CHECK(pt.grad > 2.0);
  }
}
