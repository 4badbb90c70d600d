// The grazing (Filippov sliding) mode of joint trees' contacts (docs/engine.md, "Joint trees", "Grazing"):
// a box pushed by the finger slides on MuJoCo's pyramidal friction, which lifts a corner off the floor at
// r = 0- while gravity pulls it back at r = 0+. Without the mode Tsit5 at 1e-10 resolved every one of the
// corner's 1e-10 m hops and ran out of its step budget; with it the corner slides at r = 0, and AD matches
// central FD over the gentle pushes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/simulate/run.hpp"
#include "engine/sweep/sweep.hpp"
#include "tests/engine/event_log.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// The finger's plain model (no CFD) at Tsit5 1e-10 with events, the shoulder's target at `ctrl`.
sg::Problem finger_tsit5(double ctrl, const std::vector<std::string>& more = {}) {
  std::vector<std::string> sets = {
      "contact.cfd.enabled=false",    "integrator.type=tsit5",
      "integrator.rtol=1e-10",        "integrator.atol=1e-10",
      "integrator.max_steps=1000000", "model.tree.actuators.0.ctrl=" + std::to_string(ctrl)};
  sets.insert(sets.end(), more.begin(), more.end());
  return sg::test::load_scene(sg::test::source_path("scenes/finger_push.json"), sets);
}

long count_kind(const sg::test::EventLog& log, sg::EventKind kind) {
  return std::count_if(log.ids.begin(), log.ids.end(),
                       [&](const sg::EventId& id) { return id.kind == kind; });
}

}  // namespace

TEST_CASE("a sliding box's corner grazes instead of hopping: Tsit5 at 1e-10 pushes the box in 2,000 steps") {
  // Measured at 0.675 rad: 1,579 accepted steps, 139 rejected, 324 events, 2 of them grazes; before the
  // mode the run exhausted 200,000 attempts by t = 0.58 s, rejecting three in four. The loss is MuJoCo's
  // Euler at 5 ms within 2.1% (0.008698 against 0.008518: the two integrate the same contacts differently).
  // Tolerances: ok within 20,000 attempts, at least one graze, rejections below a quarter of the steps.
  const sg::Problem p = finger_tsit5(0.675, {"integrator.max_steps=20000"});
  sg::test::EventLog log;
  sg::SimWorkspace<double> ws;
  const sg::RunOutput<double> run = sg::run_simulation(p.data, p.integrator, ws, log);
  REQUIRE(run.stats.status == sg::Status::ok);
  MESSAGE("finger at 0.675: " << run.stats.accepted << " accepted, " << run.stats.rejected << " rejected, "
                              << run.stats.events << " events, " << count_kind(log, sg::EventKind::graze)
                              << " grazes, loss " << run.loss);
  CHECK(count_kind(log, sg::EventKind::graze) >= 1);
  CHECK(run.stats.rejected < run.stats.accepted / 4);
  const sg::Problem euler =
      sg::test::load_scene(sg::test::source_path("scenes/finger_push.json"),
                           {"contact.cfd.enabled=false", "model.tree.actuators.0.ctrl=0.675"});
  sg::SimWorkspace<double> ws_euler;
  sg::NullObserver none;
  const sg::RunOutput<double> mj = sg::run_simulation(euler.data, euler.integrator, ws_euler, none);
  REQUIRE(mj.stats.status == sg::Status::ok);
  CHECK(std::fabs(run.loss - mj.loss) < 0.05 * mj.loss);
}

TEST_CASE("through the grazing corner AD matches central FD over the finger's gentle pushes") {
  // 16 targets from 0.55 rad (the first touch) to 0.70 rad at Tsit5 1e-10, FD eps of the scene. Measured:
  // median 1.6e-5, worst 1.2e-2, 2 points off by 1% (near 0.67 rad, where a resolved hop lands within the FD
  // step). Beyond about 0.72 rad the box slides fast enough that the pyramidal cone throws its corners off
  // the floor in resolved hops of 1e-9 to 1e-5 m and the loss itself varies by 1% within 1e-5 rad: not this
  // test's subject. Tolerances: median 1e-4, at most 2 points off by 1%.
  sg::Problem p = finger_tsit5(0.55, {"sweep.from=0.55", "sweep.to=0.70", "sweep.points=16"});
  const sg::SweepResult r = sg::run_sweep(p);
  std::vector<double> rel;
  long off = 0;
  for (const sg::PointResult& pt : r.points) {
    CAPTURE(pt.value);
    REQUIRE(pt.status == "ok");
    const double e = std::fabs(pt.grad - pt.grad_fd) / std::max(std::fabs(pt.grad), std::fabs(pt.grad_fd));
    rel.push_back(e);
    off += e > 1e-2;
  }
  std::sort(rel.begin(), rel.end());
  MESSAGE("finger 0.55-0.70: median " << rel[rel.size() / 2] << ", worst " << rel.back() << ", " << off
                                      << " off by 1%");
  CHECK(rel[rel.size() / 2] < 1e-4);
  CHECK(off <= 2);
}

TEST_CASE("reverse mode through a grazing contact equals forward mode") {
  // The checkpoints carry the grazing level in the mode (TreeMemo), so the replayed segments combine the
  // same fields. Measured at 0.675 rad: see the message. Tolerance 1e-9 relative.
  const sg::Problem p = finger_tsit5(0.675);
  const std::vector<std::string> paths = {"model.tree.actuators.0.ctrl", "model.tree.actuators.1.ctrl"};
  sg::ParameterGradient g(p, paths, nullptr);
  const std::vector<double> x = g.initial_values();
  const sg::ObjectiveGradient fwd = g.forward(x);
  const sg::ObjectiveGradient rev = g.reverse(x);
  REQUIRE(fwd.status == "ok");
  REQUIRE(rev.status == "ok");
  CHECK(rev.loss == fwd.loss);
  for (std::size_t j = 0; j < paths.size(); ++j) {
    CAPTURE(paths[j]);
    MESSAGE(paths[j] << ": forward " << fwd.grad[j] << ", reverse relative to it "
                     << std::fabs(rev.grad[j] - fwd.grad[j]) / std::fabs(fwd.grad[j]));
    CHECK(std::fabs(fwd.grad[j]) > 1e-4);
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-9 * std::fabs(fwd.grad[j]));
  }
}
