// Joint trees (model.type "tree") through the integrators: the shipped pendulum chain runs, conserves
// energy without damping, and its forward-mode gradient matches finite differences over its whole sweep.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/simulate/run.hpp"
#include "engine/sweep/device_problem.hpp"
#include "engine/sweep/sweep.hpp"
#include "tests/engine/scene_helpers.hpp"

namespace sg {
namespace {

// Kinetic plus potential energy, body by body from the centre-of-mass velocities and world inertias (not
// from qM): 1/2 m |v_c|^2 + 1/2 w' R I R' w - m g.x_c.
double tree_energy(const Problem& p, const double* y) {
  const TreeSystem<double> sys(&p.data.tree, p.integrator.dt);
  sys.coordinate(y, 1, 0, 0);  // kinematics and velocities of every body
  const TreeData<double>& d = sys.data();
  const TreeModel<double>& m = sys.tree();
  double e = 0.0;
  for (int b = 1; b < m.nbody; ++b) {
    const Vec3<double> w = d.cvel[b].rot;
    const Vec3<double> vc = d.cvel[b].tran + cross(w, d.xipos[b] - d.subtree_com[m.body[b].root]);
    double rot = 0.0;
    for (int k = 0; k < 3; ++k) {
      const Vec3<double> axis{d.ximat[b](0, k), d.ximat[b](1, k), d.ximat[b](2, k)};
      const double wk = dot(w, axis);
      rot += m.body[b].inertia[k] * wk * wk;
    }
    e += 0.5 * m.body[b].mass * dot(vc, vc) + 0.5 * rot - m.body[b].mass * dot(m.gravity, d.xipos[b]);
  }
  return e;
}

double run_energy(const Problem& p, double* energy0) {
  SimWorkspace<double> ws;
  NullObserver obs;
  const TreeSystem<double> sys(&p.data.tree, p.integrator.dt);
  double y0[JointTreeModel<double>::kMaxDim];
  sys.initial_state(y0);
  *energy0 = tree_energy(p, y0);
  const RunOutput<double> out = run_simulation(p.data, p.integrator, ws, obs);
  REQUIRE(out.stats.status == Status::ok);
  return tree_energy(p, ws.y);
}

std::vector<std::string> undamped(std::vector<std::string> sets) {
  for (int b = 0; b < 3; ++b)
    sets.push_back("model.tree.bodies." + std::to_string(b) + ".joints.0.damping=0");
  return sets;
}

}  // namespace

TEST_CASE("the shipped pendulum chain simulates to a finite loss with a finite gradient") {
  const Problem p = test::shipped("pendulum_chain.json");
  REQUIRE(p.data.type == ModelType::tree);
  CHECK(p.data.tree.bodies() == 4);
  CHECK(p.data.tree.tree.nv == 3);
  PointEvaluator eval(p);
  const LossSample s = eval.loss_and_grad(0.7);
  CHECK(s.stats.status == Status::ok);
  CHECK(std::isfinite(s.loss));
  CHECK(std::isfinite(s.grad));
  // The GPU path has no tree system: it refuses the scene with a reason.
  CHECK(device_path_refusal(p) == "joint trees (model.type tree) run on the CPU only (use --device cpu)");
}

TEST_CASE("an undamped pendulum chain conserves energy over 10 s at a tight adaptive tolerance") {
  // Tsit5 at rtol = atol = 1e-12 over 10 s of chaotic motion (start 1.2 rad): the energy is a check the
  // integrator does not know about. Measured relative drift 1.2e-12 of 42 J; tolerance 1e-9.
  const Problem p = test::shipped(
      "pendulum_chain.json",
      undamped({"integrator.type=tsit5", "integrator.rtol=1e-12", "integrator.atol=1e-12",
                "integrator.steps=1000", "integrator.max_steps=1000000",
                "model.tree.bodies.0.joints.0.qpos=1.2", "model.tree.bodies.1.joints.0.qvel=3"}));
  double e0 = 0.0;
  const double e1 = run_energy(p, &e0);
  MESSAGE("energy " << e0 << " J, relative drift " << (e1 - e0) / std::fabs(e0));
  CHECK(std::fabs(e1 - e0) < 1e-9 * std::fabs(e0));
  // With the damping back the chain loses energy.
  const Problem damped = test::shipped("pendulum_chain.json",
                                       {"integrator.steps=1000", "model.tree.bodies.0.joints.0.qpos=1.2"});
  double d0 = 0.0;
  const double d1 = run_energy(damped, &d0);
  CHECK(d1 < d0 - 1.0);
}

TEST_CASE("a ball joint conserves energy through the rotation-vector fold") {
  // A spherical pendulum: a ball joint at the top of a 1 kg rod, started tilted and spinning. The quaternion
  // is folded after every step; Tsit5 at 1e-12 over 5 s: measured relative drift 8.6e-13; tolerance 1e-9.
  const nlohmann::json scene = nlohmann::json::parse(R"({
    "model": {"type": "tree", "tree": {"bodies": [
      {"parent": -1, "pos": [0, 0, 1], "mass": 1, "inertia": [0.03, 0.03, 0.002], "ipos": [0, 0, -0.3],
       "joints": [{"type": "ball", "ball_qpos": [0.9, 0.3, 0.2, 0.0], "ball_qvel": [0.5, -1, 4]}]}]}},
    "contact": {"model": "none"},
    "integrator": {"type": "tsit5", "dt": 0.01, "steps": 500, "rtol": 1e-12, "atol": 1e-12,
                   "max_steps": 1000000},
    "loss": {"terms": [{"body": 0, "axis": "x"}]}})");
  const Problem p = test::from_json(scene);
  double e0 = 0.0;
  const double e1 = run_energy(p, &e0);
  MESSAGE("energy " << e0 << " J, relative drift " << (e1 - e0) / std::fabs(e0));
  CHECK(std::fabs(e1 - e0) < 1e-9 * std::fabs(e0));
}

TEST_CASE("forward-mode AD matches central finite differences at every point of the shipped sweep") {
  // RK4 at a fixed step: the discrete map is smooth, so central FD (eps 1e-6 rad) of the same simulation
  // agrees with AD up to its truncation and rounding error: measured 9.3e-10 at worst. Tolerance: 1e-6
  // relative to max(|g|, 1).
  const Problem p = test::shipped("pendulum_chain.json");
  const SweepResult r = run_sweep(p);
  REQUIRE(r.points.size() == 100);
  double worst = 0.0;
  for (const PointResult& pt : r.points) {
    CAPTURE(pt.value);
    REQUIRE(pt.status == "ok");
    const double err = std::fabs(pt.grad - pt.grad_fd) / std::max(1.0, std::fabs(pt.grad));
    worst = std::max(worst, err);
    CHECK(err < 1e-6);
  }
  MESSAGE("worst relative AD-FD difference over the sweep: " << worst);
}

TEST_CASE("reverse mode and backsolve give forward mode's gradient through a spinning ball joint") {
  // The chain's last hinge made a ball, spinning, without damping (backsolve retraces an undamped run), Tsit5
  // at 1e-10 over 0.5 s. Reverse mode differentiates the same discrete run as forward mode: measured 3e-14,
  // tolerance 1e-10 (relative to max(|g|, 1e-3)). Backsolve integrates the adjoint backwards through the
  // rotation vector's fold (fold_adjoint): measured 5e-10, tolerance 1e-6.
  const Problem p =
      test::shipped("pendulum_chain.json",
                    undamped({"model.tree.bodies.2.joints.0.type=ball",
                              "model.tree.bodies.2.joints.0.ball_qvel=[0.5,1,2]", "integrator.type=tsit5",
                              "integrator.rtol=1e-10", "integrator.atol=1e-10", "integrator.steps=50"}));
  ParameterGradient g(p,
                      {"model.tree.bodies.0.joints.0.qpos", "model.tree.bodies.2.joints.0.ball_qvel.0",
                       "model.tree.bodies.2.joints.0.ball_qvel.2", "model.tree.bodies.2.mass"},
                      nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x), back = g.backsolve(x);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  REQUIRE(back.status == "ok");
  double worst_rev = 0.0, worst_back = 0.0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    CAPTURE(g.paths()[j]);
    const double scale = std::max(std::fabs(fwd.grad[j]), 1e-3);
    worst_rev = std::max(worst_rev, std::fabs(rev.grad[j] - fwd.grad[j]) / scale);
    worst_back = std::max(worst_back, std::fabs(back.grad[j] - fwd.grad[j]) / scale);
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-10 * scale);
    CHECK(std::fabs(back.grad[j] - fwd.grad[j]) <= 1e-6 * scale);
  }
  MESSAGE("reverse vs forward: " << worst_rev << ", backsolve vs forward: " << worst_back
                                 << " (relative to max(|g|, 1e-3))");
}

// A cart on a slide with a pole on a hinge: a geared motor pushes the cart (ctrl swept), a position servo
// holds the pole, a velocity servo damps the cart; the loss is the pole tip's x after 1 s.
nlohmann::json actuated_cart_pole() {
  return nlohmann::json::parse(R"({
    "model": {"type": "tree", "gravity": [0, 0, -9.81], "tree": {
      "bodies": [
        {"parent": -1, "pos": [0, 0, 1], "mass": 1, "inertia": [0.01, 0.01, 0.01],
         "joints": [{"type": "slide", "axis": [1, 0, 0], "damping": 0.2}]},
        {"parent": 0, "mass": 0.2, "ipos": [0, 0, 0.3], "inertia": [0.006, 0.006, 0.0001],
         "joints": [{"type": "hinge", "axis": [0, 1, 0], "qpos": 0.3}]},
        {"parent": 1, "pos": [0, 0, 0.6], "mass": 0.05, "inertia": [1e-4, 1e-4, 1e-4], "joints": []}],
      "actuators": [
        {"body": 0, "joint": 0, "kind": "motor", "gear": 2, "ctrl": 0.5},
        {"body": 1, "joint": 0, "kind": "position", "kp": 3, "ctrl": 0.1},
        {"body": 0, "joint": 0, "kind": "velocity", "kv": 0.4}]}},
    "contact": {"model": "none"},
    "integrator": {"type": "rk4", "dt": 0.01, "steps": 100},
    "loss": {"terms": [{"body": 2, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.actuators.0.ctrl", "from": -1, "to": 1, "points": 21}})");
}

TEST_CASE("forward-mode AD w.r.t. a motor's control matches central finite differences over a sweep") {
  // RK4 at a fixed step is smooth in ctrl (no clamps active), so central FD agrees with AD to truncation
  // and rounding: measured in the MESSAGE below; tolerance 1e-6 relative to max(|g|, 1).
  const Problem p = test::from_json(actuated_cart_pole());
  const SweepResult r = run_sweep(p);
  REQUIRE(r.points.size() == 21);
  double worst = 0.0, lo = 1e300, hi = -1e300;
  for (const PointResult& pt : r.points) {
    CAPTURE(pt.value);
    REQUIRE(pt.status == "ok");
    const double err = std::fabs(pt.grad - pt.grad_fd) / std::max(1.0, std::fabs(pt.grad));
    worst = std::max(worst, err);
    lo = std::min(lo, pt.loss), hi = std::max(hi, pt.loss);
    CHECK(err < 1e-6);
  }
  CHECK(hi - lo > 0.1);  // the control moves the tip
  MESSAGE("worst relative AD-FD difference over the ctrl sweep: " << worst << "; loss " << lo << " to "
                                                                  << hi);
}

TEST_CASE("reverse mode gives forward mode's gradient w.r.t. controls and gears") {
  const Problem p = test::from_json(actuated_cart_pole());
  ParameterGradient g(p,
                      {"model.tree.actuators.0.ctrl", "model.tree.actuators.1.ctrl",
                       "model.tree.actuators.0.gear", "model.tree.actuators.2.gear"},
                      nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  double worst = 0.0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    CAPTURE(g.paths()[j]);
    const double scale = std::max(std::fabs(fwd.grad[j]), 1e-3);
    CHECK(std::fabs(fwd.grad[j]) > 1e-4);
    worst = std::max(worst, std::fabs(rev.grad[j] - fwd.grad[j]) / scale);
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-10 * scale);
  }
  MESSAGE("reverse vs forward (controls, gears): " << worst);
}

TEST_CASE("a free joint starts as MuJoCo's: linear velocity in the world frame, angular in the body's") {
  // One free body turned 90 degrees about z, isotropic inertia and its centre of mass at the origin, no
  // gravity: free_vel (1, 2, 0) moves the origin along world (1, 2, 0); ball_qvel (0.5, 0, 0) about the
  // body's x axis is world (0, 0.5, 0), and stays so (torque free). RK4 over 1 s: exact up to round-off for
  // the straight line (tolerance 1e-12).
  const Problem p = test::from_json(nlohmann::json::parse(R"({
    "model": {"type": "tree", "gravity": [0, 0, 0], "tree": {"bodies": [
      {"parent": -1, "pos": [0.1, 0.2, 0.3], "quat": [0.7071067811865476, 0, 0, 0.7071067811865476],
       "inertia": [0.01, 0.01, 0.01],
       "joints": [{"type": "free", "free_vel": [1, 2, 0], "ball_qvel": [0.5, 0, 0]}]}]}},
    "contact": {"model": "none"},
    "integrator": {"type": "rk4", "dt": 0.01, "steps": 100},
    "loss": {"terms": [{"body": 0, "axis": "x"}]}})"));
  const TreeSystem<double> sys(&p.data.tree, p.integrator.dt);
  double y0[JointTreeModel<double>::kMaxDim];
  sys.initial_state(y0);
  sys.coordinate(y0, 1, 0, 0);
  const Vec3<double> w = sys.angular_velocity(1);
  CHECK(std::fabs(w.x) < 1e-15);
  CHECK(w.y == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(std::fabs(w.z) < 1e-15);
  CHECK(sys.coordinate(y0, 1, 0, 1) == doctest::Approx(2.0).epsilon(1e-15));
  SimWorkspace<double> ws;
  NullObserver obs;
  REQUIRE(run_simulation(p.data, p.integrator, ws, obs).stats.status == Status::ok);
  CHECK(std::fabs(sys.coordinate(ws.y, 0, 0, 0) - 1.1) < 1e-12);
  CHECK(std::fabs(sys.coordinate(ws.y, 0, 0, 1) - 2.2) < 1e-12);
  CHECK(std::fabs(sys.coordinate(ws.y, 0, 0, 2) - 0.3) < 1e-12);
  sys.coordinate(ws.y, 1, 0, 0);
  CHECK(sys.angular_velocity(1).y == doctest::Approx(0.5).epsilon(1e-12));
}

}  // namespace sg
