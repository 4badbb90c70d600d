// Step-size controller semantics (Diffrax's): accepted steps never shrink the proposal, a rejection
// shrinks it by at least reject_factor_max (0.9) and at most factor_min (0.2), max_steps counts attempts.
#include <doctest/doctest.h>

#include <memory>
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
  template <class S>
  void on_output(long, double t, const S*, int) {
    output_times.push_back(t);
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
