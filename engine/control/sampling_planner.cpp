// The sampling planner: predictive sampling as in MuJoCo MPC (Howell et al. 2022), the baseline DiffMJX
// compares its gradient planner with.
#include <cmath>
#include <limits>

#include "engine/control/planners.hpp"
#include "engine/gradient/helper_threads.hpp"
#include "engine/gradient/point_eval.hpp"

namespace sg {

PlanResult plan_sampling(std::vector<std::unique_ptr<ParameterGradient>>& evals, const PlanLayout& layout,
                         const std::vector<double>& nominal, const MpcSettings& s, std::mt19937_64& rng) {
  std::vector<std::vector<double>> plans(static_cast<std::size_t>(s.samples));
  plans[0] = nominal;
  for (std::size_t k = 1; k < plans.size(); ++k)
    plans[k] = perturb_plan(layout, nominal, s.noise, s.noise_kind == PlanNoise::brown, rng);
  std::vector<double> cost(plans.size(), std::numeric_limits<double>::quiet_NaN());
  SolveStats nominal_stats;  // why the nominal plan's rollout failed, if it did
  for_each_index(plans.size(), static_cast<int>(evals.size()), [&](std::size_t k, int thread) {
    cost[k] = evals[thread]->objective(plans[k], k == 0 ? &nominal_stats : nullptr) +
              plan_effort(plans[k], s.effort);
  });
  PlanResult out;
  out.evaluations = static_cast<long>(plans.size());
  out.first_cost = cost[0];
  out.cost = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < plans.size(); ++k)
    if (std::isfinite(cost[k]) && !(cost[k] >= out.cost)) out.cost = cost[k], out.best = static_cast<long>(k);
  out.plan = plans[static_cast<std::size_t>(out.best)];
  if (std::isnan(out.cost))
    out.status = "every sampled rollout failed (the nominal plan's: " + describe_failure(nominal_stats) + ")";
  return out;
}

}  // namespace sg
