// The MPC tab: the planners run on a worker, publish each planning step, finish with the executed motion the
// 3-D view plays, cancel on Esc's cancel(), and refuse a scene without actuators.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "gui/app/headless_runner.hpp"
#include "gui/app/workbench_app.hpp"
#include "headless_test_util.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

using namespace sg::gui;
using namespace sg::gui::test;
using namespace std::chrono_literals;

TEST_CASE("MPC tab: gradient MPC with and without CFD on the push task, its motion played in the 3-D view") {
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();
  auto app = make_scene_app("mpc_finger_push.json", {"sweep.points=5"});
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 720);
  run_frames(*runner, 1);
  REQUIRE(app->wait_until_idle(60s));
  app->run_mpc({{"gradient, CFD on", sg::Planner::gradient, true},
                {"gradient, CFD off", sg::Planner::gradient, false}});
  app->show_mpc_tab();
  REQUIRE(app->wait_until_idle(120s));
  run_frames(*runner, 2);
  const MpcSnapshot& s = app->mpc();
  REQUIRE(s.phase == SweepPhase::finished);
  CHECK(s.error.empty());
  REQUIRE(s.results.size() == 2);
  // As `softgrad mpc` and tests/mjcf/test_mpc.cpp: solved with CFD, a zero gradient and no motion without.
  CHECK(s.results[0].success);
  CHECK_FALSE(s.results[1].success);
  for (const sg::PlanningStep& step : s.results[1].steps) CHECK(step.grad_norm_max == 0.0);
  CHECK(app->mpc_panel().figure().plots.size() == 4);
  // The executed motion as a trajectory: the box (scene body 2, a free joint at qpos 2..4) where the run's
  // states put it, at every output time.
  REQUIRE(s.motions.size() == 2);
  REQUIRE(s.motions[0] != nullptr);
  const sg::Trajectory& motion = *s.motions[0];
  REQUIRE(motion.t.size() == s.results[0].state.size());
  for (std::size_t i = 0; i < motion.t.size(); i += 30)
    for (int k = 0; k < 3; ++k)
      CHECK(motion.q[i][2 * 7 + k] == doctest::Approx(s.results[0].state[i][2 + k]).epsilon(1e-12));
  app->play_motion(s.motions[0]);
  run_frames(*runner, 2);
  REQUIRE(app->trajectory() == s.motions[0]);
  CHECK(app->player().frame_count() == static_cast<int>(motion.t.size()));
  CHECK(app->trajectory()->title.find("MPC, gradient, CFD on") == 0);
  // Esc's cancel() stops a run between planning steps: one of 300 planning steps (about 4 s of work).
  REQUIRE(app->set_path("mpc.duration", 3000));
  app->run_mpc({{"sampling", sg::Planner::sampling, std::nullopt}});
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  app->update(0.0f);
  while ((app->mpc().results.empty() || app->mpc().results[0].steps.empty()) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(2ms);
    app->update(0.0f);
  }
  app->cancel();
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->mpc().phase == SweepPhase::cancelled);
  CHECK(app->mpc().results.at(0).steps.size() < 300);
  CHECK(app->message() == "MPC: cancelled");
  run_frames(*runner, 1);
#else
  MESSAGE("skipped: this build has no MJCF import (libmujoco)");
#endif
}

TEST_CASE("MPC tab: a scene without a joint tree is refused with the reason, nothing runs") {
  auto app = make_scene_app("toy_point_mass.json", {"sweep.points=5"});
  REQUIRE(app->wait_until_idle(60s));
  CHECK_FALSE(mpc_unavailable(*app->document().problem()).empty());
  app->run_mpc({{"gradient", sg::Planner::gradient, std::nullopt}});
  CHECK_FALSE(app->mpc_panel().figure().plots.size() > 0);
  CHECK(app->message().find("MPC: MPC plans the actuators of a joint tree") == 0);
  CHECK(app->mpc().phase == SweepPhase::idle);
}
