// Accuracy against cost (engine/study/tradeoff.hpp, DiffMJX Fig. S6): the reference is checked against an
// independent one (the 1-D toy's analytic gradient), errors shrink as steps and tolerances tighten, and
// settings the scene refuses or runs that fail are reported, never measured.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/study/tradeoff.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

const TradeoffRow& row_of(const TradeoffResult& r, const std::string& family, double knob) {
  for (const TradeoffRow& row : r.rows)
    if (row.setting.family == family && std::fabs(row.setting.knob - knob) <= 1e-12 * std::fabs(knob))
      return row;
  FAIL("no row " << family << " " << knob);
  return r.rows.front();
}

TradeoffOptions small_options() {
  TradeoffOptions o;
  o.families = {"euler", "tsit5", "tsit5-noevents"};
  o.tolerances = {1e-4, 1e-8};
  o.step_divisions = {1, 100};
  o.repeats = 1;
  return o;
}

}  // namespace

TEST_CASE(
    "tradeoff: on the 1-D toy the reference is the analytic gradient, and errors shrink with the steps") {
  const Problem p = test::shipped("toy_point_mass.json");
  // x = 1.5 ends in the penalty contact, where the continuous ODE's derivative is 0.80035 (issue 8).
  const TradeoffResult r = run_tradeoff(p, "toy_point_mass.json", 1.5, small_options());
  REQUIRE(r.ok());
  CHECK(r.reference.setting.family == "tsit5");
  CHECK(r.reference.grad == doctest::Approx(0.80035364).epsilon(1e-8));
  CHECK(r.spread_loss < 1e-10);  // Dopri8 and Tsit5 at 1e-12 agree
  CHECK(r.spread_grad < 1e-9);
  REQUIRE(r.rows.size() == 6);
  for (const TradeoffRow& row : r.rows) {
    CAPTURE(row.setting.label());
    CHECK(row.status == "ok");
    CHECK(row.seconds_loss > 0.0);
    CHECK(row.seconds_grad > 0.0);
    CHECK(row.loss_error == doctest::Approx(std::fabs(row.loss - r.reference.loss)));
  }
  // Euler is first order: a hundred times smaller steps, at least 30 times smaller errors.
  CHECK(row_of(r, "euler", 1e-3).loss_error < row_of(r, "euler", 0.1).loss_error / 30.0);
  CHECK(row_of(r, "euler", 1e-3).grad_error < row_of(r, "euler", 0.1).grad_error / 30.0);
  CHECK(row_of(r, "euler", 0.1).steps == 20);
  CHECK(row_of(r, "euler", 1e-3).steps == 2000);
  // Tsit5 with contact events: 1e-8 is within 1e-7 of the reference, 1e-4 is not that close.
  CHECK(row_of(r, "tsit5", 1e-8).grad_error < 1e-7);
  CHECK(row_of(r, "tsit5", 1e-8).loss_error < 1e-7);
  CHECK(row_of(r, "tsit5", 1e-4).grad_error > 10.0 * row_of(r, "tsit5", 1e-8).grad_error);
  // Without events the same tolerance stays further from the continuous derivative (DiffMJX's stepping).
  CHECK(row_of(r, "tsit5-noevents", 1e-8).grad_error > 10.0 * row_of(r, "tsit5", 1e-8).grad_error);
}

TEST_CASE("tradeoff: settings the scene refuses are reported and not run, and hard contact gets Moreau") {
  TradeoffOptions o = small_options();
  o.families = {"euler", "rk4"};
  const TradeoffResult elastic = run_tradeoff(test::shipped("toy_elastic.json"), "toy_elastic.json", 1.5, o);
  REQUIRE(elastic.ok());
  CHECK(elastic.reference.setting.family == "euler");  // no adaptive method for the ideal impact
  for (const TradeoffRow& row : elastic.rows) {
    CAPTURE(row.setting.label());
    if (row.setting.family == "rk4") {
      CHECK(row.status.find("not run: toy_elastic.json: integrator.type") == 0);
      CHECK(std::isnan(row.loss_error));
      CHECK(std::isnan(row.seconds_loss));
    } else {
      CHECK(row.status == "ok");
    }
  }
  // Without named families the scene's own method leads the list.
  const Problem falling = test::shipped("falling_mass.json");
  CHECK(default_tradeoff_families(falling).front() == "moreau");
  std::string error;
  const std::vector<TradeoffSetting> s = tradeoff_settings(falling, TradeoffOptions{}, &error);
  CHECK(error.empty());
  CHECK(s.front().family == "moreau");
  CHECK(s.front().overrides.front().second == "moreau");
}

TEST_CASE("tradeoff: a run that fails is reported with its reason, and unknown families are refused") {
  // A budget of 100 attempts cannot reach 1e-8 on the box toss (the reference gets 64 times as many).
  const Problem p = test::shipped("toss_box_diffmjx.json", {"integrator.max_steps=100"});
  TradeoffOptions o;
  o.families = {"tsit5"};
  o.tolerances = {1e-8};
  o.repeats = 1;
  const TradeoffResult r = run_tradeoff(p, "toss_box_diffmjx.json", -2.0, o);
  REQUIRE(r.rows.size() == 1);
  REQUIRE(r.ok());
  CHECK(r.rows[0].status.find("max_steps") == 0);
  CHECK(std::isnan(r.rows[0].grad_error));
  CHECK(std::isnan(r.rows[0].seconds_grad));  // the gradient run is not tried after the loss run failed

  std::string error;
  o.families = {"tsit5", "rk45"};
  CHECK(tradeoff_settings(p, o, &error).empty());
  CHECK(error.find("unknown integrator family \"rk45\"") != std::string::npos);
}

TEST_CASE("tradeoff: progress is reported and a cancel stops the study between runs") {
  const Problem p = test::shipped("toy_point_mass.json");
  std::size_t calls = 0, last_total = 0;
  const TradeoffResult r =
      run_tradeoff(p, "toy_point_mass.json", 1.5, small_options(), [&](std::size_t done, std::size_t total) {
        ++calls;
        last_total = total;
        return done < 4;  // the references and two settings
      });
  CHECK(r.cancelled);
  CHECK(calls == 4);
  CHECK(last_total == 2 + 6);
  CHECK(r.rows.size() == 2);
}

TEST_CASE("tradeoff on DiffMJX's soft-collision box toss: its Euler rows are DiffMJX's cube_results.csv") {
  // martius-lab/diffmjx experiments/04_time-toss/results/cube_results.csv (v_z = -2): mjx_euler at timesteps
  // 1e-2, 1e-3 and 1e-4 (the same numbers as tests/engine/test_diffmjx_box.cpp, there with integrator.dt;
  // here the study's h = dt / n), and dfx_dopri8_1e-10_tol's loss -0.3017952222867653 for the reference.
  TradeoffOptions o;
  o.families = {"euler"};
  o.step_divisions = {1, 10, 100};
  o.repeats = 1;
  const TradeoffResult r =
      run_tradeoff(test::shipped("toss_box_diffmjx_softcol.json"), "toss_box_diffmjx_softcol.json", -2.0, o);
  REQUIRE(r.ok());
  CHECK(r.reference.loss == doctest::Approx(-0.3017952222867653).epsilon(1e-9));
  REQUIRE(r.rows.size() == 3);
  CHECK(r.rows[0].loss == doctest::Approx(-1.571686727811291).epsilon(1e-10));
  CHECK(r.rows[1].loss == doctest::Approx(-0.2982783773274352).epsilon(1e-10));
  CHECK(r.rows[2].loss == doctest::Approx(-0.2999631801336482).epsilon(1e-10));
}
