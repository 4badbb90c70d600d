// The sweep's statistics against its reference (engine/sweep/gradient_agreement.hpp): points where AD and
// the reference are both zero carry no information and are counted apart; the median, the share off by more
// than 10% and the wrong signs are over the informative points only.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/sweep/gradient_agreement.hpp"
#include "engine/sweep/sweep.hpp"

using namespace sg;

namespace {

PointResult point(double grad, double grad_fd, const std::string& status = "ok") {
  PointResult p;
  p.grad = grad;
  p.grad_fd = grad_fd;
  p.status = status;
  return p;
}

}  // namespace

TEST_CASE("zero-zero points are left out of the median and counted apart") {
  SweepResult r;
  // Six misses (a ball that never touches): exactly zero both, or AD a denormal-scale 1e-40 against FD 0.
  for (int i = 0; i < 4; ++i) r.points.push_back(point(0.0, 0.0));
  r.points.push_back(point(1e-40, 0.0));
  r.points.push_back(point(-1e-24, 0.0));
  // Four informative points: two exact, one 50% off, one of the wrong sign.
  r.points.push_back(point(2.0, 2.0));
  r.points.push_back(point(-3.0, -3.0));
  r.points.push_back(point(1.0, 2.0));
  r.points.push_back(point(-1.0, 1.0));
  // Failed and non-finite points are not compared.
  r.points.push_back(point(1.0, 1.0, "max_steps at t=0.5 (step 4096)"));
  r.points.push_back(point(std::nan(""), 1.0));
  summarize_sweep(r);
  const SweepStats& st = r.stats;
  CHECK(st.points == 12);
  CHECK(st.both_zero == 6);
  CHECK(st.compared == 4);
  CHECK(st.off == 2);
  CHECK(st.wrong_sign == 1);
  CHECK(st.sign_agreement == doctest::Approx(0.75));
  // The old statistic counted the six misses as perfect: its median was 0. Over the informative points the
  // sorted differences are 0, 0, 0.5, 1: the upper middle, 0.5.
  CHECK(st.grad_rel_err_median == doctest::Approx(0.5));
}

TEST_CASE("a point where only one of AD and the reference is zero is informative and off") {
  SweepResult r;
  r.points = {point(1.0, 1.0), point(0.0, 0.5), point(0.4, 0.0)};
  summarize_sweep(r);
  CHECK(r.stats.both_zero == 0);
  CHECK(r.stats.compared == 3);
  CHECK(r.stats.off == 2);
  CHECK(r.stats.wrong_sign == 0);  // a zero has no sign to get wrong: it counts as off instead
}

TEST_CASE("a sweep of zeros only has nothing to compare: the median is NaN, not 0") {
  SweepResult r;
  r.points = {point(0.0, 0.0), point(0.0, 0.0)};
  summarize_sweep(r);
  CHECK(r.stats.compared == 0);
  CHECK(r.stats.both_zero == 2);
  CHECK(std::isnan(r.stats.grad_rel_err_median));
  CHECK(agreement_text(r.stats, "FD") == "AD vs FD over 0 points (2 both zero, left out)");
}

TEST_CASE("the tight reference is the one compared when it is chosen") {
  SweepResult r;
  r.reference = Reference::fd_tight;
  PointResult p = point(1.0, 1.0);  // AD equals FD of the same simulation...
  p.grad_ref = -1.0;                // ...and has the wrong sign against the tight reference
  r.points = {p};
  summarize_sweep(r);
  CHECK(r.stats.compared == 1);
  CHECK(r.stats.wrong_sign == 1);
}

TEST_CASE("shares never round to 100% or 0% unless they are") {
  CHECK(share_text(1999, 2000) == "1999 of 2000 (99.9%)");
  CHECK(share_text(2000, 2000) == "2000 of 2000 (100.0%)");
  CHECK(share_text(1, 100000) == "1 of 100000 (0.1%)");
  CHECK(share_text(0, 5) == "0 of 5 (0.0%)");
}

TEST_CASE("a straight-through CFD sweep counts the points whose gradient is over 10x the plain FD's scale") {
  SweepResult r;
  r.straight_through_cfd = true;
  for (double fd : {0.4, -0.9, 0.2}) r.points.push_back(point(fd * 1.5, fd));
  r.points.push_back(point(-5.3e4, 0.29));              // the box toss at v_z = -2.6 (issue #40)
  r.points.push_back(point(8.9, 0.0));                  // within 10 x 0.9
  r.points.push_back(point(724.0, 0.23, "max_steps"));  // failed points are not judged
  summarize_sweep(r);
  CHECK(r.stats.cfd_unreliable == 1);
  CHECK(agreement_text(r.stats, "FD")
            .find("UNRELIABLE: the straight-through CFD gradient is over 10x the plain "
                  "model's largest slope at 1 of 6 (16.7%) points") != std::string::npos);
  r.straight_through_cfd = false;  // other sweeps: not applicable
  summarize_sweep(r);
  CHECK(r.stats.cfd_unreliable == -1);
  CHECK(agreement_text(r.stats, "FD").find("UNRELIABLE") == std::string::npos);
  SweepResult misses;  // FD zero everywhere: no scale to judge by
  misses.straight_through_cfd = true;
  misses.points = {point(0.3, 0.0), point(-2.0, 0.0)};
  summarize_sweep(misses);
  CHECK(misses.stats.cfd_unreliable == 0);
}

TEST_CASE("a coarse straight-through CFD sweep takes the plain model's scale from its loss too") {
  // billiards at 9 points (measured): FD is 0 at every miss and 0.006 at the two hits, while CFD's gradient
  // there is up to 0.14 by design; the loss falls from 0.04 to 0.0038 between a miss and a hit 1.25 apart.
  const double values[] = {-5, -3.75, -2.5, -1.25, 0, 1.25, 2.5, 3.75, 5};
  const double losses[] = {0.04, 0.04, 0.04, 0.00377, 0.00112, 0.00377, 0.04, 0.04, 0.04};
  const double grads[] = {-0.023, -0.043, -0.145, -0.063, 0.0, 0.063, 0.145, 0.043, 0.023};
  const double fds[] = {0.0, 0.0, 0.0, -0.0058, 8.7e-6, 0.0059, 0.0, 0.0, 0.0};
  SweepResult r;
  r.straight_through_cfd = true;
  for (int i = 0; i < 9; ++i) {
    PointResult p = point(grads[i], fds[i]);
    p.value = values[i], p.loss = losses[i];
    r.points.push_back(p);
  }
  summarize_sweep(r);
  CHECK(r.stats.cfd_unreliable == 0);  // FD's scale alone (0.0059) would flag the four misses over 0.059
  r.points[2].grad = -5.3e4;           // a blown-up tangent still stands out
  summarize_sweep(r);
  CHECK(r.stats.cfd_unreliable == 1);
}
