#include "engine/control/control_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sg {
namespace {

// The time (output steps) at which knot k of K takes effect over a horizon of H steps.
double knot_time(ControlInterpolation interpolation, int k, int K, long H) {
  if (interpolation == ControlInterpolation::linear)
    return K > 1 ? static_cast<double>(k) * static_cast<double>(H) / static_cast<double>(K - 1) : 0.0;
  // constant: the first output step i with floor(i K / H) == k
  return static_cast<double>((static_cast<long>(k) * H + K - 1) / K);
}

int first_entry(const PlanLayout& layout, int actuator) {
  for (std::size_t i = 0; i < layout.size(); ++i)
    if (layout.actuator[i] == actuator) return static_cast<int>(i);
  return -1;
}

}  // namespace

PlanLayout plan_layout(const JointTreeModel<double>& m, long horizon) {
  PlanLayout out;
  out.interpolation = m.controls.interpolation;
  out.horizon = horizon;
  const double inf = std::numeric_limits<double>::infinity();
  for (int a = 0; a < m.act.nu; ++a) {
    const TreeActuator<double>& act = m.act.actuator[a];
    const bool clamps = act.ctrllimited && m.act.opt.clampctrl;
    out.count.push_back(m.controls.count[a]);
    out.lo.push_back(clamps ? act.ctrlrange[0] : -inf);
    out.hi.push_back(clamps ? act.ctrlrange[1] : inf);
    for (int k = 0; k < m.controls.count[a]; ++k) {
      out.actuator.push_back(a);
      out.knot.push_back(k);
      out.paths.push_back("control.actuators." + std::to_string(a) + ".knots." + std::to_string(k));
    }
  }
  return out;
}

void write_plan(const PlanLayout& layout, const std::vector<double>& plan, JointTreeModel<double>& m) {
  for (std::size_t i = 0; i < layout.size(); ++i)
    m.controls.knot[m.controls.first[layout.actuator[i]] + layout.knot[i]] = plan[i];
}

std::vector<double> read_plan(const PlanLayout& layout, const JointTreeModel<double>& m) {
  std::vector<double> plan(layout.size());
  for (std::size_t i = 0; i < layout.size(); ++i)
    plan[i] = m.controls.knot[m.controls.first[layout.actuator[i]] + layout.knot[i]];
  return plan;
}

double plan_effort(const std::vector<double>& plan, double weight) {
  if (weight == 0.0 || plan.empty()) return 0.0;
  double sum = 0.0;
  for (double u : plan) sum += u * u;
  return weight * sum / static_cast<double>(plan.size());
}

void add_effort_gradient(const std::vector<double>& plan, double weight, std::vector<double>& grad) {
  if (weight == 0.0) return;
  for (std::size_t k = 0; k < plan.size(); ++k)
    grad[k] += 2.0 * weight * plan[k] / static_cast<double>(plan.size());
}

void clamp_plan(const PlanLayout& layout, std::vector<double>& plan) {
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const int a = layout.actuator[i];
    plan[i] = std::clamp(plan[i], layout.lo[a], layout.hi[a]);
  }
}

double plan_control(const PlanLayout& layout, const std::vector<double>& plan, int actuator, double steps) {
  const int first = first_entry(layout, actuator);
  const int K = layout.count[actuator];
  const double H = static_cast<double>(layout.horizon);
  if (steps >= H || K == 1) return plan[first + (steps >= H ? K - 1 : 0)];
  if (layout.interpolation == ControlInterpolation::constant)
    return plan[first + static_cast<int>(static_cast<long>(std::floor(steps)) * K / layout.horizon)];
  const double u = steps * (K - 1) / H;
  const int lo = std::min(static_cast<int>(std::floor(u)), K - 2);
  const double frac = u - lo;
  return plan[first + lo] * (1.0 - frac) + plan[first + lo + 1] * frac;
}

std::vector<double> shift_plan(const PlanLayout& layout, const std::vector<double>& plan, long executed) {
  std::vector<double> out(plan.size());
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const int a = layout.actuator[i];
    const double t = knot_time(layout.interpolation, layout.knot[i], layout.count[a], layout.horizon);
    out[i] = plan_control(layout, plan, a, t + static_cast<double>(executed));
  }
  return out;
}

std::vector<double> perturb_plan(const PlanLayout& layout, const std::vector<double>& plan, double sigma,
                                 bool brown, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> out = plan;
  double walk = 0.0;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (layout.knot[i] == 0) walk = 0.0;  // each actuator's walk starts afresh
    const double step = sigma * normal(rng);
    walk = brown ? walk + step : step;
    out[i] += walk;
  }
  clamp_plan(layout, out);
  return out;
}

}  // namespace sg
