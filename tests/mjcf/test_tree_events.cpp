// Contact and joint-limit events of joint trees under the adaptive integrators (docs/engine.md, "Contact
// events", "Joint trees"): the frozen mode reproduces mj_forward where MuJoCo's rules hold, AD matches
// central FD over whole sweeps at Tsit5 1e-10 with a limit (crane_end_stop) and with floor strikes
// (pendulum_floor), and reverse mode, checkpointed through the contacts, equals forward mode.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/model/tree_mode.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/simulate/run.hpp"
#include "engine/sweep/sweep.hpp"
#include "mjcf/import.hpp"
#include "tests/engine/event_log.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// Tsit5 at rtol = atol = 1e-10, events on (the default), enough steps for the strikes.
const std::vector<std::string> kTsit5 = {"integrator.type=tsit5", "integrator.rtol=1e-10",
                                         "integrator.atol=1e-10", "integrator.max_steps=1000000"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

sg::Problem shipped(const std::string& name, const std::vector<std::string>& sets) {
  sg::mjcf::register_importer();
  sg::ProblemLoad loaded = sg::load_problem_file(sg::test::source_path("scenes/" + name), sets);
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  return *loaded.problem;
}

// The sweep's AD against its own central FD: the median relative difference, the worst one and how many
// points are off by more than 1%. Every point must have run.
struct Agreement {
  double median = 0.0, worst = 0.0;
  long off_1pct = 0;
  long events = 0;
};

Agreement agreement(const sg::SweepResult& r) {
  Agreement a;
  std::vector<double> rel;
  for (const sg::PointResult& pt : r.points) {
    CAPTURE(pt.value);
    REQUIRE(pt.status == "ok");
    const double e = std::fabs(pt.grad - pt.grad_fd) / std::max(std::fabs(pt.grad), std::fabs(pt.grad_fd));
    rel.push_back(e);
    a.worst = std::max(a.worst, e);
    a.off_1pct += e > 1e-2;
    a.events += pt.events;
  }
  std::sort(rel.begin(), rel.end());
  a.median = rel[rel.size() / 2];
  return a;
}

// A double system of the problem with its mode frozen at the state y (MuJoCo's rules there).
std::unique_ptr<sg::TreeSystem<double>> frozen_at(const sg::Problem& p, const double* y) {
  auto sys = std::make_unique<sg::TreeSystem<double>>(&p.data.tree, p.integrator.fixed_step());
  sys->set_frozen(true);
  sys->mode_from_state(y);
  return sys;
}

// One double run of the scene with its events.
sg::RunOutput<double> run_logged(const sg::Problem& p, sg::test::EventLog& log) {
  sg::SimWorkspace<double> ws;
  return sg::run_simulation(p.data, p.integrator, ws, log);
}

}  // namespace

TEST_CASE("a frozen mode taken from MuJoCo's rules gives mj_forward's accelerations there") {
  // Along Euler runs of the two scenes, at every 25th step: the mode's rows and active set are those
  // MuJoCo's rules give, so its single solve must reproduce Newton's search, up to the rounding of another
  // order of operations with stiff rows: measured 2.8e-12 relative to the largest |qacc| at worst
  // (pendulum_floor; the crane 3.9e-16). Tolerance 1e-10. Every margin is then non-negative (the state is
  // inside its mode; a row at rounding level could go a hair below): measured 1.1e-4 at the lowest.
  // Tolerance -1e-9.
  for (const std::string name : {"pendulum_floor.json", "crane_end_stop.json"}) {
    CAPTURE(name);
    const sg::Problem p = shipped(name, {"integrator.type=euler"});
    const sg::TreeSystem<double> plain(&p.data.tree, p.integrator.fixed_step());
    std::vector<double> y(plain.dim()), f0(plain.dim()), f1(plain.dim());
    plain.initial_state(y.data());
    long with_rows = 0;
    double worst = 0.0, lowest_margin = 1e300;
    for (long step = 0; step < p.integrator.steps; ++step) {
      plain.step_euler(y.data(), p.integrator.fixed_step());
      if (step % 25 != 0) continue;
      const auto frozen = frozen_at(p, y.data());
      plain.rhs(y.data(), f0.data());
      frozen->rhs(y.data(), f1.data());
      with_rows += frozen->mode().count > 0;
      double scale = 1e-3;
      for (double v : f0) scale = std::max(scale, std::fabs(v));
      for (std::size_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::fabs(f1[i] - f0[i]) / scale);
      lowest_margin = std::min(lowest_margin, frozen->margins().last);
      CHECK(frozen->margins().last >= -1e-9);
    }
    MESSAGE(name << ": " << with_rows << " states with rows, worst relative qacc difference " << worst
                 << ", lowest margin " << lowest_margin);
    CHECK(with_rows >= 3);
    CHECK(worst < 1e-10);
  }
}

TEST_CASE("the crane's end stop is a located event: the rail's limit onset where the trolley reaches it") {
  // At ctrl 0.6 the trolley runs into the upper stop (x = 1 m), rebounds and is pushed back by the motor to
  // stay there: every event is of the rail's upper limit (key: kTreeLimitKey, joint 0, side 1), measured
  // onset at 0.916 s, its row off at 0.960 s, release at 1.006 s, onset again at 1.117 s, each transversal.
  // At ctrl 0.1 it never gets there and nothing switches; with events off nothing is located.
  sg::test::EventLog at_stop, short_of_it, off;
  REQUIRE(
      run_logged(shipped("crane_end_stop.json", with(kTsit5, {"model.tree.actuators.0.ctrl=0.6"})), at_stop)
          .stats.status == sg::Status::ok);
  long onsets = 0, releases = 0;
  for (const sg::EventId& id : at_stop.ids) {
    CHECK(id.a == sg::kTreeLimitKey);
    CHECK(id.b == 0);
    CHECK(id.feature == 1);
    CHECK_FALSE(id.tangential);
    onsets += id.kind == sg::EventKind::onset;
    releases += id.kind == sg::EventKind::separation;
  }
  CHECK(onsets >= 1);
  CHECK(onsets == releases + 1);  // it ends at the stop
  REQUIRE(!at_stop.times.empty());
  CHECK(at_stop.times.front() > 0.5);
  REQUIRE(run_logged(shipped("crane_end_stop.json", with(kTsit5, {"model.tree.actuators.0.ctrl=0.1"})),
                     short_of_it)
              .stats.status == sg::Status::ok);
  CHECK(short_of_it.ids.empty());
  REQUIRE(run_logged(shipped("crane_end_stop.json",
                             with(kTsit5, {"model.tree.actuators.0.ctrl=0.6", "integrator.events=false"})),
                     off)
              .stats.status == sg::Status::ok);
  CHECK(off.ids.empty());
}

TEST_CASE("crane_end_stop at Tsit5 1e-10: AD matches central FD over the whole sweep through the end stops") {
  // The trolley reaches a stop (the rail's limit row appears at onset with MuJoCo's damping: the force
  // jumps, the saltation term carries it) at every |ctrl| above about 0.2. FD eps 1e-5. Measured over the
  // 37 points: median 1.5e-6, worst 5.2e-5, none off by 1%; without events median 0.33 (28 of 37 off by
  // 10%). Tolerances: median 1e-4, none off by 1%, worst 1e-3.
  const sg::Problem p = shipped("crane_end_stop.json", with(kTsit5, {"gradient.fd_eps=1e-5"}));
  const sg::SweepResult r = sg::run_sweep(p);
  REQUIRE(r.points.size() == 37);
  const Agreement a = agreement(r);
  MESSAGE("crane_end_stop: median " << a.median << ", worst " << a.worst << ", " << a.off_1pct
                                    << " off by 1%, " << a.events << " events");
  CHECK(a.events >= 20);
  CHECK(a.median < 1e-4);
  CHECK(a.worst < 1e-3);
  CHECK(a.off_1pct == 0);
}

TEST_CASE("pendulum_floor at Tsit5 1e-10: AD matches central FD over the whole sweep through the strikes") {
  // The ball strikes the floor, bounces and skids at every start velocity (onsets, separations, Newton
  // row switches: about 10 events a run). FD eps 1e-5 (at 1e-7 the solve's own error, about 1e-10 in the
  // loss, is 1e-3 of the gradient). Measured over the 101 points: median 2.3e-5, worst 4.8e-3, none off by
  // 1%; against FD at rtol 1e-12 median 4.8e-6, worst 1.8e-4. Without events median 0.43 (91 of 101 off by
  // 10%). Tolerances: median 1e-4, none off by 1%.
  const sg::Problem p = shipped("pendulum_floor.json", with(kTsit5, {"gradient.fd_eps=1e-5"}));
  const sg::SweepResult r = sg::run_sweep(p);
  REQUIRE(r.points.size() == 101);
  const Agreement a = agreement(r);
  MESSAGE("pendulum_floor: median " << a.median << ", worst " << a.worst << ", " << a.off_1pct
                                    << " off by 1%, " << a.events << " events");
  CHECK(a.events >= 500);
  CHECK(a.median < 1e-4);
  CHECK(a.off_1pct == 0);
}

TEST_CASE("reverse mode through tree contacts equals forward mode, and checkpoints restore the mode") {
  // pendulum_floor at 2 rad/s, Tsit5 1e-10 with events: two bounces, an onset and Newton row switches (8
  // events). Reverse mode replays segments from checkpoints of a double run, each restoring the mode of
  // rows and active set (TreeMemo); a wrong mode would replay another trajectory (status invalid) or another
  // gradient. Measured: checkpointed (1 and 7 steps a segment) against the whole tape to 1.5e-12 relative,
  // reverse against forward to 6.6e-13. Tolerances 1e-10 and 1e-9 (relative to at least 1e-3).
  const sg::Problem p = shipped("pendulum_floor.json", with(kTsit5, {"model.tree.bodies.0.joints.0.qvel=2"}));
  const std::vector<std::string> paths = {
      "model.tree.bodies.0.joints.0.qvel", "model.tree.world_geoms.0.solref.0",
      "model.tree.bodies.2.geoms.0.size.0", "model.tree.bodies.1.joints.0.damping",
      "model.tree.world_geoms.0.pos.2"};
  sg::ParameterGradient g(p, paths, nullptr);
  const std::vector<double> x = g.initial_values();
  const sg::ObjectiveGradient fwd = g.forward(x);
  g.set_checkpoint_steps(0);
  const sg::ObjectiveGradient whole = g.reverse(x);
  REQUIRE(fwd.status == "ok");
  REQUIRE(whole.status == "ok");
  CHECK(fwd.stats.events >= 6);
  double worst_pieces = 0.0, worst_forward = 0.0;
  for (long k : {1L, 7L}) {
    CAPTURE(k);
    g.set_checkpoint_steps(k);
    const sg::ObjectiveGradient pieces = g.reverse(x);
    REQUIRE(pieces.status == "ok");
    CHECK(g.segments() > 10);
    CHECK(pieces.loss == whole.loss);
    CHECK(pieces.stats.events == whole.stats.events);
    for (std::size_t j = 0; j < paths.size(); ++j) {
      CAPTURE(paths[j]);
      const double scale = std::max(std::fabs(fwd.grad[j]), 1e-3);
      CHECK(std::fabs(fwd.grad[j]) > 1e-2);  // each parameter moves the strikes
      worst_pieces = std::max(worst_pieces, std::fabs(pieces.grad[j] - whole.grad[j]) / scale);
      worst_forward = std::max(worst_forward, std::fabs(pieces.grad[j] - fwd.grad[j]) / scale);
      CHECK(std::fabs(pieces.grad[j] - whole.grad[j]) <= 1e-10 * scale);
      CHECK(std::fabs(pieces.grad[j] - fwd.grad[j]) <= 1e-9 * scale);
    }
  }
  MESSAGE("pendulum_floor reverse: " << fwd.stats.events << " events, checkpointed vs whole tape "
                                     << worst_pieces << ", vs forward " << worst_forward);
}

TEST_CASE("reverse mode equals forward mode through the crane's end stop") {
  // The trolley hits the stop at ctrl 0.6 (4 events: the limit's onset and rows); the control, the rail's
  // damping and the swing's start velocity move the onset. Measured to 4.4e-15 relative; tolerance 1e-9.
  const sg::Problem p = shipped("crane_end_stop.json", with(kTsit5, {"model.tree.actuators.0.ctrl=0.6"}));
  const std::vector<std::string> paths = {"model.tree.actuators.0.ctrl",
                                          "model.tree.bodies.0.joints.0.damping",
                                          "model.tree.bodies.1.joints.0.qvel"};
  sg::test::check_reverse_equals_forward("crane_end_stop", p, paths, 2, true);
}

TEST_CASE(
    "cart_pole's control sequence drives the cart into its end stops: AD matches FD, reverse equals "
    "forward") {
  // The knots change the motor's control at output times (the solver re-evaluates f there and settles the
  // mode) and the larger first knots drive the cart into a stop. FD eps 1e-5. Measured over the 77 points:
  // median 6.4e-11, worst 4.5e-4, none off by 1%; without events 17 off by 1% (worst 1.2). At knot 0 = 0.8
  // (3 events) reverse mode equals forward mode for all eight knots to 1.9e-14 (measured). Tolerances:
  // none off by 1%, worst 1e-2; reverse 1e-9 relative.
  const sg::Problem p = shipped("cart_pole.json", with(kTsit5, {"gradient.fd_eps=1e-5"}));
  const sg::SweepResult r = sg::run_sweep(p);
  REQUIRE(r.points.size() == 77);
  const Agreement a = agreement(r);
  MESSAGE("cart_pole: median " << a.median << ", worst " << a.worst << ", " << a.off_1pct << " off by 1%, "
                               << a.events << " events");
  CHECK(a.events >= 10);
  CHECK(a.worst < 1e-2);
  CHECK(a.off_1pct == 0);

  const sg::Problem at = shipped("cart_pole.json", with(kTsit5, {"control.actuators.0.knots.0=0.8"}));
  std::vector<std::string> knots;
  for (int k = 0; k < 8; ++k) knots.push_back("control.actuators.0.knots." + std::to_string(k));
  sg::test::check_reverse_equals_forward("cart_pole", at, knots, 1, false);
}
