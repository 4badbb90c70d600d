#pragma once
// The numbers of one sweep point, computed the same way by the CPU's PointEvaluator and by a GPU thread
// (engine/sweep/device_runner.hpp): the AD run, the central finite difference of two plain runs, and the
// tight reference of gradient.reference. Plain data only: which run failed is a code with its solver
// statistics, and the host turns it into the status text (point_eval.cpp).
#include <cmath>

#include "engine/core/platform.hpp"
#include "engine/integrate/observer.hpp"
#include "engine/integrate/settings.hpp"
#include "engine/problem/problem_data.hpp"

namespace sg {

// Loss value and derivative of one run, with its solve statistics.
struct LossSample {
  double loss = 0.0;
  double grad = 0.0;
  SolveStats stats;
};

// The loss (NaN unless the run succeeded) and, for a dual run, its derivative along lane 0 (NaN unless
// the run succeeded); a loss whose derivative alone overflowed is still worth showing.
template <class S>
SG_HD LossSample loss_sample(const SolveStats& stats, const S& loss) {
  LossSample out;
  out.stats = stats;
  const bool ok = stats.status == Status::ok;
  const bool loss_ok =
      ok || (stats.status == Status::nonfinite_gradient && std::fabs(value(loss)) < INFINITY);
  out.loss = loss_ok ? value(loss) : NAN;
  out.grad = NAN;
  if constexpr (is_dual_v<S>) {
    if (ok) out.grad = loss.d[0];
  }
  return out;
}

// Which run stopped a point (the first failure wins); the status text names it.
enum class PointFailure : unsigned char {
  none,
  ad,                   // the AD run (its status)
  fd_plus,              // the plain run at x + eps
  fd_minus,             // the plain run at x - eps
  fd_nonfinite,         // both ran, their difference overflowed
  fd_unresolved,        // x + eps and x - eps are not 2 eps apart in double: eps is below x's precision
  reference_ad,         // gradient.reference ad_tight
  reference_plus,       // fd_tight at x + eps
  reference_minus,      // fd_tight at x - eps
  reference_nonfinite,  // fd_tight's difference overflowed
};

struct PointNumbers {
  double value = 0.0, loss = 0.0, grad = 0.0, grad_fd = 0.0;
  double grad_ref = NAN;                     // NaN with the default reference (grad_fd is the reference)
  long steps = 0, rejected = 0, events = 0;  // of the AD run
  PointFailure failure = PointFailure::none;
  SolveStats failed;  // the failed run's statistics
};

// What a point needs besides its runs: the scene's and the tight integrator settings, the FD step and the
// reference.
struct PointSettings {
  IntegratorSettings integrator;
  IntegratorSettings tight;
  double fd_eps = 1e-6;
  Reference reference = Reference::fd;
};

// A point's runs, each independent of the others (the GPU gives each its own thread): 0 the AD run, 1 and 2
// the plain runs at x + eps and x - eps, then the tight reference's (ad_tight: an AD run; fd_tight: plain
// runs at x + eps and x - eps).
SG_HD inline int point_run_count(const PointSettings& s) {
  return s.reference == Reference::fd ? 3 : s.reference == Reference::ad_tight ? 4 : 5;
}

// Run k of a point: whether it is an AD run, the sweep value it runs at and its integrator settings. The
// GPU groups a sweep's runs by these (a kernel per scalar type), the CPU runs them through point_run.
SG_HD inline bool point_run_is_ad(const PointSettings& s, int k) {
  return k == 0 || (k == 3 && s.reference == Reference::ad_tight);
}
// How far run k moves the sweep value: +fd_eps, -fd_eps or 0 (x - eps is x + (-eps) in IEEE arithmetic).
SG_HD inline double point_run_shift(const PointSettings& s, int k) {
  if (k == 1 || (k == 3 && s.reference != Reference::ad_tight)) return s.fd_eps;
  if (k == 2 || k == 4) return -s.fd_eps;
  return 0.0;
}
SG_HD inline double point_run_value(double x, const PointSettings& s, int k) {
  const double shift = point_run_shift(s, k);
  return shift == 0.0 ? x : x + shift;
}
SG_HD inline bool point_run_is_tight(int k) {
  return k >= 3;
}
SG_HD inline const IntegratorSettings& point_run_settings(const PointSettings& s, int k) {
  return point_run_is_tight(k) ? s.tight : s.integrator;
}

// Run k of the point at x. runner.ad(x, cfg) and runner.plain(x, cfg) return the LossSample of one run at
// sweep value x (loss NaN unless it succeeded; ad's derivative with respect to x).
template <class Runner>
SG_HD LossSample point_run(Runner& runner, double x, const PointSettings& s, int k) {
  const double at = point_run_value(x, s, k);
  const IntegratorSettings& cfg = point_run_settings(s, k);
  return point_run_is_ad(s, k) ? runner.ad(at, cfg) : runner.plain(at, cfg);
}

// The point's numbers from its first `count` runs. The reference's runs are read only when all
// point_run_count(s) are there and the first three succeeded.
SG_HD inline PointNumbers combine_point(double x, const PointSettings& s, const LossSample* runs, int count) {
  PointNumbers n;
  n.value = x;
  auto fail = [&n](PointFailure why, const SolveStats& st) {
    if (n.failure != PointFailure::none) return;
    n.failure = why;
    n.failed = st;
  };
  const LossSample& main = runs[0];
  n.loss = main.loss;
  n.grad = main.grad;
  n.steps = main.stats.accepted;
  n.rejected = main.stats.rejected;
  n.events = main.stats.events;
  if (main.stats.status != Status::ok) fail(PointFailure::ad, main.stats);

  const double eps = s.fd_eps;
  const LossSample& plus = runs[1];
  const LossSample& minus = runs[2];
  n.grad_fd = (plus.loss - minus.loss) / (2.0 * eps);
  if (plus.stats.status != Status::ok) fail(PointFailure::fd_plus, plus.stats);
  if (minus.stats.status != Status::ok) fail(PointFailure::fd_minus, minus.stats);
  if (!(n.grad_fd == n.grad_fd && std::fabs(n.grad_fd) <= 1.7976931348623157e308))
    fail(PointFailure::fd_nonfinite, SolveStats{});
  // The quotient divides by 2 eps: where x +- eps rounds to other values (eps below x's precision, e.g.
  // fd_eps 1e-300) it is no derivative at all (0, or 1e298).
  const double spread = (x + eps) - (x - eps);
  if (!(std::fabs(spread - 2.0 * eps) <= 1e-3 * 2.0 * eps)) fail(PointFailure::fd_unresolved, SolveStats{});

  if (s.reference == Reference::fd || n.failure != PointFailure::none || count < point_run_count(s)) return n;
  if (s.reference == Reference::ad_tight) {
    const LossSample& ref = runs[3];
    n.grad_ref = ref.grad;
    if (ref.stats.status != Status::ok) fail(PointFailure::reference_ad, ref.stats);
    return n;
  }
  const LossSample& ref_plus = runs[3];
  const LossSample& ref_minus = runs[4];
  n.grad_ref = (ref_plus.loss - ref_minus.loss) / (2.0 * eps);
  if (ref_plus.stats.status != Status::ok) fail(PointFailure::reference_plus, ref_plus.stats);
  if (ref_minus.stats.status != Status::ok) fail(PointFailure::reference_minus, ref_minus.stats);
  if (!(n.grad_ref == n.grad_ref && std::fabs(n.grad_ref) <= 1.7976931348623157e308))
    fail(PointFailure::reference_nonfinite, SolveStats{});
  return n;
}

// All of a point's runs on one runner, in order; the reference's only when the first three succeeded.
template <class Runner>
SG_HD PointNumbers evaluate_point(Runner& runner, double x, const PointSettings& s) {
  LossSample runs[5];
  for (int k = 0; k < 3; ++k) runs[k] = point_run(runner, x, s, k);
  const PointNumbers first = combine_point(x, s, runs, 3);
  if (s.reference == Reference::fd || first.failure != PointFailure::none) return first;
  const int count = point_run_count(s);
  for (int k = 3; k < count; ++k) runs[k] = point_run(runner, x, s, k);
  return combine_point(x, s, runs, count);
}

}  // namespace sg
