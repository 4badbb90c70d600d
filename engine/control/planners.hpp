#pragma once
// The two planners of softgrad mpc, each improving a plan (control knots) for the rollout from the current
// start state (the evaluators' base) and returning the best plan it evaluated.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/control/control_plan.hpp"
#include "engine/control/mpc_settings.hpp"
#include "engine/gradient/parameter_gradient.hpp"

namespace sg {

struct PlanResult {
  std::vector<double> plan;  // the best plan evaluated
  double cost = 0.0;  // its cost (the loss at the horizon's end plus mpc.effort's term); NaN when none ran
  double first_cost = 0.0;  // the cost of the plan the planner started from (the warm start)
  long best = 0;            // gradient: the Adam iterate kept (0: the warm start); sampling: the sample
                            // (0: the nominal plan)
  long evaluations = 0;     // rollouts (gradient: reverse-mode gradients; sampling: plain runs)
  double grad_norm = 0.0;   // gradient: the norm at the warm start, before clipping
  double grad_norm_max = 0.0;
  long clipped = 0;  // gradient: iterations whose gradient was clipped
  std::string status = "ok";
};

// Adam on the knots with the reverse-mode gradient of the rollout's cost, the gradient's norm clipped to
// s.clip, the knots kept in their ranges; s.iterations gradients, the best iterate kept. A failed rollout
// ends the planning step with the best iterate so far (status says why).
PlanResult plan_gradient(ParameterGradient& eval, const PlanLayout& layout, const std::vector<double>& start,
                         const MpcSettings& s);

// Predictive sampling: the nominal plan and s.samples - 1 perturbed copies (s.noise, white or brown), each
// rolled out (spread over the evaluators, one per thread), the cheapest kept (ties: the lower index, so the
// nominal plan wins a tie). The samples are drawn from rng in order before any runs, so the result does not
// depend on the threads.
PlanResult plan_sampling(std::vector<std::unique_ptr<ParameterGradient>>& evals, const PlanLayout& layout,
                         const std::vector<double>& nominal, const MpcSettings& s, std::mt19937_64& rng);

}  // namespace sg
