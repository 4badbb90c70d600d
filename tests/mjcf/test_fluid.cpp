// Fluid forces on joint trees (MuJoCo 2.2.2's inertia-box model: <option density viscosity wind>): a
// three-link swimmer driven by two motors, a leaf (a free thin box) sinking and drifting in the wind, and a
// paddle hanging from a ball joint, all in water, against mj_step; forward and reverse mode against FD in
// the medium's numbers.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

const char* const kFluidModel = R"(<mujoco>
  <compiler angle="radian"/>
  <option timestep="0.002" density="1000" viscosity="0.01" wind="0.3 -0.2 0">
    <flag contact="disable"/>
  </option>
  <worldbody>
    <body name="head" pos="0 0 0">
      <joint name="x" type="slide" axis="1 0 0"/>
      <joint name="y" type="slide" axis="0 1 0"/>
      <joint name="yaw" type="hinge" axis="0 0 1"/>
      <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0" density="1100"/>
      <body name="mid" pos="0.2 0 0">
        <joint name="h1" type="hinge" axis="0 0 1" damping="0.01"/>
        <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0"/>
        <body name="tail" pos="0.2 0 0">
          <joint name="h2" type="hinge" axis="0 0 1"/>
          <geom type="box" size="0.1 0.005 0.04" pos="0.1 0 0"/>
        </body>
      </body>
    </body>
    <body name="leaf" pos="0 0.5 1">
      <freejoint name="leaf"/>
      <geom type="box" size="0.1 0.05 0.005" mass="0.05"/>
    </body>
    <body name="paddle" pos="0.5 0.5 0.5">
      <joint name="pivot" type="ball"/>
      <geom type="ellipsoid" size="0.1 0.05 0.03" pos="0 0 -0.1"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="h1" gear="1"/>
    <motor joint="h2" gear="1"/>
  </actuator>
</mujoco>
)";

// The swimmer pushed off at 0.5 m/s and beating its tail under constant torques; the leaf sinks; the
// paddle is turned.
const std::vector<std::string> kStart = {
    "model.tree.bodies.0.joints.0.qvel=0.5", "model.tree.bodies.1.joints.0.qvel=2",
    "model.tree.actuators.0.ctrl=0.03", "model.tree.actuators.1.ctrl=-0.02",
    "model.tree.bodies.4.joints.0.ball_qvel=[1, 0, 2]"};

}  // namespace

TEST_CASE("fluid forces: imported, and stepped as mj_step does, Euler and RK4 (tol 1e-9)") {
  const nlohmann::json keys = sg::test::imported("fluid", kFluidModel);
  const nlohmann::json& fluid = keys["model"]["tree"]["fluid"];
  CHECK(fluid["density"] == 1000.0);
  CHECK(fluid["viscosity"] == 0.01);
  CHECK(fluid["wind"] == nlohmann::json({0.3, -0.2, 0.0}));
  const std::string file = sg::test::write_mjcf("fluid", kFluidModel);
  const sg::Problem p = sg::test::load_scene(file, kStart);
  sg::test::check_follows_mj_step("fluid", p, file, 1000, 0.002, 0.5);
  // RK4 without the wind and with the paddle at rest: nothing turns a quaternion, whose RK4 update is not
  // MuJoCo's to round-off (docs/engine.md). MuJoCo reads the file, so the file has no wind.
  std::string calm = kFluidModel;
  calm.replace(calm.find(R"(wind="0.3 -0.2 0")"), 17, "");
  const std::string calm_file = sg::test::write_mjcf("fluid_calm", calm);
  const sg::Problem still = sg::test::load_scene(calm_file, {kStart[0], kStart[1], kStart[2], kStart[3]});
  const sg::mjcf::TreeStepComparison rk4 =
      sg::mjcf::compare_tree_with_mj_step(still.data.tree, calm_file, 500, 0.002, true);
  MESSAGE("RK4: qpos " << rk4.qpos << ", qvel " << rk4.qvel);
  CHECK(rk4.qpos < 1e-9);
  CHECK(rk4.qvel < 1e-9);
  // Without each of the medium's numbers the motion is another: the comparison sees each act.
  sg::test::check_each_matters(
      file, kStart,
      {"model.tree.fluid.density=0", "model.tree.fluid.viscosity=0", "model.tree.fluid.wind=[0, 0, 0]"}, 1000,
      0.002);
}

TEST_CASE("fluid forces differentiate in the medium's density, viscosity and wind: forward = reverse = FD") {
  const std::string file = sg::test::write_mjcf("fluid_grad", kFluidModel);
  const std::string loss =
      R"(loss.terms=[{"quantity": "position", "body": 0, "axis": "x"}, {"quantity": "qpos", "joint": "h2"}, )"
      R"({"quantity": "position", "body": 3, "axis": "z"}, {"quantity": "qpos", "joint": "pivot", )"
      R"("component": 1}])";
  // Euler, 300 steps.
  const sg::Problem euler =
      sg::test::load_scene(file, sg::test::with_sets(kStart, {"integrator.steps=300", loss}));
  sg::test::check_reverse_and_fd(
      euler,
      {"model.tree.fluid.density", "model.tree.fluid.viscosity", "model.tree.fluid.wind.0",
       "model.tree.fluid.wind.1", "model.tree.bodies.1.mass", "model.tree.bodies.3.inertia.2"},
      1e-9, 1e-5);
  // Tsit5 1e-10, the density swept from air's to water's, 11 points: AD = central FD at each. FD's step is
  // 1e-3 kg/m^3: at 1e-6 the adaptive runs' noise (about 1e-13 in the loss) over the step is up to 4e-4 of
  // these small gradients (measured); at 1e-3 AD and FD agree to 1e-6.
  const sg::Problem p = sg::test::load_scene(
      file, sg::test::with_sets(kStart, {"integrator.type=tsit5", "integrator.rtol=1e-10",
                                         "integrator.atol=1e-10", "integrator.steps=300", loss,
                                         "gradient.fd_eps=1e-3", "sweep.parameter=model.tree.fluid.density",
                                         "sweep.from=1", "sweep.to=1000", "sweep.points=11"}));
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 11, 1e-5, true, 1e-6);
  MESSAGE("fluid density under Tsit5 1e-10: worst relative AD-FD difference " << worst);
}

TEST_CASE("fluid numbers out of range are refused, naming the key") {
  const std::string file = sg::test::write_mjcf("fluid_bad", kFluidModel);
  sg::mjcf::register_importer();
  for (const char* bad : {"model.tree.fluid.density=-1", "model.tree.fluid.viscosity=NaN",
                          "model.tree.fluid.wind=[0, 1e9, 0]"}) {
    CAPTURE(bad);
    const sg::ProblemLoad load = sg::load_problem_file(file, {bad});
    CHECK(!load.ok());
    CAPTURE(load.errors);
    const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
    CHECK(load.errors.find(key) != std::string::npos);
  }
}

TEST_CASE("the shipped swimmer follows mj_step's RK4 with its gait, swims, and AD equals FD over its sweep") {
  const std::string scene = sg::test::source_path("scenes/swimmer.json");
  const std::string xml = sg::test::source_path("scenes/mjcf/swimmer.xml");
  const sg::Problem p = sg::test::load_scene(scene);
  const sg::mjcf::TreeStepComparison c =
      sg::mjcf::compare_tree_with_mj_step(p.data.tree, xml, 800, 0.005, true);
  MESSAGE("swimmer vs mj_step (RK4, 800 steps): qpos " << c.qpos << ", qvel " << c.qvel);
  CHECK(c.qpos < 1e-9);
  CHECK(c.qvel < 1e-9);
  CHECK(c.max_speed > 0.1);
  // The sweep: AD = central FD at every point (1e-6 relative; measured median 3e-10). The wave running
  // head to tail (gear > 0.02) takes the head forward, towards -x, by over 3 cm in 4 s; run backwards
  // (gear < -0.02) it takes it the other way.
  const sg::SweepResult r = sg::run_sweep(p);
  const double worst = sg::test::check_sweep_ad_fd(r, 41, 1e-6, true);
  MESSAGE("swimmer: worst relative AD-FD difference " << worst);
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    CAPTURE(r.points[i].value);
    if (r.points[i].value > 0.02) CHECK(r.points[i].loss < -0.03);
    if (r.points[i].value < -0.02) CHECK(r.points[i].loss > 0.0);
  }
  sg::test::check_reverse_equals_forward("swimmer", p,
                                         {"control.actuators.0.knots.3", "control.actuators.1.knots.20",
                                          "model.tree.actuators.1.gear", "model.tree.fluid.density"},
                                         0, true, 1e-5);
}
