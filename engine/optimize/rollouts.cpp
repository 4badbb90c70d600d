#include "engine/optimize/rollouts.hpp"

#include <algorithm>
#include <limits>

#include "engine/gradient/helper_threads.hpp"

namespace sg {

void Rollouts::add(const Problem& problem, const std::vector<std::string>& paths,
                   const TrajectoryData* data) {
  members_.push_back({std::make_unique<ParameterGradient>(problem, paths, data), 1.0});
  counts_.push_back(data ? data->count : 0);
  const double total = static_cast<double>(samples());
  for (std::size_t k = 0; k < members_.size(); ++k)
    members_[k].weight = total > 0.0 ? static_cast<double>(counts_[k]) / total : 1.0;
}

void Rollouts::set_threads(int threads) {
  threads_ = std::max(1, threads);
  for (Member& m : members_) m.gradient->set_threads(members_.size() > 1 ? 1 : threads_);
}

void Rollouts::each_rollout(const std::function<void(std::size_t)>& job) {
  for_each_index(members_.size(), threads_, [&](std::size_t k, int) { job(k); });
}

long Rollouts::samples() const {
  long n = 0;
  for (long c : counts_) n += c;
  return n;
}

double Rollouts::objective(const std::vector<double>& values, SolveStats* stats) {
  std::vector<double> each(members_.size());
  std::vector<SolveStats> st(members_.size());
  each_rollout([&](std::size_t k) { each[k] = members_[k].gradient->objective(values, &st[k]); });
  double sum = 0.0;
  for (std::size_t k = 0; k < members_.size(); ++k) {
    sum += members_[k].weight * each[k];
    if (stats && (k == 0 || st[k].status != Status::ok)) *stats = st[k];
  }
  return sum;  // NaN when a rollout failed
}

ObjectiveGradient Rollouts::combine(const std::vector<double>& values, bool reverse) {
  ObjectiveGradient out;
  out.grad.assign(values.size(), 0.0);
  std::vector<ObjectiveGradient> each(members_.size());
  each_rollout([&](std::size_t k) {
    ParameterGradient& g = *members_[k].gradient;
    each[k] = reverse ? g.reverse(values) : g.forward(values);
  });
  for (std::size_t k = 0; k < members_.size(); ++k) {
    const ObjectiveGradient& r = each[k];
    const double w = members_[k].weight;
    out.runs += r.runs;
    if (k == 0) out.stats = r.stats;
    if (r.status != "ok" && out.status == "ok") {
      out.status = members_.size() > 1 ? "rollout " + std::to_string(k) + ": " + r.status : r.status;
      out.stats = r.stats;
    }
    out.loss += w * r.loss;
    for (std::size_t j = 0; j < values.size(); ++j) out.grad[j] += w * r.grad[j];
  }
  if (out.status != "ok") out.loss = std::numeric_limits<double>::quiet_NaN();
  return out;
}

ObjectiveGradient Rollouts::forward(const std::vector<double>& values) {
  return combine(values, false);
}

ObjectiveGradient Rollouts::reverse(const std::vector<double>& values) {
  return combine(values, true);
}

// The rollouts' residuals one after the other: sum of squares / samples is the combined objective.
ResidualJacobian Rollouts::residuals(const std::vector<double>& values) {
  ResidualJacobian out;
  std::vector<ResidualJacobian> each(members_.size());
  each_rollout([&](std::size_t k) { each[k] = members_[k].gradient->residuals(values); });
  for (std::size_t k = 0; k < members_.size(); ++k) {
    const ResidualJacobian& r = each[k];
    out.runs += r.runs;
    if (r.status != "ok") {
      out.status = members_.size() > 1 ? "rollout " + std::to_string(k) + ": " + r.status : r.status;
      return out;
    }
    out.r.insert(out.r.end(), r.r.begin(), r.r.end());
    out.J.insert(out.J.end(), r.J.begin(), r.J.end());
    out.samples += r.samples;
  }
  return out;
}

}  // namespace sg
