// Profile-likelihood intervals (engine/optimize/profile.hpp) on the synthetic cube identification with
// measurement noise. Independent references: the chi-square quantiles; for one fitted number the profile
// is the error itself (nothing to refit), checked point by point against the objective; where the model is
// nearly linear (friction) the interval is the fit's value plus and minus its standard error; refitting the
// other numbers can only lower the error against holding them at their fitted values.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>

#include "engine/optimize/fit.hpp"
#include "engine/optimize/identify.hpp"
#include "engine/optimize/profile.hpp"
#include "scene_helpers.hpp"

using namespace sg;
using sg::test::shipped;

namespace {

struct Profiled {
  Problem problem;
  IdentifySetup setup;
  std::unique_ptr<Rollouts> objective;
  FitResult fit;
  FitSettings settings;
};

// The cube identification with `noise` (m): a fit of `paths` from `start`.
Profiled fitted(const std::vector<std::string>& paths, const std::vector<double>& start,
                const std::string& noise = "0.001") {
  Profiled p{
      shipped("identify_cube_toss.json", {"identify.noise=" + noise, "identify.seed=3"}), {}, {}, {}, {}};
  p.setup = identify_setup(p.problem);
  REQUIRE(p.setup.status == "ok");
  p.objective = std::make_unique<Rollouts>(rollouts_of(p.problem, p.setup, paths));
  p.settings = identify_settings(p.problem);
  p.settings.steps = 60;
  p.settings.bounds = fit_bounds(p.problem, paths);
  p.fit = fit_parameters(*p.objective, start, p.settings, {});
  REQUIRE(p.fit.status == "ok");
  return p;
}

ProfileResult profile(Profiled& p, double level = 0.6827) {
  ProfileSettings s;
  s.level = level;
  s.refit = p.settings;
  return profile_parameters(*p.objective, p.fit, s, {});
}

}  // namespace

TEST_CASE("profile: chi-square quantiles of one degree of freedom") {
  // Tabulated values (the squares of the normal quantiles 1.959964 and 2.575829).
  CHECK(profile_threshold(0.95) == doctest::Approx(3.841458820694124).epsilon(1e-10));
  CHECK(profile_threshold(0.99) == doctest::Approx(6.634896601021213).epsilon(1e-10));
  CHECK(profile_threshold(0.6826894921370859) == doctest::Approx(1.0).epsilon(1e-10));
}

TEST_CASE("profile: one number's profile is its error, and nearly linear it is +- one standard error") {
  Profiled p = fitted({"model.bodies.0.friction.0"}, {0.5});
  const double x = p.fit.path.back().values[0], se = p.fit.std_error[0];
  REQUIRE((std::isfinite(se) && se > 0.0));
  const ProfileResult r = profile(p);
  REQUIRE(r.status == "ok");
  CHECK(r.note.empty());
  REQUIRE(r.parameters.size() == 1);
  const ParameterProfile& f = r.parameters[0];
  CHECK(f.lower_end == ProfileEnd::crossed);
  CHECK(f.upper_end == ProfileEnd::crossed);
  // Friction enters the positions nearly linearly at this noise: the interval's ends within 10% of a
  // standard error of x -+ se (measured: 2-3%).
  CHECK(std::fabs(f.lower - (x - se)) < 0.1 * se);
  CHECK(std::fabs(f.upper - (x + se)) < 0.1 * se);
  // Nothing to refit: delta is (objective(v) - objective(x)) S / s^2, computed here from the objective.
  const double samples = static_cast<double>(p.objective->samples());
  const double s2 = p.fit.residual_sigma * p.fit.residual_sigma;
  const double base = p.objective->objective({x});
  REQUIRE(f.points.size() >= 3);
  for (const ProfilePoint& q : f.points) {
    CAPTURE(q.value);
    const double direct = (p.objective->objective({q.value}) - base) * samples / s2;
    CHECK(q.delta == doctest::Approx(direct).epsilon(1e-9).scale(1e-9));
  }
  // The values ascend, and a wider level gives a wider interval (about 1.96 standard errors).
  for (std::size_t k = 1; k < f.points.size(); ++k) CHECK(f.points[k].value > f.points[k - 1].value);
  const ProfileResult wide = profile(p, 0.95);
  REQUIRE(wide.status == "ok");
  CHECK(std::fabs(wide.parameters[0].upper - (x + 1.96 * se)) < 0.15 * se);
  CHECK(std::fabs(wide.parameters[0].lower - (x - 1.96 * se)) < 0.15 * se);
}

TEST_CASE("profile: refitting the other numbers lowers the error against holding them") {
  const std::vector<std::string> paths = {"model.bodies.0.friction.0", "model.bodies.0.solref.0",
                                          "model.bodies.0.vel.0"};
  Profiled p = fitted(paths, {0.5, 0.025, 1.4});
  const std::vector<double> x = p.fit.path.back().values;
  const ProfileResult r = profile(p);
  REQUIRE(r.status == "ok");
  REQUIRE(r.parameters.size() == 3);
  CHECK(r.runs > 0);
  for (std::size_t j = 0; j < 3; ++j) {
    CAPTURE(paths[j]);
    const ParameterProfile& pj = r.parameters[j];
    CHECK(pj.lower < x[j]);
    CHECK(pj.upper > x[j]);
    CHECK(pj.lower_end == ProfileEnd::crossed);
    CHECK(pj.upper_end == ProfileEnd::crossed);
    for (const ProfilePoint& q : pj.points) {
      CAPTURE(q.value);
      CHECK(q.delta >= -1e-6);  // the fit is the minimum
      std::vector<double> held = x;
      held[j] = q.value;
      CHECK(q.loss <= p.objective->objective(held) * (1.0 + 1e-9));
    }
  }
  // Friction fitted with the other two is less certain than alone (as its standard error): the profile
  // interval is at least as wide as the conditional one, within a tenth of it.
  Profiled alone = fitted({paths[0]}, {0.5});
  const ProfileResult r1 = profile(alone);
  REQUIRE(r1.status == "ok");
  const double conditional = r1.parameters[0].upper - r1.parameters[0].lower;
  CHECK(r.parameters[0].upper - r.parameters[0].lower > 0.9 * conditional);
}

TEST_CASE("profile: an interval that reaches a bound ends there, and bad settings are refused") {
  Profiled p = fitted({"model.bodies.0.friction.0"}, {0.5});
  const double x = p.fit.path.back().values[0], se = p.fit.std_error[0];
  p.settings.bounds[0] = scene::KeyRange{x - 10.0 * se, x + 0.3 * se, false, false};
  const ProfileResult r = profile(p);
  REQUIRE(r.status == "ok");
  CHECK(r.parameters[0].upper_end == ProfileEnd::bound);
  CHECK(r.parameters[0].upper == x + 0.3 * se);
  CHECK(r.parameters[0].lower_end == ProfileEnd::crossed);

  // Cancelled before it starts: every side ends cancelled, without a refit.
  std::atomic<bool> stop{true};
  ProfileSettings cancelled;
  cancelled.refit = p.settings;
  cancelled.refit.cancel = &stop;
  const ProfileResult c = profile_parameters(*p.objective, p.fit, cancelled, {});
  CHECK(c.cancelled);
  CHECK(c.runs == 0);
  CHECK(c.parameters[0].lower_end == ProfileEnd::cancelled);
  CHECK(c.parameters[0].upper_end == ProfileEnd::cancelled);

  CHECK(profile(p, 1.5).status.find("level") != std::string::npos);

  // A positive number stays positive, as in the fit: with 10 cm of noise the contact time constant's
  // interval would reach below 0 (where MuJoCo reads it as a stiffness); it approaches 0 and stops there.
  Profiled noisy = fitted({"model.bodies.0.solref.0"}, {0.02}, "0.1");
  const ProfileResult t = profile(noisy);
  REQUIRE(t.status == "ok");
  CHECK(noisy.fit.path.back().values[0] - noisy.fit.std_error[0] < 0.0);  // the linearised interval does
  CHECK(t.parameters[0].lower > 0.0);
  CHECK(t.parameters[0].lower_end == ProfileEnd::scan);
  for (const ProfilePoint& q : t.parameters[0].points) CHECK(q.value > 0.0);
  FitResult exact = p.fit;
  exact.residual_sigma = 0.0;
  ProfileSettings s;
  s.refit = p.settings;
  CHECK(profile_parameters(*p.objective, exact, s, {}).status.find("residual") != std::string::npos);
}

TEST_CASE(
    "profile: a fit stopped short is fitted again from the profile's lower point, a converged one is not") {
  const std::vector<std::string> paths = {"model.bodies.0.friction.0", "model.bodies.0.solref.0",
                                          "model.bodies.0.vel.0"};
  Profiled p = fitted(paths, {0.5, 0.025, 1.4});
  ProfileSettings s;
  s.refit = p.settings;
  FitResult converged = p.fit;
  const ProfileResult same = profile_with_restarts(*p.objective, converged, p.settings, s, 3, {}, {});
  CHECK(same.restarts == 0);
  CHECK(converged.path.back().values == p.fit.path.back().values);

  // Twenty Adam steps from the start: far from the minimum, so a refit with one number held finds lower
  // errors; the fits made again are Levenberg-Marquardt's whatever the first fit's method (twenty more Adam
  // steps each would not reach the minimum).
  FitSettings short_fit = p.settings;
  short_fit.method = FitMethod::adam;
  short_fit.steps = 20;
  FitResult stopped = fit_parameters(*p.objective, {0.5, 0.025, 1.4}, short_fit, {});
  REQUIRE(stopped.status == "ok");
  const double stopped_loss = stopped.path.back().loss;
  int seen = 0;
  const ProfileResult again =
      profile_with_restarts(*p.objective, stopped, short_fit, s, 3, {}, [&](const FitResult&) { ++seen; });
  REQUIRE(again.status == "ok");
  CHECK(again.restarts >= 1);
  CHECK(seen == again.restarts);
  CHECK(again.note.find("fitted again") != std::string::npos);
  // The last fit is the converged one's (to the objective's resolution), and its profile brackets it.
  CHECK(stopped.path.back().loss < stopped_loss);
  CHECK(stopped.path.back().loss == doctest::Approx(p.fit.path.back().loss).epsilon(1e-6));
  for (std::size_t j = 0; j < 3; ++j) {
    CHECK(again.parameters[j].lower < stopped.path.back().values[j]);
    CHECK(again.parameters[j].upper > stopped.path.back().values[j]);
  }
}

TEST_CASE("profile: sides scanned on several threads give the same numbers to the last bit") {
  const std::vector<std::string> paths = {"model.bodies.0.friction.0", "model.bodies.0.solref.0"};
  Profiled p = fitted(paths, {0.5, 0.025});
  ProfileSettings s;
  s.refit = p.settings;
  s.refit.threads = 1;
  const ProfileResult one = profile_parameters(*p.objective, p.fit, s, {});
  s.refit.threads = 3;
  std::atomic<int> made{0};
  const ProfileResult three = profile_parameters(*p.objective, p.fit, s, {}, [&] {
    ++made;
    return std::make_unique<Rollouts>(rollouts_of(p.problem, p.setup, paths));
  });
  CHECK(made.load() >= 1);  // the extra threads had their own objectives
  REQUIRE(one.parameters.size() == three.parameters.size());
  CHECK(one.runs == three.runs);
  for (std::size_t j = 0; j < one.parameters.size(); ++j) {
    CHECK(one.parameters[j].lower == three.parameters[j].lower);
    CHECK(one.parameters[j].upper == three.parameters[j].upper);
    REQUIRE(one.parameters[j].points.size() == three.parameters[j].points.size());
    for (std::size_t k = 0; k < one.parameters[j].points.size(); ++k)
      CHECK(one.parameters[j].points[k].delta == three.parameters[j].points[k].delta);
  }
}
