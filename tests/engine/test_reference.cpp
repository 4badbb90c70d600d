// gradient.reference: the AD curve compared against FD of the same simulation, FD at tight settings, or AD at
// tight settings; each checked against the 1-D toy's closed-form derivative or against the runs it stands
// for.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/reference.hpp"
#include "engine/sweep/sweep.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// The penalty toy (k 50, c 1, start velocity -2): a contact that ends within the horizon gives
// d|q_N - 1|/d q0 = +-v_e with v_e = exp(-t_c / 2), t_c = pi / sqrt(50 - 1/4) (docs/engine.md).
double toy_gradient(double q0) {
  const double omega = std::sqrt(50.0 - 0.25), t_c = M_PI / omega, v_e = std::exp(-0.5 * t_c);
  return v_e * (2.0 - q0 - t_c) > 1.0 ? -v_e : v_e;
}

std::vector<std::string> toy_adaptive(const std::string& reference) {
  return {"integrator.type=tsit5",   "integrator.rtol=1e-6", "integrator.atol=1e-6",
          "integrator.events=false", "sweep.from=0.05",      "sweep.to=1.5",
          "sweep.points=60",         "gradient.fd_eps=1e-6", "gradient.reference=" + reference};
}

}  // namespace

TEST_CASE("a tight reference is the continuous derivative where FD of the adaptive simulation is noise") {
  // Tsit5 at 1e-6 without events: the finite differences of the simulation itself jump with its step
  // decisions (|FD - exact| reaches tens); FD and AD at rtol 1e-10, with events, stay within 1e-4 of the
  // closed form.
  const SweepResult fd = run_sweep(test::shipped("toy_point_mass.json", toy_adaptive("fd")));
  const SweepResult fd_tight = run_sweep(test::shipped("toy_point_mass.json", toy_adaptive("fd_tight")));
  const SweepResult ad_tight = run_sweep(test::shipped("toy_point_mass.json", toy_adaptive("ad_tight")));
  double worst_fd = 0.0, worst_fd_tight = 0.0, worst_ad_tight = 0.0;
  for (std::size_t i = 0; i < fd.points.size(); ++i) {
    const double exact = toy_gradient(fd.points[i].value);
    REQUIRE(fd_tight.points[i].status == "ok");
    REQUIRE(ad_tight.points[i].status == "ok");
    CHECK(std::isnan(fd.points[i].grad_ref));  // the default reference is grad_fd itself
    // The AD and FD curves of the scene's own settings do not depend on the reference chosen.
    CHECK(fd_tight.points[i].grad == fd.points[i].grad);
    CHECK(fd_tight.points[i].grad_fd == fd.points[i].grad_fd);
    worst_fd = std::max(worst_fd, std::fabs(fd.points[i].grad_fd - exact));
    worst_fd_tight = std::max(worst_fd_tight, std::fabs(fd_tight.points[i].grad_ref - exact));
    worst_ad_tight = std::max(worst_ad_tight, std::fabs(ad_tight.points[i].grad_ref - exact));
  }
  INFO("largest error: FD same simulation " << worst_fd << ", FD tight " << worst_fd_tight << ", AD tight "
                                            << worst_ad_tight);
  CHECK(worst_fd > 1.0);
  CHECK(worst_fd_tight < 1e-4);
  CHECK(worst_ad_tight < 1e-4);
  // The summary compares AD against the chosen reference.
  CHECK(fd_tight.reference == Reference::fd_tight);
  CHECK(fd_tight.stats.grad_rel_err_median < fd.stats.grad_rel_err_median);
}

TEST_CASE("the tight reference of a fixed-step scene is the same scene with 100 times the substeps") {
  const std::vector<std::string> sets = {"sweep.points=7", "gradient.reference=fd_tight"};
  const SweepResult tight = run_sweep(test::shipped("toy_point_mass.json", sets));
  const SweepResult fine =
      run_sweep(test::shipped("toy_point_mass.json", {"sweep.points=7", "integrator.substeps=100"}));
  for (std::size_t i = 0; i < tight.points.size(); ++i) {
    CHECK(tight.points[i].grad_ref == fine.points[i].grad_fd);  // bit for bit: the same runs
    CHECK(tight.points[i].grad != tight.points[i].grad_ref);    // h = 0.1 is far from converged
  }
}

TEST_CASE("a failed reference run marks the point with the reference's name") {
  // A smallest step the scene's own runs (rtol 1e-3, steps of 0.1 s) never reach but the tight one needs.
  const Problem p = test::shipped(
      "toy_point_mass.json", {"integrator.type=tsit5", "integrator.rtol=1e-3", "integrator.atol=1e-3",
                              "integrator.dt_min=0.01", "sweep.points=1", "gradient.reference=ad_tight"});
  const SweepResult r = run_sweep(p);
  REQUIRE(r.points.size() == 1);
  INFO(r.points[0].status);
  CHECK(r.points[0].status.find("reference ad_tight (rtol 1e-10): step_underflow") == 0);
  CHECK(std::isfinite(r.points[0].grad));  // the scene's own AD and FD are still reported
  CHECK(std::isfinite(r.points[0].grad_fd));
  CHECK(r.stats.failed == 1);
}

TEST_CASE("references are named in words for legends and summaries") {
  IntegratorSettings adaptive;
  adaptive.method = Method::tsit5;
  IntegratorSettings fixed;
  GradientSettings g;
  g.fd_eps = 1e-4;
  CHECK(reference_label(g, adaptive, false) == "FD, same simulation, eps 0.0001");
  CHECK(reference_label(g, adaptive, true) == "FD, same simulation (plain model), eps 0.0001");
  g.reference = Reference::fd_tight;
  CHECK(reference_label(g, adaptive, false) == "FD, tight (rtol 1e-10), eps 0.0001");
  CHECK(reference_label(g, fixed, false) == "FD, tight (h / 100), eps 0.0001");
  g.reference = Reference::ad_tight;
  CHECK(reference_label(g, adaptive, true) == "AD, tight (rtol 1e-10), CFD surrogate");
  const IntegratorSettings t = tight_integrator(adaptive, g.tight);
  CHECK(t.rtol == 1e-10);
  CHECK(t.atol == 1e-10);
  CHECK(t.max_steps == 64 * adaptive.max_steps);
  CHECK(tight_integrator(fixed, g.tight).substeps == 100);
}
