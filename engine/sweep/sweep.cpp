#include "engine/sweep/sweep.hpp"
#include "engine/core/caller_priority_arena.hpp"
#include "engine/gradient/reference.hpp"
#include "engine/problem/json_number.hpp"
#include "engine/sweep/gradient_agreement.hpp"
#include "engine/sweep/point_order.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sg {
namespace {

// One worker: points in `order`, each taken from the shared counter, until none is left.
void evaluate_points(const Problem& problem, const SweepControl& control, const std::vector<long>& order,
                     std::atomic<long>& next, SweepResult& result) {
  PointEvaluator eval(problem);
  const long n = static_cast<long>(order.size());
  for (long j = next.fetch_add(1); j < n; j = next.fetch_add(1)) {
    const long i = order[static_cast<std::size_t>(j)];
    PointResult& r = result.points[static_cast<std::size_t>(i)];
    if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
      r.value = problem.sweep.value_at(i);
      r.status = "cancelled";
      continue;
    }
    r = eval.evaluate(problem.sweep.value_at(i));
    if (control.completed) control.completed->fetch_add(1, std::memory_order_relaxed);
    if (control.on_point) control.on_point(i, r);
  }
}

// The plain model's gradient scale over the sweep: the largest |FD|, or the loss's steepest slope between
// neighbouring points where the points are too far apart for FD to see where the loss drops (billiards at 9
// points: FD is 0 at every miss, and 0.006 at the two hits, while the loss falls by 0.036 between a miss and
// a hit 1.25 apart).
double plain_gradient_scale(const std::vector<PointResult>& points) {
  double scale = 0.0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PointResult& p = points[i];
    if (p.status != "ok") continue;
    if (std::isfinite(p.grad_fd)) scale = std::max(scale, std::fabs(p.grad_fd));
    if (i == 0 || points[i - 1].status != "ok") continue;
    const double slope = (p.loss - points[i - 1].loss) / (p.value - points[i - 1].value);
    if (std::isfinite(slope)) scale = std::max(scale, std::fabs(slope));
  }
  return scale;
}

// Points whose straight-through AD gradient is more than kCfdUnreliableFactor times the plain model's scale
// (none when that is zero: nothing to judge by).
long count_cfd_unreliable(const std::vector<PointResult>& points) {
  const double scale = plain_gradient_scale(points);
  long n = 0;
  for (const PointResult& p : points)
    if (scale > 0.0 && p.status == "ok" && std::fabs(p.grad) > kCfdUnreliableFactor * scale) ++n;
  return n;
}

}  // namespace

void summarize_sweep(SweepResult& result) {
  SweepStats& st = result.stats;
  st.points = static_cast<long>(result.points.size());
  st.steps_total = st.rejected_total = st.events_total = st.failed = 0;
  for (const PointResult& r : result.points) {
    st.steps_total += r.steps;
    st.rejected_total += r.rejected;
    st.events_total += r.events;
    if (r.status != "ok") ++st.failed;
    if (r.status == "cancelled") st.cancelled = true;
  }
  const AgreementSummary a = summarize_agreement(result.points, result.reference);
  st.compared = a.compared;
  st.both_zero = a.both_zero;
  st.off = a.off;
  st.wrong_sign = a.wrong_sign;
  st.grad_rel_err_median = a.median;
  st.sign_agreement = a.compared ? static_cast<double>(a.same_sign) / static_cast<double>(a.compared) : 0.0;
  st.cfd_unreliable = result.straight_through_cfd ? count_cfd_unreliable(result.points) : -1;
}

int sweep_cpu_threads(const SweepControl& control) {
  return CallerPriorityArena::loop_threads(control.threads);
}

SweepResult run_sweep(const Problem& problem, const SweepControl& control) {
  const auto start = std::chrono::steady_clock::now();
  SweepResult result;
  result.reference = problem.gradient.reference;
  result.straight_through_cfd = straight_through_cfd(problem);
  const long n = problem.sweep.points;
  result.points.resize(static_cast<std::size_t>(n));
  const int threads = sweep_cpu_threads(control);
  // One evaluator (its workspaces) per worker; points are handed out one at a time from a shared counter, so
  // that a few expensive points at the end do not leave a core idle (a point is milliseconds or more), and
  // coarse to fine, so that the points done so far span the range. A point's result does not depend on which
  // evaluator ran it (tests/cli/test_determinism.cpp).
  const std::vector<long> order = coarse_to_fine(n);
  std::atomic<long> next{0};
  CallerPriorityArena arena(threads);
  arena.parallel_ranges(threads, 1, [&](int begin, int end) {
    for (int worker = begin; worker < end; ++worker) evaluate_points(problem, control, order, next, result);
  });
  summarize_sweep(result);
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

nlohmann::json sweep_to_json(const Problem& problem, const SweepResult& result) {
  using nlohmann::json;
  json values = json::array(), loss = json::array(), grad = json::array(), grad_fd = json::array();
  json grad_ref = json::array();
  json status = json::array(), loss_s = json::array(), g0 = json::array(), g1 = json::array();
  for (const PointResult& r : result.points) {
    values.push_back(r.value);
    loss.push_back(number_or_null(r.loss));
    grad.push_back(number_or_null(r.grad));
    grad_fd.push_back(number_or_null(r.grad_fd));
    grad_ref.push_back(number_or_null(r.grad_ref));
    status.push_back(r.status);
    loss_s.push_back(number_or_null(r.loss_smoothed));
    g0.push_back(number_or_null(r.grad_zeroth));
    g1.push_back(number_or_null(r.grad_first));
  }
  const SweepStats& st = result.stats;
  json out = {{"scene", problem.name},
              {"parameter", problem.sweep.parameter},
              {"values", values},
              {"loss", loss},
              {"grad", grad},
              {"grad_fd", grad_fd},
              {"status", status},
              {"stats",
               {{"points", st.points},
                {"seconds", st.seconds},
                {"grad_rel_err_median", number_or_null(st.grad_rel_err_median)},
                {"sign_agreement", st.sign_agreement},
                {"compared", st.compared},
                {"both_zero", st.both_zero},
                {"off_10pct", st.off},
                {"off_10pct_share", st.compared ? double(st.off) / double(st.compared) : 0.0},
                {"wrong_sign", st.wrong_sign},
                {"wrong_sign_share", st.compared ? double(st.wrong_sign) / double(st.compared) : 0.0},
                {"steps_total", st.steps_total},
                {"rejected_total", st.rejected_total},
                {"events_total", st.events_total},
                {"failed", st.failed},
                {"cfd_unreliable", st.cfd_unreliable}}},
              {"config", problem.config}};
  out["stats"]["reference"] = reference_name(result.reference);
  if (result.reference != Reference::fd) {
    out["grad_ref"] = grad_ref;
    out["reference"] = {
        {"name", reference_name(result.reference)},
        {"label", reference_label(problem.gradient, problem.integrator, straight_through_cfd(problem))}};
  }
  if (problem.gradient.smoothing.samples > 0) {
    out["loss_smoothed"] = loss_s;
    out["grad_zeroth"] = g0;
    out["grad_first"] = g1;
  }
  return out;
}

}  // namespace sg
