// The papers' 1-D experiments: the elastic toy's gradient signs, the penalty toy's oscillating coarse
// gradients against a fine reference, and the falling mass's hard vs smoothed gradients.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/point_eval.hpp"
#include "engine/sweep/sweep.hpp"
#include "scene_helpers.hpp"

using namespace sg;

TEST_CASE("elastic toy: naive gradient +1, time-of-impact -1, the analytic answer -1") {
  // Loss = final height q_N. Analytically q_N = 2 - q0 for any q0 < 2 that bounces: dq_N/dq0 = -1.
  const std::vector<std::string> base = {"loss.terms.0.kind=value", "loss.terms.0.target=0",
                                         "sweep.from=0.05", "sweep.to=1.9", "sweep.points=101"};
  std::vector<std::string> naive = base, toi = base;
  toi.push_back("contact.elastic.toi=true");
  const SweepResult rn = run_sweep(test::shipped("toy_elastic.json", naive));
  const SweepResult rt = run_sweep(test::shipped("toy_elastic.json", toi));
  for (std::size_t i = 0; i < rn.points.size(); ++i) {
    const double q0 = rn.points[i].value;
    CHECK(rn.points[i].grad == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(rt.points[i].grad == doctest::Approx(-1.0).epsilon(1e-12));
    CHECK(rt.points[i].loss == doctest::Approx(2.0 - q0).epsilon(1e-9));  // TOI is exact here
  }
}

TEST_CASE("penalty toy: coarse gradients oscillate with sign flips, fine and adaptive ones match a fine FD") {
  const std::vector<std::string> range = {"sweep.from=0.2", "sweep.to=1.6", "sweep.points=141"};
  const SweepResult coarse = run_sweep(test::shipped("toy_point_mass.json", range));
  int flips = 0;
  for (std::size_t i = 1; i < coarse.points.size(); ++i)
    flips += (coarse.points[i].grad > 0) != (coarse.points[i - 1].grad > 0);
  CHECK(flips >= 20);  // one flip or more per coarse step the impact moves across

  // Reference: central FD (eps 1e-6) of the fine simulation (h = 1e-4). The damper switches on
  // abruptly at contact, so even the fine loss jumps by O(h) wherever the contact time crosses a step:
  // every 1e-4 in q0. The points below sit between those jumps.
  std::vector<std::string> fine = {"integrator.substeps=1000"};
  std::vector<std::string> adaptive = {"integrator.type=tsit5", "integrator.rtol=1e-8",
                                       "integrator.atol=1e-8"};
  PointEvaluator fine_eval(test::shipped("toy_point_mass.json", fine));
  PointEvaluator adaptive_eval(test::shipped("toy_point_mass.json", adaptive));
  PointEvaluator coarse_eval(test::shipped("toy_point_mass.json"));
  int coarse_wrong = 0;
  for (double q0 = 0.23005; q0 < 1.6; q0 += 0.1) {
    const PointResult ref = fine_eval.evaluate(q0);
    INFO("q0 = " << q0 << ": fine AD " << ref.grad << ", fine FD " << ref.grad_fd);
    CHECK(ref.grad == doctest::Approx(ref.grad_fd).epsilon(1e-6));
    const double adaptive_grad = adaptive_eval.loss_and_grad(q0).grad;
    CHECK(adaptive_grad == doctest::Approx(ref.grad_fd).epsilon(2e-3));
    coarse_wrong += std::fabs(coarse_eval.loss_and_grad(q0).grad - ref.grad_fd) > 0.5;
  }
  CHECK(coarse_wrong >= 7);  // most coarse gradients are far off
}

TEST_CASE("penalty toy, fine preset: FD with a step of h shows no spike over the whole sweep") {
  // The toy_fine preset (gui/document/presets.cpp) sets gradient.fd_eps=1e-4: with the scene's 1e-6, FD steps
  // across the O(h) jumps of the fine loss and spikes to +-62 at 46 of the 2000 points (measured), which a
  // plot's autofit then scales to, flattening the +-0.8 curve the preset is about.
  const SweepResult fine =
      run_sweep(test::shipped("toy_point_mass.json", {"integrator.substeps=1000", "gradient.fd_eps=1e-4"}));
  REQUIRE(fine.points.size() == 2000);
  for (const auto& p : fine.points) {
    INFO("q0 = " << p.value << ": AD " << p.grad << ", FD " << p.grad_fd);
    CHECK(std::fabs(p.grad) <= 1.0 + 1e-9);
    CHECK(std::fabs(p.grad_fd) <= 1.5);
  }
}

TEST_CASE("falling mass: the hard gradient is zero where the smoothed one is informative") {
  // Loss: the final vertical velocity. Heights below about 1.226 m land (final velocity 0), above they
  // still fall (-4.905 m/s): a jump between flat pieces.
  const std::vector<std::string> velocity = {"loss.terms.0.quantity=velocity", "sweep.from=1.15",
                                             "sweep.to=1.3", "sweep.points=301",
                                             "gradient.smoothing.samples=0"};
  std::vector<std::string> smooth = velocity;
  smooth.push_back("contact.hard.kappa=300");
  const SweepResult hard = run_sweep(test::shipped("falling_mass.json", velocity));
  const SweepResult soft = run_sweep(test::shipped("falling_mass.json", smooth));
  double largest_hard = 0.0, largest_soft = 0.0;
  int informative = 0;
  for (std::size_t i = 0; i < hard.points.size(); ++i) {
    largest_hard = std::max(largest_hard, std::fabs(hard.points[i].grad));
    largest_soft = std::max(largest_soft, std::fabs(soft.points[i].grad));
    const PointResult& s = soft.points[i];
    if (std::fabs(s.grad) > 1.0) {
      ++informative;
      CHECK(s.grad == doctest::Approx(s.grad_fd).epsilon(1e-5));  // informative and unbiased
    }
  }
  CHECK(largest_hard == 0.0);  // the hard model's velocity is flat in the height on both sides
  CHECK(largest_soft > 10.0);
  CHECK(informative >= 3);
  // The loss itself jumps under the hard model.
  double biggest_jump = 0.0;
  for (std::size_t i = 1; i < hard.points.size(); ++i)
    biggest_jump = std::max(biggest_jump, std::fabs(hard.points[i].loss - hard.points[i - 1].loss));
  CHECK(biggest_jump > 1.0);
}

TEST_CASE("falling mass: randomized smoothing, first order is biased to zero, zeroth order sees the jump") {
  const SweepResult r = run_sweep(
      test::shipped("falling_mass.json",
                    {"loss.terms.0.quantity=velocity", "sweep.from=1.226", "sweep.to=1.226", "sweep.points=1",
                     "gradient.smoothing.samples=400", "gradient.smoothing.sigma=0.1"}));
  const PointResult& p = r.points[0];
  CHECK(p.grad_first == 0.0);             // average of exact hard gradients: all zero
  CHECK(std::fabs(p.grad_zeroth) > 5.0);  // the jump of ~4.9 over a sigma of 0.1 shows up
  CHECK(p.grad_zeroth < 0.0);             // higher start: still falling, more negative velocity
}

namespace {

// Sign changes of the velocity gradient over the heights that land (below about 1.23 m).
int sign_flips_where_it_lands(const SweepResult& r) {
  int flips = 0;
  for (std::size_t i = 1; i < r.points.size(); ++i)
    if (r.points[i].value < 1.25 && r.points[i].grad * r.points[i - 1].grad < 0.0) ++flips;
  return flips;
}

double most_negative(const SweepResult& r, double PointResult::*field) {
  double lowest = 0.0;
  for (const PointResult& p : r.points) lowest = std::min(lowest, p.*field);
  return lowest;
}

}  // namespace

TEST_CASE("falling mass: kappa 30 gives the paper's smooth gradient, kappa 300 at dt 0.01 oscillates") {
  // The analytic-smoothing paper's Fig. 3: the smoothed velocity gradient is a smooth dip close to what
  // randomized smoothing of the hard model gives. At the scene's dt = 0.01 the mass lands at up to 5 m/s, 5
  // cm a step: kappa 300's sigmoid ramp (a few mm) is crossed within one step, so the gradient samples it and
  // flips sign tens of times with spikes (measured: 70 flips, down to -390); kappa 30's ramp spans a step
  // (measured: 2 flips, down to -35 against the randomized estimate's -24). The presets follow this.
  const std::vector<std::string> velocity = {"loss.terms.0.quantity=velocity",
                                             "gradient.smoothing.samples=0"};
  auto with_kappa = [&](const char* kappa) {
    std::vector<std::string> sets = velocity;
    sets.push_back(std::string("contact.hard.kappa=") + kappa);
    return run_sweep(test::shipped("falling_mass.json", sets));
  };
  const SweepResult k30 = with_kappa("30"), k300 = with_kappa("300");
  // Randomized smoothing (zeroth order, the scene's 32 samples of sigma 0.1) of the hard model.
  const SweepResult randomized =
      run_sweep(test::shipped("falling_mass.json", {"loss.terms.0.quantity=velocity"}));
  const double randomized_dip = most_negative(randomized, &PointResult::grad_zeroth);
  REQUIRE(randomized_dip < -10.0);
  CHECK(sign_flips_where_it_lands(k30) <= 3);
  CHECK(most_negative(k30, &PointResult::grad) > 2.0 * randomized_dip);  // within a factor 2 of its depth
  CHECK(most_negative(k30, &PointResult::grad) < 0.5 * randomized_dip);
  CHECK(sign_flips_where_it_lands(k300) >= 20);                           // the contrast preset
  CHECK(most_negative(k300, &PointResult::grad) < 4.0 * randomized_dip);  // spikes far below it
  for (const SweepResult* r : {&k30, &k300}) CHECK(r->stats.off == 0);    // still the simulator's derivative
}
