#include "engine/gradient/point_eval.hpp"

#include "engine/gradient/backsolve_adjoint.hpp"
#include "engine/gradient/checkpointed_adjoint.hpp"
#include "engine/gradient/reference.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

namespace sg {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class S>
std::ptrdiff_t slot_offset(ProblemData<S>& pd, const std::string& path) {
  const std::ptrdiff_t offset = parameter_offset(pd, path);
  if (offset < 0)
    throw std::invalid_argument("sweep.parameter: \"" + path + "\" is not a differentiable parameter");
  return offset;
}

}  // namespace

std::string describe_failure(const SolveStats& st) {
  std::ostringstream out;
  out << status_name(st.status) << " at t=" << st.t << " (step " << st.accepted + st.rejected + st.truncated
      << ")";
  return out.str();
}

PointEvaluator::PointEvaluator(const Problem& problem)
    : base_(problem.data),
      base_dual_(convert_problem<Dual1>(problem.data)),
      integrator_(problem.integrator),
      gradient_(problem.gradient),
      ws_double_(std::make_unique<SimWorkspace<double>>()),
      ws_dual_(std::make_unique<SimWorkspace<Dual1>>()) {
  settings_ = point_settings(problem);
  offset_double_ = slot_offset(base_, problem.sweep.parameter);
  sweep_parameter_ = problem.sweep.parameter;
  offset_dual_ = slot_offset(base_dual_, problem.sweep.parameter);
  const SmoothingSettings& sm = problem.gradient.smoothing;
  std::mt19937_64 rng(sm.seed);
  std::normal_distribution<double> normal(0.0, sm.sigma);
  noise_.resize(static_cast<std::size_t>(sm.samples));
  for (double& w : noise_) w = normal(rng);
}

// The problem on the tape with the swept number as its one variable (a cleared tape, reserved from the last
// run's size); *leaf is its node.
std::unique_ptr<ProblemData<Rev>> PointEvaluator::taped_problem(double x, int* leaf) {
  if (!base_rev_) {
    base_rev_ = std::make_unique<ProblemData<Rev>>(convert_problem<Rev>(base_));
    offset_rev_ = slot_offset(*base_rev_, sweep_parameter_);
    ws_rev_ = std::make_unique<SimWorkspace<Rev>>();
  }
  RevTape& tape = RevTape::current();
  tape.clear();
  tape.reserve(static_cast<std::size_t>(tape_hint_ + tape_hint_ / 4 + 1024));
  auto pd = std::make_unique<ProblemData<Rev>>(*base_rev_);
  Rev& slot = parameter_at(*pd, offset_rev_);
  slot = Rev::variable(x);
  *leaf = slot.i;
  return pd;
}

LossSample PointEvaluator::loss_and_grad_reverse(double x, const IntegratorSettings& cfg) {
  int leaf = 0;
  const std::unique_ptr<ProblemData<Rev>> pd = taped_problem(x, &leaf);
  const ProblemData<double> twin = double_problem(x);
  NullObserver obs, twin_obs;
  const AdjointRun run =
      checkpointed_adjoint(*pd, values_twin(twin, *ws_double_, twin_obs, final_state_loss(twin)), cfg,
                           *ws_rev_, obs, final_state_loss(*pd), {leaf}, gradient_.checkpoint_steps);
  RevTape::current().clear();
  tape_hint_ = run.peak_nodes;
  return taped_sample(run.stats, run.loss, run.grad[0]);
}

LossSample PointEvaluator::loss_and_grad_backsolve(double x, const IntegratorSettings& cfg) {
  int leaf = 0;
  const std::unique_ptr<ProblemData<Rev>> pd = taped_problem(x, &leaf);
  NullObserver obs;
  const BacksolveRun run = backsolve_adjoint(*pd, cfg, *ws_rev_, obs, final_state_loss(*pd), {leaf});
  tape_hint_ = RevTape::current().size();
  RevTape::current().clear();
  SolveStats stats = run.forward;
  if (stats.status == Status::ok && run.backward.status != Status::ok) {
    stats.status = run.backward.status;  // the adjoint's solve failed: the gradient is missing
    stats.t = 0.0;
  }
  return taped_sample(stats, run.loss, run.grad[0]);
}

LossSample PointEvaluator::taped_sample(const SolveStats& stats, double loss, double grad) {
  LossSample out;
  out.stats = stats;
  out.loss = stats.status == Status::ok ? loss : kNaN;
  out.grad = kNaN;
  if (stats.status == Status::ok) {
    out.grad = grad;
    if (!std::isfinite(out.grad)) out.stats.status = Status::nonfinite_gradient;
  }
  return out;
}

LossSample PointEvaluator::loss_and_grad(double x) {
  return ad(x, integrator_);
}

LossSample PointEvaluator::ad(double x, const IntegratorSettings& cfg) {
  if (gradient_.reverse) return loss_and_grad_reverse(x, cfg);
  if (gradient_.backsolve) return loss_and_grad_backsolve(x, cfg);
  return dual_run(x, cfg);
}

LossSample PointEvaluator::dual_run(double x, const IntegratorSettings& cfg) {
  ProblemData<Dual1> pd = base_dual_;
  parameter_at(pd, offset_dual_) = seeded<Dual1>(x, 0);
  NullObserver obs;
  const RunOutput<Dual1> run = run_simulation(pd, cfg, *ws_dual_, obs);
  return loss_sample(run.stats, run.loss);
}

LossSample PointEvaluator::loss_only(double x) {
  return plain(x, integrator_);
}

ProblemData<double> PointEvaluator::double_problem(double x) const {
  ProblemData<double> pd = base_;
  parameter_at(pd, offset_double_) = x;
  return pd;
}

LossSample PointEvaluator::plain(double x, const IntegratorSettings& cfg) {
  ProblemData<double> pd = double_problem(x);
  NullObserver obs;
  const RunOutput<double> run = run_simulation(pd, cfg, *ws_double_, obs);
  return loss_sample(run.stats, run.loss);
}

PointSettings point_settings(const Problem& problem) {
  return {problem.integrator, tight_integrator(problem.integrator, problem.gradient.tight),
          problem.gradient.fd_eps, problem.gradient.reference};
}

PointResult point_result(const PointNumbers& n, const GradientSettings& gradient,
                         const IntegratorSettings& integrator) {
  PointResult r;
  r.value = n.value;
  r.loss = n.loss;
  r.grad = n.grad;
  r.grad_fd = n.grad_fd;
  r.grad_ref = n.grad_ref;
  r.steps = n.steps;
  r.rejected = n.rejected;
  r.events = n.events;
  // Most points succeed: their status is the default "ok", and the failure texts are not built (on a GPU
  // sweep of 2000 toy points they took longer than the kernels).
  if (n.failure == PointFailure::none) return r;
  const std::string reference = std::string("reference ") + reference_name(gradient.reference) + " (" +
                                tight_label(integrator, gradient.tight) + ")";
  const std::string why = describe_failure(n.failed);
  switch (n.failure) {
    case PointFailure::none:
      break;
    case PointFailure::ad:
      r.status = why;
      break;
    case PointFailure::fd_plus:
      r.status = "finite difference at x+eps: " + why;
      break;
    case PointFailure::fd_minus:
      r.status = "finite difference at x-eps: " + why;
      break;
    case PointFailure::fd_nonfinite:
      r.status = "nonfinite finite difference (the losses at x +- eps overflow their difference)";
      break;
    case PointFailure::fd_unresolved: {
      char buf[200];
      std::snprintf(
          buf, sizeof buf,
          "fd_eps %g is below the precision of the value %.17g: x +- eps round to other numbers, the "
          "finite difference means nothing",
          gradient.fd_eps, r.value);
      r.status = buf;
      break;
    }
    case PointFailure::reference_ad:
      r.status = reference + ": " + why;
      break;
    case PointFailure::reference_plus:
      r.status = reference + " at x+eps: " + why;
      break;
    case PointFailure::reference_minus:
      r.status = reference + " at x-eps: " + why;
      break;
    case PointFailure::reference_nonfinite:
      r.status = reference + ": nonfinite finite difference";
      break;
  }
  return r;
}

PointResult PointEvaluator::evaluate(double x) {
  PointResult r = point_result(evaluate_point(*this, x, settings_), gradient_, integrator_);

  r.loss_smoothed = r.grad_zeroth = r.grad_first = kNaN;
  if (!noise_.empty()) {
    double sum_loss = 0.0, sum_zeroth = 0.0, sum_first = 0.0;
    std::string failed;  // the first sample run that failed
    for (double w : noise_) {
      const LossSample s = loss_and_grad(x + w);
      if (s.stats.status != Status::ok && failed.empty())
        failed = "sample at " + std::to_string(x + w) + ": " + describe_failure(s.stats);
      sum_loss += s.loss;
      sum_zeroth += (s.loss - r.loss) * w;
      sum_first += s.grad;
    }
    const double n = static_cast<double>(noise_.size());
    const double sigma = gradient_.smoothing.sigma;
    r.loss_smoothed = sum_loss / n;
    r.grad_zeroth = sum_zeroth / (n * sigma * sigma);
    r.grad_first = sum_first / n;
    // A point whose randomized-smoothing columns are not numbers is not "ok" (sigma 1e10 sends the samples
    // to absurd starts; a huge target overflows the sum).
    if (r.status == "ok" && failed.empty() &&
        !(std::isfinite(r.loss_smoothed) && std::isfinite(r.grad_zeroth) && std::isfinite(r.grad_first)))
      failed = "nonfinite estimate";
    if (r.status == "ok" && !failed.empty()) r.status = "randomized smoothing: " + failed;
  }
  return r;
}

}  // namespace sg
