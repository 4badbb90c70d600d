// Joint trees stepped by softgrad against MuJoCo 2.2.2's mj_step on the same MJCF file: RK4 (MuJoCo's
// mj_RungeKutta is classic RK4 on (qpos, qvel) for hinge and slide joints) and semi-implicit Euler (mj_Euler
// with its implicit joint damping), output by output; and the tree import (model.type "tree" from MJCF).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "engine/gradient/point_eval.hpp"
#include "engine/model/tree_system.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/simulate/run.hpp"
#include "engine/simulate/trajectory.hpp"
#include "engine/sweep/sweep.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

using nlohmann::json;

namespace {

sg::Problem load(const std::string& file, const std::vector<std::string>& sets = {}) {
  return sg::test::load_scene(file, sets);
}

// softgrad's qpos and qvel at every output time.
struct StateRecorder {
  int nq = 0, nv = 0, vel_offset = 0;
  std::vector<std::vector<double>> qpos, qvel;
  void on_output(long, double, const double* y, int) {
    qpos.emplace_back(y, y + nq);
    qvel.emplace_back(y + vel_offset, y + vel_offset + nv);
  }
  void on_accept(double) {}
  void on_reject(double) {}
  void on_event(double, const sg::EventId&) {}
};

// The largest difference between softgrad's states and mj_step's over `steps` outputs from the scene's
// start (set in MuJoCo from the problem's own initial state).
struct Difference {
  double qpos = 0.0, qvel = 0.0;
  std::vector<double> sg_final, mj_final;  // qpos then qvel at the last output
};

// before_step(step, d), when given, runs before each mj_step (step 0 first): inputs set per step.
Difference compare_with_mj_step(const sg::Problem& p, const std::string& xml_path,
                                const std::function<void(int, mjData*)>& before_step = {}) {
  const sg::JointTreeModel<double>& tree = p.data.tree;
  StateRecorder rec{tree.tree.nq, tree.tree.nv, tree.vel_offset(), {}, {}};
  sg::SimWorkspace<double> ws;
  const sg::RunOutput<double> out = sg::run_simulation(p.data, p.integrator, ws, rec);
  REQUIRE(out.stats.status == sg::Status::ok);
  std::string error;
  const auto sim = sg::mjcmp::load_mujoco_file(xml_path, &error);
  INFO(error);
  REQUIRE(sim);
  mjModel* m = sim->m;
  mjData* d = sim->d;
  REQUIRE(m->nq == tree.tree.nq);
  REQUIRE(m->nv == tree.tree.nv);
  m->opt.timestep = p.integrator.dt;
  m->opt.integrator = p.integrator.method == sg::Method::rk4 ? mjINT_RK4 : mjINT_EULER;
  mj_resetData(m, d);
  for (int i = 0; i < m->nq; ++i) d->qpos[i] = rec.qpos[0][static_cast<std::size_t>(i)];
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = rec.qvel[0][static_cast<std::size_t>(i)];
  REQUIRE(m->nu == tree.act.nu);
  for (int i = 0; i < m->nu; ++i) d->ctrl[i] = tree.ctrl[i];  // the scene's controls
  Difference worst;
  for (std::size_t k = 1; k < rec.qpos.size(); ++k) {
    if (before_step) before_step(static_cast<int>(k) - 1, d);
    mj_step(m, d);
    for (int i = 0; i < m->nq; ++i)
      worst.qpos = std::max(worst.qpos, std::fabs(d->qpos[i] - rec.qpos[k][static_cast<std::size_t>(i)]));
    for (int i = 0; i < m->nv; ++i)
      worst.qvel = std::max(worst.qvel, std::fabs(d->qvel[i] - rec.qvel[k][static_cast<std::size_t>(i)]));
  }
  worst.sg_final = rec.qpos.back();
  worst.sg_final.insert(worst.sg_final.end(), rec.qvel.back().begin(), rec.qvel.back().end());
  worst.mj_final.assign(d->qpos, d->qpos + m->nq);
  worst.mj_final.insert(worst.mj_final.end(), d->qvel, d->qvel + m->nv);
  return worst;
}

using sg::test::write_scene;

// Every joint type the tree has, with springs (springref too), armature and damping, an offset anchor, a
// turned inertial frame and gravity off the axis.
const char* kMixedTree = R"(<mujoco>
  <option timestep="0.002" gravity="0.5 -0.3 -9.81"><flag contact="disable"/></option>
  <worldbody>
    <body name="base" pos="0 0 1" euler="0 10 0">
      <joint name="lift" type="slide" axis="0 0.2 1" stiffness="40" springref="0.05" damping="0.4"/>
      <inertial pos="0 0 0" mass="2" diaginertia="0.02 0.02 0.02"/>
      <body name="arm" pos="0.1 0 -0.05">
        <joint name="shoulder" type="hinge" pos="0 0 0.02" axis="0.3 1 0" armature="0.01" damping="0.1"/>
        <inertial pos="0.1 0.02 -0.15" quat="0.9 0.1 0.2 0.3" mass="0.8" diaginertia="0.01 0.008 0.003"/>
        <body name="hand" pos="0.2 0 -0.3">
          <joint name="wrist" type="ball" stiffness="0.5" damping="0.02"/>
          <inertial pos="0 0.01 -0.08" mass="0.3" diaginertia="0.002 0.0015 0.001"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)";

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double out = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) out = std::max(out, std::fabs(a[i] - b[i]));
  return out;
}

json mixed_scene(const std::string& xml, const char* integrator, int steps) {
  json scene = json::parse(R"({
    "model": {"type": "mjcf", "tree": {"bodies": [
      {"joints": [{"qpos": 0.03, "qvel": -0.2}]},
      {"joints": [{"qpos": 0.8, "qvel": 1.5}]},
      {"joints": [{"ball_qpos": [0.8, 0.2, -0.3, 0.1], "ball_qvel": [2, -1, 3]}]}]}},
    "loss": {"terms": [{"body": 2, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.bodies.1.joints.0.qpos", "from": 0.5, "to": 1}})");
  scene["model"]["file"] = xml;
  scene["integrator"] = {{"type", integrator}, {"steps", steps}};
  return scene;
}

}  // namespace

TEST_CASE("the shipped pendulum chain follows mj_step's RK4 to 1e-10 over 2 s") {
  // Three hinges with damping, RK4 at 0.01 s, 200 steps from a 1.2 rad start: the same formulas in a
  // different order; measured 3e-13 rad (qpos) and 2e-12 rad/s (qvel). Tolerance 1e-10 and 1e-9.
  const sg::Problem p =
      load(sg::test::source_path("scenes/pendulum_chain_mjcf.json"),
           {"model.tree.bodies.0.joints.0.qpos=1.2", "model.tree.bodies.2.joints.0.qvel=2"});
  const Difference diff = compare_with_mj_step(p, sg::test::source_path("scenes/mjcf/pendulum_chain.xml"));
  MESSAGE("pendulum chain, RK4: max |qpos diff| " << diff.qpos << ", max |qvel diff| " << diff.qvel);
  CHECK(diff.qpos < 1e-10);
  CHECK(diff.qvel < 1e-9);
}

TEST_CASE("the pendulum chain follows mj_step's semi-implicit Euler with implicit damping to 1e-10") {
  const sg::Problem p = load(sg::test::source_path("scenes/pendulum_chain_mjcf.json"),
                             {"integrator.type=euler", "model.tree.bodies.0.joints.0.qpos=1.2"});
  const Difference diff = compare_with_mj_step(p, sg::test::source_path("scenes/mjcf/pendulum_chain.xml"));
  MESSAGE("pendulum chain, Euler: max |qpos diff| " << diff.qpos << ", max |qvel diff| " << diff.qvel);
  CHECK(diff.qpos < 1e-10);
  CHECK(diff.qvel < 1e-9);
}

TEST_CASE("slide, hinge and ball joints with springs follow mj_step over 1 s") {
  const std::string xml = sg::test::write_mjcf("mixed_tree", kMixedTree);
  SUBCASE("semi-implicit Euler: mj_Euler's own map, to round-off") {
    const sg::Problem p = load(write_scene("mixed_tree_euler", mixed_scene(xml, "euler", 500)));
    const Difference diff = compare_with_mj_step(p, xml);
    MESSAGE("mixed tree, Euler: max |qpos diff| " << diff.qpos << ", max |qvel diff| " << diff.qvel);
    CHECK(diff.qpos < 1e-10);
    CHECK(diff.qvel < 1e-9);
  }
  SUBCASE("RK4: with a ball joint softgrad's rotation-vector RK4 is fourth order, MuJoCo's is not") {
    // MuJoCo's mj_RungeKutta moves the ball's quaternion stage by stage by mj_integratePos with combined
    // angular velocities, which is not a fourth-order method on the rotation group; softgrad integrates the
    // rotation vector (engine-notes section 3). Against Tsit5 at 1e-12 after 1 s, halving the step:
    // softgrad's error went 4.3e-6 -> 2.6e-7 (16.7-fold, fourth order), MuJoCo's 5.2e-5 -> 1.3e-5 (4-fold,
    // second order).
    const sg::Problem ref_p =
        load(write_scene("mixed_tree_ref", mixed_scene(xml, "tsit5", 500)),
             {"integrator.rtol=1e-12", "integrator.atol=1e-12", "integrator.max_steps=1000000"});
    sg::SimWorkspace<double> ws;
    sg::NullObserver obs;
    REQUIRE(sg::run_simulation(ref_p.data, ref_p.integrator, ws, obs).stats.status == sg::Status::ok);
    const sg::JointTreeModel<double>& t = ref_p.data.tree;
    std::vector<double> ref(ws.y, ws.y + t.tree.nq);
    ref.insert(ref.end(), ws.y + t.vel_offset(), ws.y + t.vel_offset() + t.tree.nv);
    double sg_err[2], mj_err[2];
    for (int k = 0; k < 2; ++k) {
      const double h = k == 0 ? 0.008 : 0.004;
      const sg::Problem p = load(write_scene("mixed_tree_rk4", mixed_scene(xml, "rk4", k == 0 ? 125 : 250)),
                                 {"integrator.dt=" + std::to_string(h)});
      const Difference diff = compare_with_mj_step(p, xml);
      sg_err[k] = max_diff(diff.sg_final, ref);
      mj_err[k] = max_diff(diff.mj_final, ref);
      MESSAGE("mixed tree, RK4 at h = " << h << ": softgrad's error " << sg_err[k] << ", mj_step's "
                                        << mj_err[k]);
    }
    CHECK(sg_err[1] < 1e-6);
    CHECK(sg_err[0] / sg_err[1] > 12.0);  // fourth order: 16
    CHECK(sg_err[1] < mj_err[1]);
  }
}

TEST_CASE("pendulum_chain_mjcf.json imports the very model pendulum_chain.json writes out") {
  const sg::Problem a = load(sg::test::source_path("scenes/pendulum_chain.json"));
  const sg::Problem b = load(sg::test::source_path("scenes/pendulum_chain_mjcf.json"));
  CHECK(b.data.type == sg::ModelType::tree);
  CHECK(b.config["model"]["type"] == "tree");
  CHECK(b.config["model"]["tree"]["bodies"][2]["name"] == "link3");
  CHECK(b.integrator.method == sg::Method::rk4);
  sg::PointEvaluator ea(a), eb(b);
  const sg::LossSample sa = ea.loss_and_grad(0.9), sb = eb.loss_and_grad(0.9);
  CHECK(sa.loss == sb.loss);
  CHECK(sa.grad == sb.grad);
}

namespace {

// A cart-pole with a second pole: a geared motor on the cart (ctrl clamped to ctrlrange), a position servo
// on the first pole, a velocity servo on the second, and a general actuator with an affine gain and bias
// and a force limit on the cart too.
const char* kActuatedCartPole = R"(<mujoco>
  <option timestep="0.002"><flag contact="disable"/></option>
  <worldbody>
    <body name="cart" pos="0 0 1">
      <joint name="slider" type="slide" axis="1 0 0" damping="0.2"/>
      <geom type="box" size="0.2 0.1 0.05" mass="1"/>
      <body name="pole" pos="0 0 0">
        <joint name="hinge" type="hinge" axis="0 1 0" damping="0.05"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.6" size="0.03" mass="0.2"/>
        <body name="pole2" pos="0 0 0.6">
          <joint name="hinge2" type="hinge" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 0 0 0.4" size="0.02" mass="0.1"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="push" joint="slider" gear="3" ctrllimited="true" ctrlrange="-1 1"/>
    <position name="servo" joint="hinge" kp="4"/>
    <velocity name="brake" joint="hinge2" kv="0.3"/>
    <general name="spring" joint="slider" gaintype="affine" gainprm="2 0.5 0.1" biastype="affine"
             biasprm="0.1 -1 -0.3" forcelimited="true" forcerange="-2 2"/>
  </actuator>
</mujoco>
)";

json cart_pole_scene(const std::string& xml, const char* integrator) {
  json scene = json::parse(R"({
    "model": {"type": "mjcf", "tree": {
      "bodies": [{}, {"joints": [{"qpos": 0.3, "qvel": -0.5}]}, {"joints": [{"qvel": 1}]}],
      "actuators": [{"ctrl": 1.7}, {"ctrl": -0.2}, {"ctrl": 0.5}, {"ctrl": 0.8}]}},
    "loss": {"terms": [{"body": 2, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.actuators.0.ctrl", "from": -0.5, "to": 0.5}})");
  scene["model"]["file"] = xml;
  scene["integrator"] = {{"type", integrator}, {"steps", 500}};
  return scene;
}

}  // namespace

TEST_CASE("an actuated cart-pole follows mj_step with the same controls to round-off over 1 s") {
  // Motor (ctrl 1.7 clamped to 1), position, velocity and general actuators: qfrc_actuator enters
  // qfrc_smooth as in mj_fwdActuation. Tolerances as for the unactuated trees: 1e-10 (qpos), 1e-9 (qvel).
  const std::string xml = sg::test::write_mjcf("actuated_cart_pole", kActuatedCartPole);
  for (const char* integrator : {"rk4", "euler"}) {
    CAPTURE(std::string(integrator));
    const sg::Problem p =
        load(write_scene(std::string("actuated_cart_pole_") + integrator, cart_pole_scene(xml, integrator)));
    REQUIRE(p.data.tree.act.nu == 4);
    CHECK(p.config["model"]["tree"]["actuators"][1]["kind"] == "position");
    CHECK(p.config["model"]["tree"]["actuators"][3]["kind"] == "general");
    CHECK(p.config["model"]["tree"]["bodies"][0]["joints"][0]["name"] == "slider");
    const Difference diff = compare_with_mj_step(p, xml);
    MESSAGE("actuated cart-pole, " << std::string(integrator) << ": max |qpos diff| " << diff.qpos
                                   << ", max |qvel diff| " << diff.qvel << ", final cart x "
                                   << diff.sg_final[0]);
    CHECK(diff.qpos < 1e-10);
    CHECK(diff.qvel < 1e-9);
    CHECK(std::fabs(diff.sg_final[0]) > 0.05);  // the actuators moved the cart
  }
}

namespace {

// A cart-pole pushed into its slide limit (margin, solreflimit and solimplimit of its own) with a limited
// pole: the limit rows of MuJoCo's constraint stage, solved in every evaluation of the dynamics.
const char* kLimitedCartPole = R"(<mujoco>
  <option timestep="0.002"><flag contact="disable"/></option>
  <worldbody>
    <body name="cart" pos="0 0 1">
      <joint name="slider" type="slide" axis="1 0 0" damping="0.2" limited="true" range="-0.3 0.3"
             margin="0.01" solreflimit="0.03 1.2" solimplimit="0.8 0.97 0.002 0.4 3"/>
      <geom type="box" size="0.2 0.1 0.05" mass="1"/>
      <body name="pole" pos="0 0 0">
        <joint name="hinge" type="hinge" axis="0 1 0" damping="0.05" limited="true" range="-40 40"/>
        <geom type="capsule" fromto="0 0 0 0.05 0 0.6" size="0.03" mass="0.2"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor name="push" joint="slider" gear="3"/></actuator>
</mujoco>
)";

json limited_cart_pole_scene(const std::string& xml, const char* integrator) {
  json scene = json::parse(R"({
    "model": {"type": "mjcf", "tree": {"bodies": [{"joints": [{"qvel": 0.2}]}, {"joints": [{"qvel": -1}]}],
      "actuators": [{"ctrl": 1.0}]}},
    "loss": {"terms": [{"body": 1, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.actuators.0.ctrl", "from": 0.2, "to": 1.2}})");
  scene["model"]["file"] = xml;
  scene["integrator"] = {{"type", integrator}, {"steps", 500}};
  return scene;
}

}  // namespace

TEST_CASE("a cart-pole driven into its slide limit follows mj_step, and AD in the push equals FD") {
  const std::string xml = sg::test::write_mjcf("limited_cart_pole", kLimitedCartPole);
  for (const char* integrator : {"rk4", "euler"}) {
    CAPTURE(std::string(integrator));
    const std::string scene =
        write_scene(std::string("limited_cart_pole_") + integrator, limited_cart_pole_scene(xml, integrator));
    const sg::Problem p = load(scene);
    CHECK(p.data.tree.constrained());
    CHECK(p.config["model"]["tree"]["bodies"][0]["joints"][0]["limited"] == true);
    const Difference diff = compare_with_mj_step(p, xml);
    MESSAGE("limited cart-pole, " << std::string(integrator) << ": max |qpos diff| " << diff.qpos
                                  << ", max |qvel diff| " << diff.qvel << ", final cart x "
                                  << diff.sg_final[0] << ", pole angle " << diff.sg_final[1]);
    // The same rows are active in both at every step: round-off, as for the smooth trees.
    CHECK(diff.qpos < 1e-10);
    CHECK(diff.qvel < 1e-9);
    CHECK(diff.sg_final[0] > 0.29);  // at the limit, within its softness
    CHECK(diff.sg_final[0] < 0.31);
    const sg::SweepResult r = sg::run_sweep(load(scene, {"sweep.points=5"}));
    REQUIRE(r.points.size() == 5);
    double worst = 0.0;
    for (const sg::PointResult& pt : r.points) {
      CAPTURE(pt.value);
      REQUIRE(pt.status == "ok");
      worst = std::max(worst, std::fabs(pt.grad - pt.grad_fd) / std::max(1.0, std::fabs(pt.grad)));
      MESSAGE("  ctrl " << pt.value << ": loss " << pt.loss << ", AD " << pt.grad << ", FD " << pt.grad_fd);
    }
    MESSAGE("limited cart-pole, " << std::string(integrator) << ": worst relative AD-FD " << worst);
    CHECK(worst < 1e-6);
  }
}

TEST_CASE("the shipped crane follows mj_step's RK4 with its controls, and AD in the control equals FD") {
  // Tolerances as for the pendulum chain: 1e-10 (qpos), 1e-9 (qvel); AD vs central FD 1e-6 relative.
  const sg::Problem p = load(sg::test::source_path("scenes/crane.json"));
  REQUIRE(p.data.tree.act.nu == 2);
  CHECK(p.data.tree.ctrl[0] == 0.3);
  const Difference diff = compare_with_mj_step(p, sg::test::source_path("scenes/mjcf/crane.xml"));
  MESSAGE("crane, RK4: max |qpos diff| " << diff.qpos << ", max |qvel diff| " << diff.qvel);
  CHECK(diff.qpos < 1e-10);
  CHECK(diff.qvel < 1e-9);
  const sg::Problem swept = load(sg::test::source_path("scenes/crane.json"), {"sweep.points=7"});
  const sg::SweepResult r = sg::run_sweep(swept);
  REQUIRE(r.points.size() == 7);
  double worst = 0.0;
  for (const sg::PointResult& pt : r.points) {
    CAPTURE(pt.value);
    REQUIRE(pt.status == "ok");
    worst = std::max(worst, std::fabs(pt.grad - pt.grad_fd) / std::max(1.0, std::fabs(pt.grad)));
  }
  MESSAGE("crane: loss " << r.points.front().loss << " .. " << r.points.back().loss << " m, grad "
                         << r.points.front().grad << " .. " << r.points.back().grad
                         << ", worst relative AD-FD " << worst);
  CHECK(worst < 1e-6);
  CHECK(r.points.back().loss > r.points.front().loss + 0.1);  // pushing harder moves the load further
}

TEST_CASE(
    "unsupported actuators are refused by name; ref and friction loss import (test_joint_ref.cpp, "
    "test_friction_loss.cpp)") {
  const std::string errors = sg::test::import_errors("refused_tree", R"(<mujoco>
    <option><flag contact="disable"/></option><worldbody>
    <body name="a" pos="0 0 1"><joint name="lim" type="ball" frictionloss="0.1"/>
      <geom size="0.1"/>
      <body name="b"><joint name="off" type="slide" ref="0.2"/><geom size="0.1"/></body></body>
    <body name="d"><joint name="swivel" type="ball"/><geom size="0.1"/></body>
  </worldbody><actuator><adhesion name="stick" body="d" ctrlrange="0 1"/></actuator></mujoco>)");
  CHECK(errors.find("joint 'lim'") == std::string::npos);  // its friction loss imports
  CHECK(errors.find("joint 'off'") == std::string::npos);  // its ref imports
  CHECK(errors.find("actuator 'stick': body transmissions (adhesion) are not supported (joint, tendon, site, "
                    "slider-crank)") != std::string::npos);
}

TEST_CASE("the shipped crane with end stops reaches a stop, follows mj_step's RK4, and AD equals FD") {
  const sg::Problem p = load(sg::test::source_path("scenes/crane_end_stop.json"));
  REQUIRE(p.data.tree.constrained());
  for (const char* ctrl : {"0.3", "0.9"}) {
    const sg::Problem pushed = load(sg::test::source_path("scenes/crane_end_stop.json"),
                                    {std::string("model.tree.actuators.0.ctrl=") + ctrl});
    const Difference diff =
        compare_with_mj_step(pushed, sg::test::source_path("scenes/mjcf/crane_end_stop.xml"));
    MESSAGE("crane with end stops, ctrl " << std::string(ctrl) << ", RK4: max |qpos diff| " << diff.qpos
                                          << ", max |qvel diff| " << diff.qvel << ", final trolley x "
                                          << diff.sg_final[0]);
    CHECK(diff.qpos < 1e-10);
    CHECK(diff.qvel < 1e-9);
    CHECK(diff.sg_final[0] > 0.95);  // at the stop
  }
  const sg::SweepResult r =
      sg::run_sweep(load(sg::test::source_path("scenes/crane_end_stop.json"), {"sweep.points=7"}));
  REQUIRE(r.points.size() == 7);
  double worst = 0.0;
  for (const sg::PointResult& pt : r.points) {
    REQUIRE(pt.status == "ok");
    worst = std::max(worst, std::fabs(pt.grad - pt.grad_fd) / std::max(1.0, std::fabs(pt.grad)));
  }
  MESSAGE("crane with end stops: worst relative AD-FD over 7 controls " << worst);
  CHECK(worst < 1e-6);
}

namespace {

// MuJoCo's contact force on each body but the world at its current state (mj_forward): the sum of the row
// forces of every contact the body's geoms are in (a pyramid's edge forces sum to the normal force).
std::vector<double> mujoco_body_forces(const mjModel* m, mjData* d) {
  mj_forward(m, d);
  std::vector<double> f(static_cast<std::size_t>(m->nbody - 1), 0.0);
  for (int i = 0; i < d->ncon; ++i) {
    const mjContact& c = d->contact[i];
    if (c.efc_address < 0) continue;
    const int rows = c.dim == 1 ? 1 : 2 * (c.dim - 1);
    double sum = 0.0;
    for (int r = 0; r < rows; ++r) sum += d->efc_force[c.efc_address + r];
    for (const int g : {c.geom1, c.geom2})
      if (m->geom_bodyid[g] > 0) f[static_cast<std::size_t>(m->geom_bodyid[g] - 1)] += sum;
  }
  return f;
}

}  // namespace

TEST_CASE("a tree trajectory's contact force on each body is MuJoCo's, output by output") {
  // pendulum_floor at a shoulder start velocity of 1.5 rad/s: the ball strikes the floor, skids and lifts
  // off. The trajectory's force per body (what the workbench plots) and its contact marks against MuJoCo's
  // efc_force and contacts at mj_step's states from the same start (which follow softgrad's to 1e-13).
  // Measured: 5.3e-12 N at most, against forces up to 459 N. Tolerance 1e-6 of the largest force.
  const sg::Problem p =
      load(sg::test::source_path("scenes/pendulum_floor.json"), {"model.tree.bodies.0.joints.0.qvel=1.5"});
  const sg::Trajectory tr = sg::simulate_trajectory(p, 1.5);
  REQUIRE(tr.status == "ok");
  const sg::JointTreeModel<double>& tree = p.data.tree;
  std::string error;
  const auto sim =
      sg::mjcmp::load_mujoco_file(sg::test::source_path("scenes/mjcf/pendulum_floor.xml"), &error);
  INFO(error);
  REQUIRE(sim);
  mjModel* m = sim->m;
  mjData* d = sim->d;
  m->opt.timestep = p.integrator.dt;
  mj_resetData(m, d);
  std::vector<double> y(static_cast<std::size_t>(tree.dim()));
  sg::TreeSystem<double>(&tree, p.integrator.dt).initial_state(y.data());
  for (int i = 0; i < m->nq; ++i) d->qpos[i] = y[static_cast<std::size_t>(i)];
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = y[static_cast<std::size_t>(tree.vel_offset() + i)];
  REQUIRE(tr.force.size() == static_cast<std::size_t>(p.integrator.steps + 1));
  double largest = 0.0, worst = 0.0;
  long touching = 0;
  for (std::size_t k = 0; k < tr.force.size(); ++k) {
    const std::vector<double> f = mujoco_body_forces(m, d);
    REQUIRE(f.size() == tr.force[k].size());
    for (std::size_t b = 0; b < f.size(); ++b) {
      largest = std::max(largest, std::fabs(f[b]));
      worst = std::max(worst, std::fabs(f[b] - tr.force[k][b]));
    }
    touching += d->ncon > 0;
    CHECK(tr.contacts[k].size() == static_cast<std::size_t>(d->ncon));
    mj_step(m, d);
  }
  MESSAGE("contact force per body: largest " << largest << " N, worst difference " << worst << " N, "
                                             << touching << " outputs with contacts");
  CHECK(touching > 20);
  CHECK(largest > 1.0);
  CHECK(worst <= 1e-6 * largest);
}

TEST_CASE("forces applied to a tree's bodies (xfrc_applied) follow mj_step over 400 Euler steps") {
  // MuJoCo's xfrc_applied (mj_xfrcAccumulate: J' (force, torque) at each body's centre of mass), which
  // carries the free bodies' timed forces when they run as trees (model.run_as tree). Two forces on the arm
  // and the hand of the mixed tree during steps [50, 250) and [120, 400), a third on the arm for one step
  // only; softgrad's Euler (implicit damping) against mj_step with d->xfrc_applied set per step. Tolerance
  // 1e-10 in qpos and 1e-9 in qvel, as above; the forces must move the end state.
  const std::string xml = sg::test::write_mjcf("xfrc_mixed", kMixedTree);
  sg::Problem p = load(write_scene("xfrc_mixed", mixed_scene(xml, "euler", 400)));
  const sg::Problem plain = p;
  sg::JointTreeModel<double>& tree = p.data.tree;
  REQUIRE(tree.tree.nbody == 4);
  struct Applied {
    int body;
    double force[3], torque[3];
    int from, to;
  };
  const Applied applied[] = {{2, {1.5, -0.7, 3.0}, {0.2, 0.1, -0.3}, 50, 250},
                             {3, {-0.4, 2.0, 0.5}, {0.0, -0.05, 0.08}, 120, 400},
                             {2, {0.0, 0.0, 40.0}, {0.0, 0.0, 0.0}, 300, 301}};
  for (const Applied& a : applied)
    tree.force[tree.nforce++] = {
        a.body, {a.force[0], a.force[1], a.force[2]}, {a.torque[0], a.torque[1], a.torque[2]}, a.from, a.to};
  const Difference worst = compare_with_mj_step(p, xml, [&](int step, mjData* d) {
    mju_zero(d->xfrc_applied, 6 * tree.tree.nbody);
    for (const Applied& a : applied)
      if (step >= a.from && step < a.to)
        for (int c = 0; c < 3; ++c)
          d->xfrc_applied[6 * a.body + c] += a.force[c], d->xfrc_applied[6 * a.body + 3 + c] += a.torque[c];
  });
  StateRecorder without{tree.tree.nq, tree.tree.nv, tree.vel_offset(), {}, {}};
  sg::SimWorkspace<double> ws;
  REQUIRE(sg::run_simulation(plain.data, plain.integrator, ws, without).stats.status == sg::Status::ok);
  const std::vector<double> with_forces(worst.sg_final.begin(), worst.sg_final.begin() + tree.tree.nq);
  const double moved = max_diff(without.qpos.back(), with_forces);
  MESSAGE("xfrc_applied against mj_step: qpos " << worst.qpos << ", qvel " << worst.qvel
                                                << "; the forces move qpos by " << moved);
  CHECK(moved > 1e-2);
  CHECK(worst.qpos < 1e-10);
  CHECK(worst.qvel < 1e-9);
}
