#include "engine/gradient/parameter_gradient.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>

#include "engine/gradient/backsolve_adjoint.hpp"
#include "engine/gradient/checkpointed_adjoint.hpp"
#include "engine/gradient/helper_threads.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/gradient/running_loss.hpp"
#include "engine/scene/suggest.hpp"

namespace sg {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kThreadFailed = "a run could not get memory on its thread";

bool is_mass_path(const std::string& path) {
  const std::string tail = ".mass";
  return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
}

// Calls run(observer, loss_of, twin's observer, twin's loss_of) with the objective's observer and loss on the
// taped problem and on its double twin (checkpointed_adjoint's values-only pass): the mean squared mismatch
// against trajectory data, the scene's loss averaged over the output steps (running), or no observer and the
// scene's loss on the final state.
template <class F>
auto with_objective(const TrajectoryData* data, bool running, long outputs, const ProblemData<Rev>& pd,
                    const ProblemData<double>& twin, F&& run) {
  if (running && !data) {
    RunningLoss<Rev> obs;
    RunningLoss<double> twin_obs;
    obs.loss = &pd.loss, twin_obs.loss = &twin.loss;
    obs.outputs = twin_obs.outputs = outputs;
    return run(
        obs, [](const auto&, const Rev*, RunningLoss<Rev>& o) { return o.mean(); }, twin_obs,
        [](const auto&, const double*, RunningLoss<double>& o) { return o.mean(); });
  }
  if (data) {
    DataMismatch<Rev> obs;
    DataMismatch<double> twin_obs;
    obs.data = twin_obs.data = data;
    return run(
        obs, [](const auto&, const Rev*, DataMismatch<Rev>& o) { return o.mean(); }, twin_obs,
        [](const auto&, const double*, DataMismatch<double>& o) { return o.mean(); });
  }
  NullObserver obs, twin_obs;
  return run(obs, final_state_loss(pd), twin_obs, final_state_loss(twin));
}

}  // namespace

ParameterGradient::ParameterGradient(const Problem& problem, std::vector<std::string> paths,
                                     const TrajectoryData* data)
    : paths_(std::move(paths)),
      base_(problem.data),
      base_lanes_(convert_problem<Lanes>(problem.data)),
      checkpoint_steps_(problem.gradient.checkpoint_steps),
      integrator_(problem.integrator),
      data_(data),
      ws_double_(std::make_unique<SimWorkspace<double>>()) {
  base_rev_ = std::make_unique<ProblemData<Rev>>(convert_problem<Rev>(problem.data));
  if (paths_.empty()) throw std::invalid_argument("--wrt: no parameter given");
  const std::vector<std::string> known = differentiable_parameters(problem);
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    const std::string& p = paths_[i];
    if (std::find(paths_.begin(), paths_.begin() + static_cast<std::ptrdiff_t>(i), p) !=
        paths_.begin() + static_cast<std::ptrdiff_t>(i))
      throw std::invalid_argument(p + ": given twice");
    const std::ptrdiff_t od = parameter_offset(base_, p), ol = parameter_offset(base_lanes_, p);
    if (od < 0 || ol < 0) {
      std::string message = p + ": not a differentiable number of this scene";
      if (const auto near = scene::nearest(p, known)) message += " (nearest: " + *near + ")";
      throw std::invalid_argument(message);
    }
    if (is_mass_path(p) && parameter_at(base_, od) == 0.0)
      throw std::invalid_argument(p +
                                  ": is 0, which means the mass comes from the shape and the density; set a "
                                  "mass to differentiate with respect to it, or use the density");
    offset_double_.push_back(od);
    offset_lanes_.push_back(ol);
    offset_rev_.push_back(parameter_offset(*base_rev_, p));
  }
}

void ParameterGradient::set_base(const ProblemData<double>& data) {
  base_ = data;
  base_lanes_ = convert_problem<Lanes>(data);
  *base_rev_ = convert_problem<Rev>(data);
}

void ParameterGradient::set_fixed_paths(const std::vector<std::string>& paths) {
  fixed_double_.clear(), fixed_lanes_.clear(), fixed_rev_.clear();
  for (const std::string& p : paths) {
    const std::ptrdiff_t od = parameter_offset(base_, p), ol = parameter_offset(base_lanes_, p),
                         orv = parameter_offset(*base_rev_, p);
    if (od < 0 || ol < 0 || orv < 0) throw std::invalid_argument(p + ": not a number of this scene");
    if (std::find(paths_.begin(), paths_.end(), p) != paths_.end())
      throw std::invalid_argument(p + ": fitted, so it cannot also be set from the data");
    fixed_double_.push_back(od), fixed_lanes_.push_back(ol), fixed_rev_.push_back(orv);
  }
  fixed_values_.clear();
  for (std::ptrdiff_t o : fixed_double_) fixed_values_.push_back(parameter_at(base_, o));
}

template <class S>
void ParameterGradient::write_fixed(ProblemData<S>& pd, const std::vector<std::ptrdiff_t>& offsets) const {
  for (std::size_t k = 0; k < offsets.size() && k < fixed_values_.size(); ++k)
    parameter_at(pd, offsets[k]) = S(fixed_values_[k]);
}

std::vector<double> ParameterGradient::initial_values() const {
  ProblemData<double> copy = base_;
  std::vector<double> out;
  for (std::ptrdiff_t o : offset_double_) out.push_back(parameter_at(copy, o));
  return out;
}

template <class S>
RunOutput<S> ParameterGradient::run(ProblemData<S>& pd, SimWorkspace<S>& ws, std::vector<S>* residuals) {
  if (!data_ && !running_) {
    NullObserver obs;
    return run_simulation(pd, integrator_, ws, obs);
  }
  RunOutput<S> out;
  if (data_) {
    DataMismatch<S> obs;
    obs.data = data_;
    obs.residuals = residuals;
    out = run_simulation(pd, integrator_, ws, obs);
    out.loss = obs.mean();
  } else {
    RunningLoss<S> obs;
    obs.loss = &pd.loss;
    obs.outputs = integrator_.steps;
    out = run_simulation(pd, integrator_, ws, obs);
    out.loss = obs.mean();
  }
  if (out.stats.status != Status::ok) return out;
  if (!std::isfinite(value(out.loss)))
    out.stats.status = Status::nonfinite_loss;
  else if (!isfinite(out.loss))
    out.stats.status = Status::nonfinite_gradient;
  return out;
}

ProblemData<double> ParameterGradient::double_problem(const std::vector<double>& values) const {
  ProblemData<double> pd = base_;
  write_fixed(pd, fixed_double_);
  for (std::size_t j = 0; j < paths_.size(); ++j) parameter_at(pd, offset_double_[j]) = values[j];
  return pd;
}

double ParameterGradient::objective(const std::vector<double>& values, SolveStats* stats) {
  ProblemData<double> pd = double_problem(values);
  const RunOutput<double> r = run(pd, *ws_double_);
  if (stats) *stats = r.stats;
  return r.stats.status == Status::ok ? r.loss : kNaN;
}

ProblemData<ParameterGradient::Lanes> ParameterGradient::seeded_chunk(const std::vector<double>& values,
                                                                      std::size_t first) const {
  ProblemData<Lanes> pd = base_lanes_;
  write_fixed(pd, fixed_lanes_);
  const std::size_t n = paths_.size(), last = std::min(n, first + kLanes);
  for (std::size_t j = 0; j < n; ++j)
    parameter_at(pd, offset_lanes_[j]) =
        j >= first && j < last ? seeded<Lanes>(values[j], static_cast<int>(j - first)) : Lanes(values[j]);
  return pd;
}

bool ParameterGradient::for_each_run(std::size_t count, const std::function<void(std::size_t, int)>& job) {
  const std::size_t lanes =
      std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(threads_), count));
  while (ws_lanes_.size() < lanes) ws_lanes_.push_back(std::make_unique<SimWorkspace<Lanes>>());
  while (ws_fd_.size() < lanes) ws_fd_.push_back(std::make_unique<SimWorkspace<double>>());
  try {
    for_each_index(count, threads_, job);
  } catch (...) {
    return false;
  }
  return true;
}

ObjectiveGradient ParameterGradient::forward(const std::vector<double>& values) {
  ObjectiveGradient out;
  out.grad.assign(paths_.size(), kNaN);
  const std::size_t n = paths_.size(), chunks = (n + kLanes - 1) / kLanes;
  std::vector<SolveStats> stats(chunks);
  double loss = kNaN;
  const bool ran = for_each_run(chunks, [&](std::size_t c, int thread) {
    const std::size_t first = c * kLanes, last = std::min(n, first + kLanes);
    ProblemData<Lanes> pd = seeded_chunk(values, first);
    const RunOutput<Lanes> r = run(pd, *ws_lanes_[static_cast<std::size_t>(thread)]);
    stats[c] = r.stats;
    if (c == 0 && std::isfinite(r.loss.v)) loss = r.loss.v;
    if (r.stats.status != Status::ok) return;
    for (std::size_t j = first; j < last; ++j) out.grad[j] = r.loss.d[j - first];
  });
  out.runs = static_cast<long>(chunks);
  if (chunks == 0) return out;
  out.stats = stats[0];
  out.loss = loss;
  for (const SolveStats& s : stats)
    if (s.status != Status::ok && out.status == "ok") out.status = describe_failure(s);
  if (!ran && out.status == "ok") out.status = kThreadFailed;
  if (out.status != "ok" && out.stats.status != Status::ok) out.loss = kNaN;
  return out;
}

ObjectiveGradient ParameterGradient::reverse(const std::vector<double>& values) {
  ObjectiveGradient out;
  const std::size_t n = paths_.size();
  out.grad.assign(n, kNaN);
  out.loss = kNaN;
  if (integrator_.through_controller && is_adaptive(integrator_.method)) {
    out.status =
        "reverse mode differentiates frozen step sizes: set gradient.through_controller=false (or "
        "use forward mode)";
    return out;
  }
  std::vector<int> leaf;
  const std::unique_ptr<ProblemData<Rev>> pd = taped_problem(values, &leaf);
  const ProblemData<double> twin = double_problem(values);
  const AdjointRun r = with_objective(
      data_, running_, integrator_.steps, *pd, twin,
      [&](auto& obs, auto loss_of, auto& twin_obs, auto twin_loss) {
        return checkpointed_adjoint(*pd, values_twin(twin, *ws_double_, twin_obs, twin_loss), integrator_,
                                    *ws_rev_, obs, loss_of, leaf, checkpoint_steps_, threads_);
      });
  RevTape::current().clear();
  out.runs = 1;
  out.stats = r.stats;
  tape_nodes_ = r.peak_nodes;
  tape_bytes_ = r.peak_bytes();
  segments_ = r.segments;
  if (r.stats.status != Status::ok) {
    out.status = describe_failure(r.stats);
    return out;
  }
  out.loss = r.loss;
  copy_gradient(r.grad, out);
  return out;
}

std::unique_ptr<ProblemData<Rev>> ParameterGradient::taped_problem(const std::vector<double>& values,
                                                                   std::vector<int>* leaves) {
  if (!ws_rev_) ws_rev_ = std::make_unique<SimWorkspace<Rev>>();
  RevTape& tape = RevTape::current();
  tape.clear();
  tape.reserve(static_cast<std::size_t>(tape_nodes_) + static_cast<std::size_t>(tape_nodes_) / 4 + 1024);
  auto pd = std::make_unique<ProblemData<Rev>>(*base_rev_);
  write_fixed(*pd, fixed_rev_);
  leaves->assign(paths_.size(), 0);
  for (std::size_t j = 0; j < paths_.size(); ++j) {
    Rev& slot = parameter_at(*pd, offset_rev_[j]);
    slot = Rev::variable(values[j]);
    (*leaves)[j] = slot.i;
  }
  return pd;
}

void ParameterGradient::copy_gradient(const std::vector<double>& grad, ObjectiveGradient& out) const {
  for (std::size_t j = 0; j < paths_.size(); ++j) {
    out.grad[j] = grad[j];
    if (!std::isfinite(out.grad[j]) && out.status == "ok") {
      out.stats.status = Status::nonfinite_gradient;
      out.status = "nonfinite_gradient: d loss / d " + paths_[j] + " overflowed";
    }
  }
}

ObjectiveGradient ParameterGradient::backsolve(const std::vector<double>& values) {
  ObjectiveGradient out;
  out.grad.assign(paths_.size(), kNaN);
  out.loss = kNaN;
  out.runs = 1;
  reconstruction_ = kNaN;
  backward_ = SolveStats{};
  if (!is_adaptive(integrator_.method)) {
    out.status = "backsolve needs an adaptive integrator (integrator.type = tsit5, dopri5, dopri8 or bosh3)";
    return out;
  }
  if (integrator_.through_controller) {
    out.status = "backsolve differentiates frozen step sizes: set gradient.through_controller=false";
    return out;
  }
  std::vector<int> leaf;
  const std::unique_ptr<ProblemData<Rev>> pd = taped_problem(values, &leaf);
  const ProblemData<double> twin = double_problem(values);
  const BacksolveRun r = with_objective(
      data_, running_, integrator_.steps, *pd, twin, [&](auto& obs, auto loss_of, auto&, auto) {
        return backsolve_adjoint(*pd, integrator_, *ws_rev_, obs, loss_of, leaf);
      });
  RevTape::current().clear();
  out.stats = r.forward;
  backward_ = r.backward;
  reconstruction_ = r.reconstruction_error;
  if (r.forward.status != Status::ok) {
    out.status = describe_failure(r.forward);
    return out;
  }
  out.loss = r.loss;
  if (r.backward.status != Status::ok) {
    out.status = std::string("the backward (adjoint) solve: ") + status_name(r.backward.status) + " after " +
                 std::to_string(r.backward.accepted) + " accepted and " +
                 std::to_string(r.backward.rejected) + " rejected steps";
    return out;
  }
  copy_gradient(r.grad, out);
  return out;
}

ResidualJacobian ParameterGradient::residuals(const std::vector<double>& values) {
  ResidualJacobian out;
  if (!data_) {
    out.status = "residuals need trajectory data";
    return out;
  }
  const std::size_t n = paths_.size(), m = static_cast<std::size_t>(residual_count(*data_));
  out.r.assign(m, kNaN);
  out.J.assign(m * n, kNaN);
  out.samples = data_->count;
  const std::size_t chunks = (n + kLanes - 1) / kLanes;
  std::vector<SolveStats> stats(chunks);
  std::vector<char> failed(chunks, 0);
  const bool ran = for_each_run(chunks, [&](std::size_t c, int thread) {
    const std::size_t first = c * kLanes, last = std::min(n, first + kLanes);
    ProblemData<Lanes> pd = seeded_chunk(values, first);
    std::vector<Lanes> res;
    res.reserve(m);
    const RunOutput<Lanes> r = run(pd, *ws_lanes_[static_cast<std::size_t>(thread)], &res);
    stats[c] = r.stats;
    if (r.stats.status != Status::ok || res.size() != m) {
      failed[c] = 1;
      return;
    }
    for (std::size_t i = 0; i < m; ++i) {
      if (c == 0) out.r[i] = res[i].v;  // every chunk's values are the same run's
      for (std::size_t j = first; j < last; ++j) out.J[i * n + j] = res[i].d[j - first];
    }
  });
  out.runs = static_cast<long>(chunks);
  for (std::size_t c = 0; c < chunks; ++c)
    if (failed[c]) {
      out.status = describe_failure(stats[c]);
      return out;
    }
  if (!ran) out.status = kThreadFailed;
  return out;
}

ObjectiveGradient ParameterGradient::finite_difference(const std::vector<double>& values, double eps) {
  ObjectiveGradient out;
  out.grad.assign(paths_.size(), kNaN);
  out.loss = objective(values, &out.stats);
  out.runs = 1;
  if (out.stats.status != Status::ok) out.status = describe_failure(out.stats);
  // Runs 2j and 2j + 1: parameter j moved by +h and -h.
  const std::size_t n = paths_.size();
  std::vector<double> moved(2 * n, kNaN);
  std::vector<SolveStats> stats(2 * n);
  const bool ran = for_each_run(2 * n, [&](std::size_t k, int thread) {
    const std::size_t j = k / 2;
    const double h = values[j] != 0.0 ? eps * std::fabs(values[j]) : eps;
    ProblemData<double> pd = double_problem(values);
    parameter_at(pd, offset_double_[j]) = k % 2 == 0 ? values[j] + h : values[j] - h;
    const RunOutput<double> r = run(pd, *ws_fd_[static_cast<std::size_t>(thread)]);
    stats[k] = r.stats;
    if (r.stats.status == Status::ok) moved[k] = r.loss;
  });
  out.runs += static_cast<long>(2 * n);
  for (std::size_t j = 0; j < n; ++j) {
    const double h = values[j] != 0.0 ? eps * std::fabs(values[j]) : eps;
    const SolveStats& bad = stats[2 * j].status != Status::ok ? stats[2 * j] : stats[2 * j + 1];
    if (bad.status != Status::ok) {
      if (out.status == "ok") out.status = paths_[j] + " +- h: " + describe_failure(bad);
      continue;
    }
    out.grad[j] = (moved[2 * j] - moved[2 * j + 1]) / (2.0 * h);
  }
  if (!ran && out.status == "ok") out.status = kThreadFailed;
  return out;
}

std::vector<std::string> all_gradient_paths(const Problem& problem, bool with_loss_targets) {
  std::vector<std::string> out;
  ProblemData<double> copy = problem.data;
  visit_problem_params(copy, [&](const std::string& name, double& slot) {
    if (is_mass_path(name) && slot == 0.0) return;
    if (!with_loss_targets && name.rfind("loss.", 0) == 0) return;
    out.push_back(name);
  });
  return out;
}

}  // namespace sg
