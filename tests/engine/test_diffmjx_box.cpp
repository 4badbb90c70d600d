// DiffMJX's box toss with its smoothed collision detection (collision.mode "diffmjx", softness 0.1): the
// MJX Euler numbers of DiffMJX's cube_results.csv (reproduced to 12 digits by the pure-Python replica in
// /work/scratch/diffmjx_box_replica), their finite differences, and Tsit5 with and without contact events.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/point_eval.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// toss_box_diffmjx.json under MJX's semi-implicit Euler with DiffMJX's collision smoothing, at one point.
std::vector<std::string> euler(const char* dt, const char* steps) {
  return {"integrator.type=euler", std::string("integrator.dt=") + dt,
          std::string("integrator.steps=") + steps, "collision.mode=diffmjx", "collision.softness=0.1"};
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

double relative(double a, double b) {
  return std::fabs(a - b) / std::fabs(b);
}

}  // namespace

TEST_CASE("DiffMJX box toss, MJX Euler: the final y of DiffMJX's CSV at h = 1e-2, 1e-3, 1e-4 to 1e-10") {
  // cube_results.csv, mjx_euler_* rows at v_z = -2 (the replica gives the same to 12 digits). Measured
  // differences: 7e-15, 1.3e-15, 5e-16. The exact detector gives -2.550201, -0.244522, -0.254936 instead.
  struct Case {
    const char *dt, *steps;
    double loss;
  };
  for (const Case c : {Case{"1e-2", "100", -1.571686727811291}, Case{"1e-3", "1000", -0.2982783773274352},
                       Case{"1e-4", "10000", -0.2999631801336482}}) {
    CAPTURE(c.dt);
    PointEvaluator eval(test::shipped("toss_box_diffmjx.json", euler(c.dt, c.steps)));
    const LossSample s = eval.loss_only(-2.0);
    REQUIRE(s.stats.status == Status::ok);
    CHECK(std::fabs(s.loss - c.loss) < 1e-10);
  }
}

TEST_CASE("DiffMJX box toss, MJX Euler: central FD (eps 1e-2) as DiffMJX's, AD equal to a tight FD") {
  // DiffMJX's FD column (eps 1e-2): 0.2329063816018939 at h = 1e-3, 0.1676198551730456 at 1e-4; measured
  // differences 5e-14 and 8e-14. AD is the derivative of the same discrete map: against FD with eps 1e-7,
  // measured relative differences 4e-8 (1e-3) and 1e-6 (1e-4, where FD's rounding error is larger).
  struct Case {
    const char *dt, *steps;
    double fd;
  };
  for (const Case c : {Case{"1e-3", "1000", 0.2329063816018939}, Case{"1e-4", "10000", 0.1676198551730456}}) {
    CAPTURE(c.dt);
    PointEvaluator coarse(
        test::shipped("toss_box_diffmjx.json", with(euler(c.dt, c.steps), {"gradient.fd_eps=1e-2"})));
    const PointResult r = coarse.evaluate(-2.0);
    REQUIRE(r.status == "ok");
    CHECK(std::fabs(r.grad_fd - c.fd) < 1e-9);
    PointEvaluator tight(
        test::shipped("toss_box_diffmjx.json", with(euler(c.dt, c.steps), {"gradient.fd_eps=1e-7"})));
    const PointResult t = tight.evaluate(-2.0);
    CHECK(t.grad == r.grad);
    CHECK(relative(t.grad, t.grad_fd) < 1e-5);
  }
}

TEST_CASE(
    "toss_box_diffmjx_softcol at Tsit5 1e-10: DiffMJX's reference loss, and events on fix the AD bias") {
  // DiffMJX's reference (Tsit5 1e-10, steps across the contact switches): loss -0.3017952, AD 0.17239,
  // FD (eps 1e-2) 0.17146. Events off is that solver: measured -0.3017952240, AD 0.1728727, FD 0.1714591.
  // With events the 4 coincident contacts switch together (contacts a, c, d are identical; b lies about 1e-8
  // m away) and AD matches a tight FD (measured 5e-4 at eps 1e-6; without events 0.5%).
  const std::vector<std::string> sets = {"integrator.rtol=1e-10", "integrator.atol=1e-10", "sweep.from=-2",
                                         "sweep.to=-2", "sweep.points=1"};
  PointEvaluator off(test::shipped("toss_box_diffmjx_softcol.json",
                                   with(sets, {"integrator.events=false", "gradient.fd_eps=1e-2"})));
  const PointResult a = off.evaluate(-2.0);
  REQUIRE(a.status == "ok");
  CHECK(a.events == 0);
  CHECK(std::fabs(a.loss - -0.3017952) < 1e-7);
  // Frozen-step AD without events depends on the step sequence (a 0.4% bias here), and ours is not exactly
  // DiffMJX's (their state integrates the body rate with RKMK, and their error norm covers 19 entries):
  // measured 0.1728727 as a tree (the default; 0.1729206 before its contact solver took the free bodies'
  // active-set guesses, which changed its rounding and so a few step decisions), 0.3% from the paper's;
  // 0.1726272 on the free bodies' own code (0.1725536 while dual runs rounded divisions differently from
  // double runs and so took slightly different steps than the run they differentiate). Tolerance 1e-3
  // (0.6%), the bias's size.
  CHECK(std::fabs(a.grad - 0.17239) < 1e-3);
  CHECK(std::fabs(a.grad_fd - 0.17146) < 1e-5);
  // The numbers docs/mujoco-validation.md and docs/experiments.md quote (softgrad rows, events off): a change
  // that moves them fails here until the docs are updated with it.
  CHECK(std::fabs(a.loss - -0.3017952240) < 1e-10);
  CHECK(std::fabs(a.grad - 0.1728727) < 1e-7);
  CHECK(std::fabs(a.grad_fd - 0.1714591) < 1e-7);

  PointEvaluator on(test::shipped("toss_box_diffmjx_softcol.json", with(sets, {"gradient.fd_eps=1e-5"})));
  const PointResult b = on.evaluate(-2.0);
  REQUIRE(b.status == "ok");
  CHECK(b.events > 0);
  CHECK(b.events % 4 == 0);  // every switch happens to all four contacts
  CHECK(std::fabs(b.loss - a.loss) < 1e-8);
  CHECK(relative(b.grad, b.grad_fd) < 1e-3);
  CHECK(relative(a.grad, b.grad_fd) > 2e-3);
  CHECK(std::fabs(b.loss - -0.3017952220) < 1e-10);  // the docs' events-on row
  CHECK(std::fabs(b.grad - 0.1717645) < 1e-7);
}

TEST_CASE(
    "collision.mode diffmjx with Contacts From Distance in the forward simulation: AD matches FD under "
    "Euler") {
  // The CFD band widens the margin; the four soft contacts enter and leave it together. Measured 2e-7.
  PointEvaluator eval(
      test::shipped("toss_box_diffmjx.json",
                    with(euler("1e-3", "1000"),
                         {"contact.cfd.enabled=true", "contact.cfd.mode=forward", "gradient.fd_eps=1e-7"})));
  const PointResult r = eval.evaluate(-2.0);
  REQUIRE(r.status == "ok");
  CHECK(relative(r.grad, r.grad_fd) < 1e-5);
}
