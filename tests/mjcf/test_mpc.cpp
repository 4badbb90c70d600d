// Model-predictive control (engine/control, softgrad mpc): the plan's shift and noise, runs from a given
// state, the loop on a point mass with a known optimum, zero-noise sampling against the open-loop run,
// determinism, the push task with and without Contacts From Distance, and bad settings.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/control/control_plan.hpp"
#include "engine/control/mpc.hpp"
#include "engine/model/tree_start.hpp"
#include "engine/model/tree_system.hpp"
#include "mjcf_test_util.hpp"
#include "tests/cli/cli_runner.hpp"

namespace {

using sg::test::load_scene;
using sg::test::source_path;
using sg::test::write_mjcf;
using sg::test::write_scene;

// A 1 kg point mass on a horizontal rail (slide joint x, damped) pushed by a motor limited to +-1 N.
const char* kPointMass = R"(<mujoco>
  <option timestep="0.01" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="mass" pos="0 0 0.5">
      <joint name="x" type="slide" axis="1 0 0" damping="0.2"/>
      <geom type="sphere" size="0.05" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><motor joint="x" gear="1" ctrllimited="true" ctrlrange="-1 1"/></actuator>
</mujoco>)";

// Drive it to x = 0.5 and stop there: (x - 0.5)^2 + 0.1 v^2 at the horizon's end.
nlohmann::json point_mass_scene(const std::vector<double>& knots) {
  nlohmann::json s = {
      {"model", {{"type", "mjcf"}, {"file", "mpc_point_mass.xml"}}},
      {"integrator", {{"steps", 200}}},
      {"loss",
       {{"terms",
         {{{"quantity", "qpos"}, {"joint", "x"}, {"kind", "square"}, {"target", 0.5}},
          {{"quantity", "qvel"}, {"joint", "x"}, {"kind", "square"}, {"target", 0.0}, {"weight", 0.1}}}}}},
      {"mpc", {{"horizon", 50}, {"execute", 5}, {"iterations", 10}, {"lr", 0.2}, {"clip", 1.0}}},
      {"sweep", {{"parameter", "model.tree.actuators.0.ctrl"}}}};
  if (!knots.empty()) s["control"] = {{"actuators", {{{"knots", knots}}}}};
  return s;
}

sg::Problem point_mass(const std::vector<double>& knots = {}, const std::vector<std::string>& sets = {}) {
  write_mjcf("mpc_point_mass", kPointMass);
  return load_scene(write_scene("mpc_point_mass", point_mass_scene(knots)), sets);
}

double qpos_x(const sg::MpcResult& r, std::size_t i) {
  return r.state[i][0];
}

}  // namespace

TEST_CASE("a plan shifts by whole knots, interpolates between linear knots and stays in ctrlrange") {
  const sg::Problem p = point_mass({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  sg::PlanLayout layout = sg::plan_layout(p.data.tree, 50);
  REQUIRE(layout.size() == 10);
  CHECK(layout.paths[3] == "control.actuators.0.knots.3");
  CHECK(layout.lo[0] == -1.0);
  CHECK(layout.hi[0] == 1.0);
  const std::vector<double> plan = sg::read_plan(layout, p.data.tree);
  // Constant knots over 50 steps: 5 steps each; 5 executed steps move every knot on by one, the last holds.
  const std::vector<double> shifted = sg::shift_plan(layout, plan, 5);
  for (int k = 0; k < 10; ++k) CHECK(shifted[k] == plan[std::min(k + 1, 9)]);
  // 3 steps: knot k now starts at step 5k + 3, still inside the old knot k (for k < 9).
  const std::vector<double> part = sg::shift_plan(layout, plan, 3);
  for (int k = 0; k < 10; ++k) CHECK(part[k] == plan[k]);
  // Linear: knot k at 50 k / 9 steps; shifted by 2.5 knot spans' worth of steps.
  layout.interpolation = sg::ControlInterpolation::linear;
  const std::vector<double> lin = sg::shift_plan(layout, plan, 25);  // 25 steps = 4.5 knot spans
  for (int k = 0; k < 10; ++k) CHECK(lin[k] == doctest::Approx(std::min(k + 4.5, 9.0)).epsilon(1e-12));
  std::vector<double> wild = {-3, 0.5, 2, 1, -1, 0, 7, -0.25, 1e9, -1e9};
  sg::clamp_plan(layout, wild);
  for (double u : wild) CHECK((u >= -1.0 && u <= 1.0));
}

TEST_CASE("plan noise: zero noise is the plan, white and brown noise have their spread") {
  const sg::Problem p = point_mass(std::vector<double>(10, 0.0));
  sg::PlanLayout layout = sg::plan_layout(p.data.tree, 50);
  layout.lo[0] = -1e9, layout.hi[0] = 1e9;  // no clamping: measure the noise itself
  const std::vector<double> plan(10, 0.25);
  std::mt19937_64 rng(7);
  CHECK(sg::perturb_plan(layout, plan, 0.0, false, rng) == plan);
  CHECK(sg::perturb_plan(layout, plan, 0.0, true, rng) == plan);
  // Over 4000 draws: white noise has variance sigma^2 at every knot; brown noise (a walk) (k + 1) sigma^2
  // at knot k. Tolerance: 10% of the variance (the standard error of a variance estimate from 4000 draws is
  // 2.2%).
  const double sigma = 0.3;
  for (bool brown : {false, true}) {
    std::vector<double> var(10, 0.0);
    const int draws = 4000;
    for (int d = 0; d < draws; ++d) {
      const std::vector<double> x = sg::perturb_plan(layout, plan, sigma, brown, rng);
      for (int k = 0; k < 10; ++k) var[k] += (x[k] - 0.25) * (x[k] - 0.25) / draws;
    }
    for (int k = 0; k < 10; ++k) {
      CAPTURE(brown);
      CAPTURE(k);
      CHECK(var[k] == doctest::Approx(sigma * sigma * (brown ? k + 1 : 1)).epsilon(0.1));
    }
  }
}

TEST_CASE("a run from a given state starts from it: free, ball and hinge joints, rotation vectors folded") {
  write_mjcf("mpc_start_tree", R"(<mujoco><worldbody>
    <body name="root" pos="0.1 0.2 1" quat="0.9 0.1 0.3 -0.2"><freejoint/>
      <geom type="box" size="0.1 0.2 0.3" mass="1"/>
      <body name="arm" pos="0.2 0 0"><joint name="ball" type="ball"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="0.5"/>
        <body name="hand" pos="0.3 0 0"><joint name="hinge" type="hinge" axis="0 1 0"/>
          <geom type="sphere" size="0.05" mass="0.2"/></body></body></body>
  </worldbody></mujoco>)");
  const sg::Problem p =
      load_scene(write_scene("mpc_start_tree", {{"model", {{"type", "mjcf"}, {"file", "mpc_start_tree.xml"}}},
                                                {"sweep", {{"parameter", "model.gravity.2"}}}}));
  sg::JointTreeModel<double> model = p.data.tree;
  const int n = model.dim();
  std::vector<double> y(static_cast<std::size_t>(n));
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-0.7, 0.7);
  for (double& v : y) v = u(rng);
  // Unit quaternions where qpos has them (the free joint's at 3..6, the ball's at 7..10).
  for (int at : {3, 7}) {
    double norm = 0.0;
    for (int k = 0; k < 4; ++k) norm += y[at + k] * y[at + k];
    for (int k = 0; k < 4; ++k) y[at + k] /= std::sqrt(norm);
  }
  sg::TreeSystem<double> before(&model, 0.01);
  before.load_state(y.data());  // the configuration y stands for, phi folded in
  const std::vector<double> folded(before.data().qpos, before.data().qpos + model.tree.nq);
  sg::set_tree_start(model, y.data());
  sg::TreeSystem<double> after(&model, 0.01);
  std::vector<double> y0(static_cast<std::size_t>(n));
  after.initial_state(y0.data());
  for (int q = 0; q < model.tree.nq; ++q) CHECK(y0[q] == doctest::Approx(folded[q]).epsilon(1e-14));
  for (int r = model.tree.nq; r < model.vel_offset(); ++r) CHECK(y0[r] == 0.0);  // phi folded
  for (int v = model.vel_offset(); v < n; ++v) CHECK(y0[v] == y[v]);
}

TEST_CASE("the gradient planner drives a point mass to its target and stops it there") {
  const sg::Problem p = point_mass();
  const sg::MpcResult r = sg::run_mpc(p, sg::mpc_settings(p));
  REQUIRE(r.status == "ok");
  REQUIRE(r.steps.size() == 40);  // 200 output steps, 5 per plan
  REQUIRE(r.state.size() == 201);
  // The optimum: at rest at x = 0.5 (cost 0). Measured: x = 0.5013, v = 7e-4 m/s, final cost 1.7e-6 (Adam at
  // lr 0.2 keeps the plan jittering about the optimum); from 1.5 s on every output step is within 2 mm.
  for (std::size_t i = 150; i <= 200; ++i) CHECK(std::abs(qpos_x(r, i) - 0.5) < 2e-3);
  CHECK(std::abs(r.state[200][1]) < 5e-3);
  CHECK(r.final_cost < 1e-5);
  CHECK(r.success);
  CHECK(r.cost.front() == doctest::Approx(0.25));
  for (const sg::PlanningStep& s : r.steps) {
    CHECK(s.evaluations == 10);
    CHECK((s.best >= 0 && s.best < 10));
    CHECK(s.clipped <= 10);
    CHECK(std::isfinite(s.cost));
  }
  // Every executed control within the motor's range.
  for (const auto& u : r.ctrl) CHECK((u[0] >= -1.0 && u[0] <= 1.0));
}

TEST_CASE(
    "gradient clipping: a tiny clip norm clips every step whose gradient exceeds it, none with clip 0") {
  const sg::Problem clipped = point_mass({}, {"mpc.clip=1e-3", "mpc.duration=60"});
  const sg::MpcResult a = sg::run_mpc(clipped, sg::mpc_settings(clipped));
  REQUIRE(a.status == "ok");
  long clips = 0;
  for (const sg::PlanningStep& s : a.steps) {
    if (s.grad_norm > 1e-3) CHECK(s.clipped >= 1);
    if (s.grad_norm_max <= 1e-3) CHECK(s.clipped == 0);
    clips += s.clipped;
  }
  CHECK(clips > 0);
  const sg::Problem off = point_mass({}, {"mpc.clip=0", "mpc.duration=60"});
  const sg::MpcResult b = sg::run_mpc(off, sg::mpc_settings(off));
  REQUIRE(b.status == "ok");
  for (const sg::PlanningStep& s : b.steps) CHECK(s.clipped == 0);
  // Clipping changes Adam's steps (its moment estimates see the clipped gradients): the plans differ (the
  // executed controls may not, where both saturate at the motor's range).
  bool differ = false;
  for (std::size_t k = 0; k < a.steps.size(); ++k) differ |= a.steps[k].cost != b.steps[k].cost;
  CHECK(differ);
}

TEST_CASE("sampling with zero noise executes the nominal plan: the same motion as one open-loop run") {
  const std::vector<double> knots = {0.8, 0.5, -0.2, 0.1, -0.6, 0.3, 0.0, -0.4, 0.9, -1.0};
  const std::vector<std::string> sets = {"mpc.planner=sampling", "mpc.noise=0", "mpc.samples=4",
                                         "mpc.duration=50"};
  const sg::Problem p = point_mass(knots, sets);
  const sg::MpcResult mpc = sg::run_mpc(p, sg::mpc_settings(p));
  // One plan executed whole: the open-loop run of the nominal plan.
  const sg::Problem whole = point_mass(knots, {sets[0], sets[1], sets[2], sets[3], "mpc.execute=50"});
  const sg::MpcResult open_loop = sg::run_mpc(whole, sg::mpc_settings(whole));
  REQUIRE(mpc.status == "ok");
  REQUIRE(open_loop.status == "ok");
  REQUIRE(mpc.steps.size() == 10);
  REQUIRE(open_loop.steps.size() == 1);
  for (const sg::PlanningStep& s : mpc.steps) CHECK(s.best == 0);  // ties go to the nominal plan
  REQUIRE(mpc.state.size() == open_loop.state.size());
  // Restarting every 5 steps from the state reached (slide joint: qpos and qvel copied) is bit for bit the
  // same Euler run.
  for (std::size_t i = 0; i < mpc.state.size(); ++i) {
    CAPTURE(i);
    CHECK(mpc.state[i] == open_loop.state[i]);
  }
  for (std::size_t i = 0; i < mpc.ctrl.size(); ++i) CHECK(mpc.ctrl[i][0] == knots[i / 5]);
  // The executed run is the planned rollout: its final loss is the cost the planner saw, bit for bit.
  CHECK(open_loop.final_cost == open_loop.steps[0].cost);
}

TEST_CASE("the executed run is the rollout the planner costed, also under Tsit5 with located limit events") {
  // The crane with end stops pushed into its stop (ctrl 0.6: 4 limit events in 2 s): one plan of the whole
  // run executed whole; recording the executed states must not disturb the adaptive run or its modes.
  const sg::Problem p =
      load_scene(source_path("scenes/crane_end_stop.json"),
                 {"model.tree.actuators.0.ctrl=0.6", "integrator.type=tsit5", "integrator.rtol=1e-8",
                  "integrator.atol=1e-8", "integrator.max_steps=100000", "mpc.planner=sampling",
                  "mpc.samples=1", "mpc.horizon=400", "mpc.execute=400"});
  const sg::MpcResult r = sg::run_mpc(p, sg::mpc_settings(p));
  REQUIRE(r.status == "ok");
  REQUIRE(r.steps.size() == 1);
  CHECK(r.final_cost == r.steps[0].cost);
  CHECK(r.state.size() == 401);
}

TEST_CASE("the running cost: the loss's mean over the output steps, its gradient by every mode alike") {
  // (Inside the motor's range of +-1: at a clamped knot FD would see a one-sided derivative.)
  const std::vector<double> knots = {0.8, 0.5, -0.2, 0.1, -0.6, 0.3, 0.0, -0.4, 0.9, -0.7};
  // Its value: the mean of the loss at output steps 1 .. 50 of the rollout, as the executed run records them.
  const sg::Problem p = point_mass(
      knots, {"mpc.planner=sampling", "mpc.samples=1", "mpc.duration=50", "mpc.execute=50", "mpc.cost=mean"});
  const sg::MpcResult r = sg::run_mpc(p, sg::mpc_settings(p));
  REQUIRE(r.status == "ok");
  REQUIRE(r.cost.size() == 51);
  double mean = 0.0;
  for (std::size_t i = 1; i <= 50; ++i) mean += r.cost[i];
  mean /= 50.0;
  CHECK(r.steps.at(0).cost == doctest::Approx(mean).epsilon(1e-14));
  CHECK(r.steps.at(0).cost != doctest::Approx(r.final_cost).epsilon(1e-3));  // not the final loss
  // Its gradient w.r.t. every knot: reverse = forward (1e-12), central FD (eps 1e-6) to 1e-6 relative.
  const sg::Problem horizon = point_mass(knots, {"integrator.steps=50"});
  std::vector<std::string> paths;
  for (int k = 0; k < 10; ++k) paths.push_back("control.actuators.0.knots." + std::to_string(k));
  sg::ParameterGradient g(horizon, paths, nullptr);
  g.set_running_loss(true);
  const std::vector<double> x = g.initial_values();
  const sg::ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x), fd = g.finite_difference(x, 1e-6);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  REQUIRE(fd.status == "ok");
  CHECK(fwd.loss == doctest::Approx(mean).epsilon(1e-14));
  for (std::size_t k = 0; k < paths.size(); ++k) {
    CAPTURE(k);
    const double scale = std::max(std::abs(fwd.grad[k]), 1e-3);
    CHECK(std::abs(rev.grad[k] - fwd.grad[k]) < 1e-12 * scale);
    CHECK(std::abs(fd.grad[k] - fwd.grad[k]) < 1e-6 * scale);
  }
  // The last knot acts in the last 5 steps only, and still moves the mean.
  CHECK(std::abs(fwd.grad[9]) > 0.0);
}

TEST_CASE("mpc.cost mean: the gradient planner brings the point mass towards the target without overshoot") {
  const sg::Problem p = point_mass({}, {"mpc.cost=mean"});
  const sg::MpcResult r = sg::run_mpc(p, sg::mpc_settings(p));
  REQUIRE(r.status == "ok");
  // The running cost also prices the way there (the 0.1 v^2 term at every step): it brakes early and creeps
  // up to the target where the final cost overshoots it by 2 mm. Measured: x = 0.4909 at 2 s, 0.5 never
  // passed.
  for (std::size_t i = 0; i <= 200; ++i) CHECK(qpos_x(r, i) <= 0.5);
  CHECK(std::abs(qpos_x(r, 200) - 0.5) < 0.01);
  CHECK(r.success);
}

TEST_CASE("mpc.effort adds the knots' mean square to each plan's cost, and the gradient planner heeds it") {
  const std::vector<double> knots = {0.8, 0.5, -0.2, 0.1, -0.6, 0.3, 0.0, -0.4, 0.9, -1.0};
  double mean_square = 0.0;
  for (double u : knots) mean_square += u * u / 10.0;
  const auto plan_cost = [&](const char* effort) {
    const sg::Problem p = point_mass(knots, {"mpc.planner=sampling", "mpc.samples=1", "mpc.duration=5",
                                             std::string("mpc.effort=") + effort});
    return sg::run_mpc(p, sg::mpc_settings(p)).steps.at(0).cost;
  };
  CHECK(plan_cost("0.5") - plan_cost("0") == doctest::Approx(0.5 * mean_square).epsilon(1e-12));
  // The effort weight keeps the gradient planner's controls small; without it they reach the motor's limit of
  // 1 early on (measured over 60 steps, the largest control: 1 without, 0.84 at effort 0.1, 0.13 at 1, 0 at
  // 10, where no step towards the target pays for its effort).
  const auto largest_control = [](const char* effort) {
    const sg::Problem p = point_mass({}, {"mpc.duration=60", std::string("mpc.effort=") + effort});
    double largest = 0.0;
    for (const auto& u : sg::run_mpc(p, sg::mpc_settings(p)).ctrl)
      largest = std::max(largest, std::abs(u[0]));
    return largest;
  };
  CHECK(largest_control("0") == 1.0);
  CHECK(largest_control("1") < 0.5);
  CHECK(largest_control("10") < largest_control("1"));
}

TEST_CASE("mpc is deterministic given the seed, and the seed matters to sampling") {
  const std::vector<std::string> sets = {"mpc.planner=sampling", "mpc.samples=16", "mpc.duration=40",
                                         "mpc.noise=0.5"};
  const auto run = [&](const char* seed, int threads) {
    std::vector<std::string> s = sets;
    s.push_back(std::string("mpc.seed=") + seed);
    const sg::Problem p = point_mass({}, s);
    sg::MpcCallbacks cb;
    cb.threads = threads;
    return sg::run_mpc(p, sg::mpc_settings(p), cb);
  };
  const sg::MpcResult a = run("5", 1), b = run("5", 2), c = run("6", 2);
  CHECK(a.state == b.state);  // the samples are drawn before the runs are spread over threads
  CHECK(a.cost == b.cost);
  CHECK(a.state != c.state);
}

TEST_CASE(
    "the push task: gradient MPC with CFD pushes the box onto the target, without CFD the gradient is 0") {
  const sg::Problem with_cfd = load_scene(source_path("scenes/mpc_finger_push.json"));
  const sg::MpcResult a = sg::run_mpc(with_cfd, sg::mpc_settings(with_cfd));
  REQUIRE(a.status == "ok");
  // Measured: final cost 5.1e-5 (the box 7 mm from the target), from 1.0e-2.
  CHECK(a.cost.front() == doctest::Approx(0.01).epsilon(0.01));
  CHECK(a.final_cost < 1e-4);
  CHECK(a.success);
  // The first gradient is tiny but not 0: only CFD feels the box 8 cm away.
  CHECK(a.steps.front().grad_norm > 0.0);
  const sg::Problem no_cfd =
      load_scene(source_path("scenes/mpc_finger_push.json"), {"contact.cfd.enabled=false"});
  const sg::MpcResult b = sg::run_mpc(no_cfd, sg::mpc_settings(no_cfd));
  REQUIRE(b.status == "ok");
  for (const sg::PlanningStep& s : b.steps) CHECK(s.grad_norm_max == 0.0);
  CHECK(b.final_cost == a.cost.front());  // the box never moved
  CHECK_FALSE(b.success);
}

TEST_CASE("a diverging simulation ends mpc with a status naming the planning step, never a success") {
  // A gear of 1e300: the motor's force overflows in the first step of every rollout.
  const sg::Problem p =
      point_mass({}, {"model.tree.actuators.0.gear=1e300", "model.tree.actuators.0.ctrl=0.5"});
  for (const char* planner : {"gradient", "sampling"}) {
    CAPTURE(std::string(planner));
    sg::MpcSettings s = sg::mpc_settings(p);
    s.planner = std::string(planner) == "gradient" ? sg::Planner::gradient : sg::Planner::sampling;
    const sg::MpcResult r = sg::run_mpc(p, s);
    CHECK(r.status.find("planning step at output step 0") == 0);
    CHECK(r.steps.size() == 1);
    CHECK_FALSE(std::isfinite(r.steps[0].cost));
    CHECK_FALSE(r.success);
    CHECK(r.state.empty());
  }
}

TEST_CASE("mpc refuses what it cannot plan, naming the key") {
  const auto message = [](const sg::Problem& p) {
    try {
      sg::run_mpc(p, sg::mpc_settings(p));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(message(point_mass({}, {"mpc.execute=60"})).find("mpc.execute") == 0);
  // 2 actuators of 200 knots each: over the 256 knots a scene may have.
  CHECK(
      message(load_scene(source_path("scenes/mpc_finger_push.json"), {"mpc.knots=200"})).find("mpc.knots") ==
      0);
  write_mjcf("mpc_no_actuators", R"(<mujoco><worldbody><body><joint type="hinge"/>
    <geom type="sphere" size="0.1" mass="1"/></body></worldbody></mujoco>)");
  const sg::Problem bare = load_scene(
      write_scene("mpc_no_actuators", {{"model", {{"type", "mjcf"}, {"file", "mpc_no_actuators.xml"}}},
                                       {"sweep", {{"parameter", "model.gravity.2"}}}}));
  CHECK(message(bare).find("model.tree.actuators") == 0);
  const sg::Problem rigid = load_scene(source_path("scenes/toss_box_mjx.json"));
  CHECK(message(rigid).find("model.type") == 0);
}

TEST_CASE(
    "softgrad mpc: both planners from the command line, the JSON and SVG written, bad options refused") {
  const std::string scene = source_path("scenes/mpc_finger_push.json");
  const std::string out = sg::test::binary_dir() + "/mjcf_tests/mpc_cli.json";
  const std::string svg = sg::test::binary_dir() + "/mjcf_tests/mpc_cli.svg";
  std::remove(out.c_str());
  auto r =
      sg::test::run_softgrad("mpc " + scene + " --planner both --duration 40 --out " + out + " --svg " + svg);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = sg::test::read_json(out);
  REQUIRE(j["runs"].size() == 2);
  CHECK(j["runs"][0]["planner"] == "gradient");
  CHECK(j["runs"][1]["planner"] == "sampling");
  for (const auto& run : j["runs"]) {
    CHECK(run["status"] == "ok");
    CHECK(run["planning_steps"].size() == 4);
    CHECK(run["t"].size() == 41);
    CHECK(run["knots"].size() == 20);
  }
  CHECK(std::ifstream(svg).good());
  // Bad options: usage errors naming the option, nothing written.
  std::remove(out.c_str());
  for (const char* bad : {"--horizon 0", "--samples -1", "--iters 0", "--planner newton", "--steps 0"}) {
    r = sg::test::run_softgrad("mpc " + scene + " " + bad + " --out " + out);
    CAPTURE(bad);
    INFO(r.output);
    CHECK(r.exit_code != 0);
    const std::string option = std::string(bad).substr(0, std::string(bad).find(' '));
    CHECK(r.output.find(option) != std::string::npos);
    CHECK_FALSE(std::ifstream(out).good());
  }
  // Settings the scene cannot run: exit 2 naming the key.
  r = sg::test::run_softgrad("mpc " + scene + " --horizon 5 --steps 10 --out " + out);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("mpc.execute") != std::string::npos);
  CHECK_FALSE(std::ifstream(out).good());
  r = sg::test::run_softgrad("mpc " + scene + " --set mpc.lr=-1");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("mpc.lr") != std::string::npos);
}

TEST_CASE("the bat task: planned with forward CFD and acted without it, the gradient planner hits the ball") {
  // Measured: final cost 6.7e-3 (the ball rests 8 cm from the target) from 0.35, task threshold 1e-2; with
  // straight-through CFD (its gradient points away from the ball at a distance here) and without CFD the
  // ball is never hit and rolls to rest at cost 1.77.
  const sg::Problem forward = load_scene(source_path("scenes/mpc_bat.json"));
  const sg::MpcResult a = sg::run_mpc(forward, sg::mpc_settings(forward));
  REQUIRE(a.status == "ok");
  CHECK(a.success);
  CHECK(a.final_cost < 1e-2);
  const sg::Problem no_cfd = load_scene(source_path("scenes/mpc_bat.json"), {"contact.cfd.enabled=false"});
  const sg::MpcResult b = sg::run_mpc(no_cfd, sg::mpc_settings(no_cfd));
  REQUIRE(b.status == "ok");
  for (const sg::PlanningStep& s : b.steps) CHECK(s.grad_norm_max == 0.0);
  CHECK(b.final_cost > 1.0);
  CHECK_FALSE(b.success);
}

TEST_CASE("mpc.execute_cfd false: the executed motion is the model without CFD under the executed controls") {
  // 60 output steps of the bat task planned with forward CFD (the ball is hit around 0.3 s); then one run
  // of the scene without CFD whose control knots are the executed controls, one knot per output step.
  const std::vector<std::string> sets = {"mpc.duration=80", "mpc.iterations=5"};
  const sg::Problem p = load_scene(source_path("scenes/mpc_bat.json"), sets);
  const sg::MpcResult r = sg::run_mpc(p, sg::mpc_settings(p));
  REQUIRE(r.status == "ok");
  REQUIRE(r.ctrl.size() == 80);
  std::vector<std::string> replay = {"contact.cfd.enabled=false", "integrator.steps=80"};
  nlohmann::json actuators = nlohmann::json::array();
  for (int a = 0; a < 2; ++a) {
    std::vector<double> knots;
    for (const auto& u : r.ctrl) knots.push_back(u[a]);
    actuators.push_back({{"knots", knots}});
  }
  replay.push_back("control.actuators=" + actuators.dump());
  // (The knots are set again below from the doubles themselves, in case the text rounds them.)
  sg::Problem plain = load_scene(source_path("scenes/mpc_bat.json"), replay);
  for (int a = 0; a < 2; ++a)
    for (std::size_t i = 0; i < r.ctrl.size(); ++i)
      plain.data.tree.controls.knot[plain.data.tree.controls.first[a] + static_cast<int>(i)] = r.ctrl[i][a];
  sg::MpcSettings once = sg::mpc_settings(plain);
  once.planner = sg::Planner::sampling, once.samples = 1, once.horizon = 80, once.execute = 80;
  once.duration = 80;
  const sg::MpcResult open_loop = sg::run_mpc(plain, once);
  REQUIRE(open_loop.status == "ok");
  REQUIRE(open_loop.state.size() == r.state.size());
  // Restarts every 10 steps compose the ball's quaternion anew (set_tree_start): equal to rounding.
  double worst = 0.0;
  for (std::size_t i = 0; i < r.state.size(); ++i)
    for (std::size_t k = 0; k < r.state[i].size(); ++k)
      worst = std::max(worst, std::abs(r.state[i][k] - open_loop.state[i][k]));
  CHECK(worst < 1e-9);
  // And the ball was hit: it does not rest where the unhit ball does (y about 0.9).
  CHECK(r.state.back()[3] < 0.5);
}
