#pragma once
// Several rollouts of one scene fitted together (identify.rollouts): the same parameters, each rollout with
// one more scene number set differently (another throw, another tilt) and its own measurements. The
// objective is the mean squared position error over all their samples, so each rollout weighs by its sample
// count; gradients and residuals are the rollouts' own, combined. One rollout is exactly ParameterGradient.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"

namespace sg {

class Rollouts {
 public:
  // Throws std::invalid_argument as ParameterGradient does. data must outlive this.
  void add(const Problem& problem, const std::vector<std::string>& paths, const TrajectoryData* data);
  std::size_t size() const { return members_.size(); }
  const std::vector<std::string>& paths() const { return members_.front().gradient->paths(); }
  std::vector<double> initial_values() const { return members_.front().gradient->initial_values(); }
  long samples() const;
  // Several rollouts run side by side on up to `threads` threads (each rollout's runs on one); a single
  // rollout gets them all (ParameterGradient::set_threads). The numbers are the same to the last bit.
  void set_threads(int threads);

  double objective(const std::vector<double>& values, SolveStats* stats = nullptr);
  ObjectiveGradient forward(const std::vector<double>& values);
  ObjectiveGradient reverse(const std::vector<double>& values);
  ResidualJacobian residuals(const std::vector<double>& values);

 private:
  struct Member {
    std::unique_ptr<ParameterGradient> gradient;
    double weight;  // samples of this rollout / samples of all
  };
  ObjectiveGradient combine(const std::vector<double>& values, bool reverse);
  // job(k) for every rollout k, side by side when there are several and threads to spare.
  void each_rollout(const std::function<void(std::size_t)>& job);
  std::vector<Member> members_;
  std::vector<long> counts_;
  int threads_ = 1;
};

}  // namespace sg
