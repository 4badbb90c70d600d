#pragma once
// Loss and gradient sweeps over the scene's sweep parameter, in parallel on oneTBB workers. Cancellable
// and reporting progress, so the GUI can run them without waiting.
#include <atomic>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/gradient/point_eval.hpp"
#include "engine/problem/problem.hpp"

namespace sg {

struct SweepControl {
  int threads = 0;                            // 0: all cores
  const std::atomic<bool>* cancel = nullptr;  // set to stop early; unfinished points get "cancelled"
  std::atomic<long>* completed = nullptr;     // incremented per finished point
  std::function<void(long, const PointResult&)> on_point;  // called from workers as points finish
};
// Workers run no higher than the thread that calls run_sweep (engine/core/thread_priority.hpp): a GUI job
// thread lowers itself, and so its sweep's workers leave the UI thread a core.

struct SweepStats {
  long points = 0;
  double seconds = 0.0;
  double kernel_seconds = 0.0;  // GPU sweeps: time in the kernels alone (launch to synchronize), else 0
  const char* gpu_scratch = "";  // GPU sweeps: where the threads' scratch was, "local" or "global" memory
  // Against the reference (SweepResult::reference: g_fd, or the tight reference g_ref), over the `compared`
  // points: computed, both values finite, and not both zero (engine/sweep/gradient_agreement.hpp).
  long compared = 0;
  long both_zero = 0;                // AD and reference both zero: no information, left out
  double grad_rel_err_median = 0.0;  // median of |g - g_ref| / max(|g|, |g_ref|); NaN when none compared
  double sign_agreement = 0.0;       // share of compared points where sign(g) == sign(g_ref)
  long off = 0;                      // compared points with a relative difference over 10%
  long wrong_sign = 0;               // compared points where AD and the reference have opposite signs
  long steps_total = 0;
  long rejected_total = 0;
  long events_total = 0;
  long failed = 0;
  bool cancelled = false;
  // Straight-through CFD sweeps: points whose |AD| exceeds kCfdUnreliableFactor times the plain model's
  // largest slope over the sweep (its largest |FD|, or its loss's steepest secant between neighbouring points),
  // where the surrogate's tangents have blown up (docs/engine.md, "Straight-through CFD"); -1 for other sweeps.
  long cfd_unreliable = -1;
};

inline constexpr double kCfdUnreliableFactor = 10.0;

struct SweepResult {
  std::vector<PointResult> points;
  SweepStats stats;
  Reference reference = Reference::fd;  // what the stats compare the AD gradient against
  bool straight_through_cfd = false;     // the scene's CFD acts in derivatives only (SweepStats::cfd_unreliable)
};

// The gradient a point's AD value is compared against: grad_fd, or grad_ref for a tight reference.
inline double reference_gradient(const PointResult& p, Reference reference) {
  return reference == Reference::fd ? p.grad_fd : p.grad_ref;
}

SweepResult run_sweep(const Problem& problem, const SweepControl& control = {});

// The CPU threads run_sweep uses under this control (control.threads, or all cores for 0).
int sweep_cpu_threads(const SweepControl& control);

// Fills the stats that depend on all points (called by run_sweep; public for tests).
void summarize_sweep(SweepResult& result);

// The result JSON contract: "values", "loss", "grad", "grad_fd", "status", "stats", "config" (plus
// "loss_smoothed", "grad_zeroth", "grad_first" when smoothing is on, and "grad_ref" with "reference" {name,
// label} for a tight reference). Non-finite numbers become null.
nlohmann::json sweep_to_json(const Problem& problem, const SweepResult& result);

}  // namespace sg
