// The gradient planner: DiffMJX's gradient MPC (Adam with gradient clipping, the best iterate kept).
#include <cmath>
#include <limits>

#include "engine/control/planners.hpp"
#include "engine/optimize/adam.hpp"

namespace sg {
namespace {

double norm(const std::vector<double>& g) {
  double sum = 0.0;
  for (double x : g) sum += x * x;
  return std::sqrt(sum);
}

}  // namespace

PlanResult plan_gradient(ParameterGradient& eval, const PlanLayout& layout, const std::vector<double>& start,
                         const MpcSettings& s) {
  PlanResult out;
  out.plan = start;
  out.cost = out.first_cost = std::numeric_limits<double>::quiet_NaN();
  std::vector<Adam> adam(start.size(), Adam{s.lr, s.beta1, s.beta2, 1e-8});
  std::vector<double> x = start;
  for (long it = 0; it < s.iterations; ++it) {
    ObjectiveGradient g = eval.reverse(x);
    ++out.evaluations;
    if (g.status != "ok") {
      out.status = "iteration " + std::to_string(it) + ": " + g.status;
      break;
    }
    const double cost = g.loss + plan_effort(x, s.effort);
    add_effort_gradient(x, s.effort, g.grad);
    if (it == 0) out.first_cost = cost;
    if (!(cost >= out.cost)) {  // the first finite cost, then any lower one
      out.cost = cost, out.plan = x, out.best = it;
    }
    const double n = norm(g.grad);
    if (it == 0) out.grad_norm = n;
    out.grad_norm_max = std::max(out.grad_norm_max, n);
    const double scale = s.clip > 0.0 && n > s.clip ? s.clip / n : 1.0;
    out.clipped += scale < 1.0;
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = adam[k].step(x[k], g.grad[k] * scale);
    clamp_plan(layout, x);
  }
  return out;
}

}  // namespace sg
