// Step-size controller semantics (Diffrax 0.7.2's): accepted steps never shrink, a rejection shrinks by at
// least reject_factor_max (0.9) and at most factor_min (0.2), the step after one clipped to an output time
// grows from the clipped step, grid times are hit exactly without absorbing remainders, the horizon's end
// is snapped to within 100 ulps, max_steps counts attempts.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/integrate/adaptive_solve.hpp"
#include "engine/model/particle_system.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

struct Attempt {
  double h;
  bool accepted;
};

struct AttemptLog {
  std::vector<Attempt> attempts;
  std::vector<double> output_times;
  std::vector<double> output_q;  // the height at each output
  template <class S>
  void on_output(long, double t, const S* y, int) {
    output_times.push_back(t);
    output_q.push_back(value(y[2]));
  }
  void on_accept(double h) { attempts.push_back({h, true}); }
  void on_reject(double h) { attempts.push_back({h, false}); }
};

SolveStats solve_toy(const Problem& p, AttemptLog& log) {
  const ParticleSystem<double> sys{&p.data.model, p.integrator.fixed_step()};
  auto ws = std::make_unique<RkWorkspace<ParticleSystem<double>>>();
  double y[6];
  sys.initial_state(y);
  return solve_adaptive<double>(sys, p.integrator, y, *ws, log);
}

// Whether some accepted step has an output time strictly inside (toy grid: dt = 0.1).
bool crosses_output(const AttemptLog& log) {
  double t = 0.0;
  for (const Attempt& a : log.attempts) {
    if (!a.accepted) continue;
    const double first = std::floor(t / 0.1 + 1e-9) + 1.0;  // the first output index after t
    if (0.1 * first < t + a.h - 1e-12) return true;
    t += a.h;
  }
  return false;
}

}  // namespace

TEST_CASE("controller factor bounds") {
  PidController<double> ctl{ControllerSettings{}, 5};
  for (double eps : {1e-12, 1e-3, 0.5, 0.99}) {
    CHECK(ctl.factor(eps, true) >= 1.0);
    CHECK(ctl.factor(eps, true) <= 10.0);
  }
  for (double eps : {1.0, 1.5, 10.0, 1e6}) {
    CHECK(ctl.factor(eps, false) <= 0.9);
    CHECK(ctl.factor(eps, false) >= 0.2);
  }
  CHECK(ctl.factor(1e-3, true) == doctest::Approx(0.9 * std::pow(1e3, 0.2)));
}

TEST_CASE("PID history: an error of exactly zero enters as 1, as in Diffrax") {
  ControllerSettings pid;
  pid.pcoeff = 0.2;  // DiffMJX's coefficients: the last error enters with exponent (p + 2d) / k
  pid.icoeff = 0.4;
  PidController<double> ctl{pid, 5};
  ctl.on_accept(0.0);  // a step without error (free flight)
  CHECK(ctl.prev_inv_err == 1.0);
  // 0.9 * 10^(0.6/5) * 1^(-0.2/5): the zero error neither grows nor shrinks the next step. (Taking it as
  // 1e10 made it 0.9 * 10^0.12 * 1e10^-0.04 = 0.47, clipped to 1.)
  CHECK(ctl.factor(0.1, true) == doctest::Approx(0.9 * std::pow(10.0, 0.12)).epsilon(1e-14));
  ctl.on_accept(0.1);
  CHECK(ctl.prev_inv_err == doctest::Approx(10.0));
  CHECK(ctl.prev_prev_inv_err == 1.0);
}

TEST_CASE("step times: grid stops are hit exactly, remainders are not absorbed, landings are bumped past") {
  StepGrid grid(0.1, 20, [](long) { return true; });
  CHECK(grid.clip_first(0.0, 0.25) == 0.1);
  CHECK(grid.clip_first(0.0, 0.05) == 0.05);
  CHECK(grid.clip(0.35, 0.45) == 0.1 * 4);
  // A step ending a hair short of the output time stays short (Diffrax): the next step is a tiny one.
  const double short_of = 0.1 * 4 - 1e-13;
  CHECK(grid.clip(0.35, short_of) == short_of);
  CHECK(grid.clip(short_of, 0.45) == 0.1 * 4);
  // Started on a stop, or one ulp before it, the next stop is the following one.
  CHECK(grid.clip(0.1 * 4, 0.65) == 0.1 * 5);
  CHECK(grid.clip(std::nextafter(0.1 * 4, 0.0), 0.65) == 0.1 * 5);
  CHECK(grid.clip(0.1 * 19, 7.0) == 0.1 * 20);
  // Only the required stops (forces that switch at output 3) when not stepping to every output.
  StepGrid sparse(0.1, 20, [](long k) { return k == 3 || k == 20; });
  CHECK(sparse.clip(0.0, 1.0) == 0.1 * 3);
  CHECK(sparse.clip(0.1 * 3, 5.0) == 0.1 * 20);
}

TEST_CASE("step times: the horizon's end is snapped to within 100 ulps, a rejection near it halves") {
  const double t1 = 2.0, floor = ulps_below(t1, 100);
  CHECK(floor < t1);
  CHECK(clip_to_end(1.5, 1.9, t1, floor, true) == 1.9);
  CHECK(clip_to_end(1.5, ulps_below(t1, 50), t1, floor, true) == t1);
  CHECK(clip_to_end(1.5, 2.5, t1, floor, true) == t1);
  CHECK(clip_to_end(1.5, ulps_below(t1, 50), t1, floor, false) == 1.75);
  CHECK(clip_to_end(1.5, ulps_below(t1, 101), t1, floor, false) == ulps_below(t1, 101));
}

TEST_CASE(
    "adaptive solve: steps never shrink after acceptance, rejections shrink by >= 10%, outputs are hit") {
  for (const char* method : {"bosh3", "dopri5", "tsit5"}) {
    // Events off: Diffrax's plain stepping (with events, steps also end at located switches).
    const Problem p =
        test::shipped("toy_point_mass.json",
                      {std::string("integrator.type=") + method, "integrator.rtol=1e-7",
                       "integrator.atol=1e-7", "model.particles.0.pos.2=0.55", "integrator.events=false"});
    AttemptLog log;
    const SolveStats st = solve_toy(p, log);
    REQUIRE(st.status == Status::ok);
    CHECK(st.rejected > 0);  // the contact forces some rejections: the rules below are exercised
    // Output times are hit exactly: t_i = i dt.
    REQUIRE(log.output_times.size() == 21);
    for (std::size_t i = 0; i < log.output_times.size(); ++i) CHECK(log.output_times[i] == 0.1 * i);
    double t = 0.0;
    for (std::size_t i = 0; i + 1 < log.attempts.size(); ++i) {
      const Attempt& a = log.attempts[i];
      const Attempt& next = log.attempts[i + 1];
      if (a.accepted) t += a.h;
      // A step that lands on an output time is clipped there and may be shorter than the proposal.
      const double end = (t + next.h) / 0.1;
      const bool next_clipped = std::fabs(end - std::round(end)) < 1e-9;
      if (!a.accepted) {
        CHECK(next.h <= 0.9 * a.h * (1 + 1e-12));
        CHECK(next.h >= 0.2 * a.h * (1 - 1e-12));
      } else if (!next_clipped) {
        CHECK(next.h >= a.h * (1 - 1e-12));
      }
    }
  }
}

TEST_CASE("the step after one clipped to an output time grows from the clipped step, as in Diffrax 0.7") {
  // Diffrax 0.7.2's ClipStepSizeController does not restore the proposal a clip cut short: the next step is
  // the clipped step times the factor, so at most factor_max times it. (Keeping the earlier, longer proposal
  // instead gave up to 18x here.)
  long grew_after_clip = 0;
  for (const char* method : {"bosh3", "dopri5", "tsit5"}) {
    CAPTURE(method);
    const Problem p =
        test::shipped("toy_point_mass.json",
                      {std::string("integrator.type=") + method, "integrator.rtol=1e-6",
                       "integrator.atol=1e-6", "model.particles.0.pos.2=0.55", "integrator.events=false"});
    AttemptLog log;
    REQUIRE(solve_toy(p, log).status == Status::ok);
    double t = 0.0;
    for (std::size_t i = 0; i + 1 < log.attempts.size(); ++i) {
      const Attempt& a = log.attempts[i];
      if (!a.accepted) continue;
      t += a.h;
      const double at = t / 0.1;
      const bool clipped = std::fabs(at - std::round(at)) < 1e-9;
      const Attempt& next = log.attempts[i + 1];
      CHECK(next.h <= 10.0 * a.h * (1 + 1e-12));
      if (clipped && next.h > 1.5 * a.h) ++grew_after_clip;
    }
  }
  CHECK(grew_after_clip > 0);
}

TEST_CASE("step_to_outputs off: steps cross output times, outputs come from the method's interpolant") {
  for (const char* method : {"bosh3", "dopri5", "tsit5"}) {
    CAPTURE(method);
    const std::vector<std::string> base = {std::string("integrator.type=") + method,
                                           "integrator.events=false", "integrator.step_to_outputs=false"};
    // Free flight from q0 = 3 (no contact in 2 s): dt0 = 0.1, then 10x, then clipped to the end.
    std::vector<std::string> free = base;
    free.push_back("model.particles.0.pos.2=3");
    AttemptLog flight;
    REQUIRE(solve_toy(test::shipped("toy_point_mass.json", free), flight).status == Status::ok);
    REQUIRE(flight.attempts.size() == 3);
    CHECK(flight.attempts[0].h == 0.1);
    CHECK(flight.attempts[1].h == doctest::Approx(1.0).epsilon(1e-15));
    CHECK(flight.attempts[2].h == doctest::Approx(0.9).epsilon(1e-14));
    REQUIRE(flight.output_times.size() == 21);
    for (std::size_t i = 0; i < 21; ++i) {
      CHECK(flight.output_times[i] == 0.1 * static_cast<double>(i));
      CHECK(flight.output_q[i] == doctest::Approx(3.0 - 0.1 * static_cast<double>(i)).epsilon(1e-12));
    }
    // Through the contact, tight: the interpolated outputs agree with those stepped to.
    std::vector<std::string> contact = base;
    for (const char* s : {"model.particles.0.pos.2=0.55", "integrator.rtol=1e-10", "integrator.atol=1e-10"})
      contact.push_back(s);
    AttemptLog across, stepped;
    REQUIRE(solve_toy(test::shipped("toy_point_mass.json", contact), across).status == Status::ok);
    contact.push_back("integrator.step_to_outputs=true");
    REQUIRE(solve_toy(test::shipped("toy_point_mass.json", contact), stepped).status == Status::ok);
    REQUIRE(across.output_q.size() == 21);
    REQUIRE(stepped.output_q.size() == 21);
    CHECK(crosses_output(across));
    CHECK_FALSE(crosses_output(stepped));
    for (std::size_t i = 0; i < 21; ++i)
      CHECK(across.output_q[i] == doctest::Approx(stepped.output_q[i]).epsilon(1e-6));
  }
}

TEST_CASE("max_steps counts every attempt and is reported") {
  for (const char* events : {"false", "true"}) {
    CAPTURE(events);
    const Problem p = test::shipped(
        "toy_point_mass.json",
        {"integrator.type=tsit5", "integrator.rtol=1e-10", "integrator.atol=1e-10", "integrator.max_steps=30",
         "model.particles.0.pos.2=0.55", std::string("integrator.events=") + events});
    AttemptLog log;
    const SolveStats st = solve_toy(p, log);
    CHECK(st.status == Status::max_steps);
    // Trial steps cut at a located switch are attempts too, reported neither as accepted nor as rejected.
    CHECK(st.accepted + st.rejected + st.truncated == 30);
    CHECK(static_cast<long>(log.attempts.size()) == st.accepted + st.rejected);
    if (std::string(events) == "true") CHECK(st.events > 0);
  }
}
