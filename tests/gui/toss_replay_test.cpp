// The Identify tab's measured tosses: a ContactNets toss replayed from its first measured frame with the live
// scene, checked against the fits' own rollout code (TossObjective), played in the 3-D view with the measured
// cube beside it; bad files, tosses and scenes are refused with the reason and leave the view as it was.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine/measured/toss_data.hpp"
#include "engine/optimize/toss_segments.hpp"
#include "engine/problem/load_problem.hpp"
#include "gui/app/app_shell.hpp"
#include "headless_test_util.hpp"

using namespace sg::gui;
using namespace sg::gui::test;
using namespace std::chrono_literals;

namespace {

const std::string kTosses = sg::test::source_dir() + "/../shared/data/contactnets/tosses.csv";

bool data_missing() {
  if (std::filesystem::exists(kTosses)) return false;
  std::printf("SOFTGRAD_TEST_SKIPPED: %s is missing (../shared/data/contactnets)\n", kTosses.c_str());
  return true;
}

// After the scene's own sweep and trajectory (whose arrival would replace the replay in the view).
void replay(WorkbenchApp& app, const std::string& file, int toss) {
  REQUIRE(app.wait_until_idle(60s));
  app.replay_toss(file, toss);
  REQUIRE(app.wait_until_idle(60s));
  app.update(0.0f);
}

}  // namespace

TEST_CASE("a measured toss replays from its first frame, as the fits' rollouts run it (1e-9 m)") {
  if (data_missing()) return;
  auto app = make_scene_app("contactnets_cube.json", {});
  replay(*app, kTosses, 3);
  const TossReplay& r = app->toss_replay();
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  REQUIRE(r.simulated != nullptr);
  REQUIRE(r.simulated->q.size() == r.measured.size());
  REQUIRE(r.t.size() == r.measured.size());
  // The run starts at the measured frame.
  for (int k = 0; k < 3; ++k) CHECK(r.simulated->q[0][k] == doctest::Approx(r.measured[0][k]).epsilon(1e-12));
  // The fits' code (TossObjective, the whole toss as one segment) predicts the same centres: its residuals
  // are the predicted minus the measured states.
  sg::TossSet set;
  std::string error;
  REQUIRE(sg::read_tosses(kTosses, &set, &error));
  sg::ProblemLoad load = sg::load_problem_file(sg::test::source_dir() + "/scenes/contactnets_cube.json");
  REQUIRE(load.ok());
  // One fitted number at the scene's own value (an objective needs one): the scene as it is.
  sg::TossObjective whole(*load.problem, set, {3}, 0,
                          sg::fit_numbers(*load.problem, {"model.bodies.0.mass"}));
  const sg::ResidualJacobian rj = whole.residuals(whole.initial_values());
  REQUIRE(rj.status == "ok");
  REQUIRE(rj.r.size() == 12 * (r.measured.size() - 1));
  double worst = 0.0, sum = 0.0;
  for (std::size_t i = 1; i < r.measured.size(); ++i) {
    double d2 = 0.0;
    for (std::size_t k = 0; k < 3; ++k) {
      const double predicted = r.measured[i][k] + rj.r[12 * (i - 1) + k];
      worst = std::max(worst, std::fabs(predicted - r.simulated->q[i][k]));
      d2 += rj.r[12 * (i - 1) + k] * rj.r[12 * (i - 1) + k];
    }
    sum += std::sqrt(d2);
  }
  CHECK(worst < 1e-9);
  CHECK(r.mean_position_error ==
        doctest::Approx(sum / static_cast<double>(r.measured.size() - 1)).epsilon(1e-9));
  MESSAGE("toss 3: " << r.measured.size() << " frames, mean centre distance " << 1e3 * r.mean_position_error
                     << " mm, largest difference to TossObjective " << worst << " m");
  // The figure: measured against simulated, and the simulation is what the 3-D view plays.
  CHECK(r.figure.plots.size() >= 2);
  CHECK(app->trajectory() == r.simulated);
  CHECK(app->message().find("toss 3 replayed") != std::string::npos);
}

TEST_CASE("the 3-D view shows the measured cube beside the simulated one at the shown frame") {
  if (data_missing()) return;
  auto app = make_scene_app("contactnets_cube.json", {});
  AppShell shell(app->make_workbench(), AppSettings{});
  auto runner = make_runner(shell, 1280, 720);
  run_frames(*runner, 2);
  replay(*app, kTosses, 0);
  REQUIRE(app->toss_replay().error.empty());
  app->player().seek_frame(10);
  if (app->player().playing()) app->player().toggle();
  run_frames(*runner, 2);
  const TossReplay& r = app->toss_replay();
  const auto frame = static_cast<std::size_t>(app->player().frame());
  int translucent = 0;
  for (const sg::render::Primitive& p : shell.last_scene().prims) {
    if (p.color[3] >= 1.0f) continue;
    ++translucent;
    for (int k = 0; k < 3; ++k)
      CHECK(p.pos[k] == doctest::Approx(r.measured[frame][static_cast<std::size_t>(k)]).epsilon(1e-6));
    CHECK(p.shape == sg::render::Shape::kBox);
  }
  CHECK(translucent == 1);
  // A clicked sweep point replaces the replay in the view, and the measured cube goes with it.
  app->select_value(0.18);
  REQUIRE(app->wait_until_idle(60s));
  run_frames(*runner, 2);
  for (const sg::render::Primitive& p : shell.last_scene().prims) CHECK(p.color[3] == 1.0f);
}

TEST_CASE("a missing file, an unknown toss, a malformed row or a scene without free bodies is refused") {
  auto app = make_scene_app("contactnets_cube.json", {});
  REQUIRE(app->wait_until_idle(60s));
  const auto shown = app->trajectory();
  replay(*app, "/nonexistent/tosses.csv", 0);
  CHECK(app->toss_replay().error.find("/nonexistent/tosses.csv") != std::string::npos);
  CHECK(app->toss_replay().simulated == nullptr);
  CHECK(app->trajectory() == shown);  // nothing else played
  CHECK(app->message().rfind("replay: ", 0) == 0);

  const std::string bad = sg::test::binary_dir() + "/toss_replay_bad.csv";
  std::ofstream(bad) << "toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n0,0,0,0,0.1,1,0,0,0,0,0,0,0,0,0\n"
                        "0,0.0067567567567567,0,0,zero,1,0,0,0,0,0,0,0,0,0\n";
  replay(*app, bad, 0);
  CHECK(app->toss_replay().error.find("toss_replay_bad.csv:3") != std::string::npos);

  if (!data_missing()) {
    replay(*app, kTosses, 99999);
    CHECK(app->toss_replay().error.find("toss 99999: not in") != std::string::npos);
    auto toy = make_scene_app("toy_point_mass.json", {});
    replay(*toy, kTosses, 0);
    CHECK(toy->toss_replay().error.rfind("model.type", 0) == 0);
    auto other_dt = make_scene_app("contactnets_cube.json", {"integrator.dt=0.01"});
    replay(*other_dt, kTosses, 0);
    CHECK(other_dt->toss_replay().error.rfind("integrator.dt", 0) == 0);
  }
}

TEST_CASE("the tab fits the cube's half side to measured tosses on its worker, and applies the result") {
  if (data_missing()) return;
  // A 90 mm cube where the measured one is 104.8 mm: Levenberg-Marquardt on ten tosses.
  auto app = make_scene_app("contactnets_cube.json", {"model.bodies.0.size=[0.045,0.045,0.045]"});
  REQUIRE(app->wait_until_idle(60s));
  TossFitRequest request;
  request.file = kTosses;
  request.select = "0-9";
  request.wrt = {"model.bodies.0.size"};
  request.steps = 10;
  app->fit_tosses(request);
  REQUIRE(app->wait_until_idle(300s));
  const TossFitSnapshot& fit = app->toss_fit();
  REQUIRE_MESSAGE(fit.error.empty(), fit.error);
  CHECK(fit.phase == SweepPhase::finished);
  REQUIRE(fit.steps.size() >= 2);
  REQUIRE(fit.paths.size() == 1);
  CHECK(fit.paths[0].size() == 3);  // the three half sides move as one number
  for (std::size_t i = 1; i < fit.steps.size(); ++i) CHECK(fit.steps[i].loss <= fit.steps[i - 1].loss);
  const double fitted = fit.steps.back().values[0];
  MESSAGE("half side from 0.045: " << fitted << " m after " << fit.steps.back().iteration << " steps ("
                                   << fit.stopped << "), error " << fit.steps.front().loss << " -> "
                                   << fit.steps.back().loss);
  CHECK(std::fabs(fitted - 0.0524) < std::fabs(0.045 - 0.0524));
  CHECK(app->message().find("fit to the tosses: done") != std::string::npos);
  REQUIRE(app->apply_toss_fit());
  for (int k = 0; k < 3; ++k)
    CHECK(app->document().config()["model"]["bodies"][0]["size"][k].get<double>() == doctest::Approx(fitted));
}

TEST_CASE("a fit to tosses with a number the scene lacks or a bad selection says why and fits nothing") {
  if (data_missing()) return;
  auto app = make_scene_app("contactnets_cube.json", {});
  REQUIRE(app->wait_until_idle(60s));
  TossFitRequest request;
  request.file = kTosses;
  request.wrt = {"model.bodies.0.no_such_key"};
  app->fit_tosses(request);
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->toss_fit().error.find("no_such_key") != std::string::npos);
  CHECK(app->toss_fit().steps.empty());
  CHECK_FALSE(app->apply_toss_fit());
  request.wrt = {"model.bodies.0.size"};
  request.select = "0-3,99999";
  app->fit_tosses(request);
  REQUIRE(app->wait_until_idle(60s));
  CHECK(app->toss_fit().error.rfind("tosses: ", 0) == 0);
}
