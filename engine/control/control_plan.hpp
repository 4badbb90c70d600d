#pragma once
// A control plan: the knots of a joint tree's control section (engine/model/tree_controls.hpp) as one
// vector, in the order of their scene paths control.actuators.A.knots.K, with what a receding-horizon
// planner does to it: keep it in the actuators' ctrlrange, shift it forward by the executed steps, perturb
// it with white or brown noise.
#include <random>
#include <string>
#include <vector>

#include "engine/model/joint_tree_model.hpp"

namespace sg {

struct PlanLayout {
  ControlInterpolation interpolation = ControlInterpolation::constant;
  long horizon = 1;                // output steps the knots span
  std::vector<int> actuator;       // per plan entry: its actuator
  std::vector<int> knot;           // per plan entry: its index among the actuator's knots
  std::vector<int> count;          // per actuator: its knots (0: it keeps its constant ctrl)
  std::vector<double> lo, hi;      // per actuator: the range its knots are kept in (+-inf: none)
  std::vector<std::string> paths;  // per plan entry: its scene path

  std::size_t size() const { return actuator.size(); }
};

// The plan of m's control section over `horizon` output steps; the range is ctrlrange where the actuator
// is ctrllimited and MuJoCo clamps (the gradient is 0 beyond it, so a planner would wander off).
PlanLayout plan_layout(const JointTreeModel<double>& m, long horizon);

// The plan's knots in m (m.controls), and m's knots as a plan.
void write_plan(const PlanLayout& layout, const std::vector<double>& plan, JointTreeModel<double>& m);
std::vector<double> read_plan(const PlanLayout& layout, const JointTreeModel<double>& m);

// The control-effort term of a plan's cost, weight * (mean of the knots' squares), and its gradient (added to
// grad, which has one entry per knot).
double plan_effort(const std::vector<double>& plan, double weight);
void add_effort_gradient(const std::vector<double>& plan, double weight, std::vector<double>& grad);

// Each knot into its actuator's range.
void clamp_plan(const PlanLayout& layout, std::vector<double>& plan);

// The plan's control of an actuator at time `steps` (output steps; fractional between linear knots), as
// control_at reads the knots: past the horizon the last knot holds. What shift_plan evaluates; the executed
// controls are control_at's own.
double plan_control(const PlanLayout& layout, const std::vector<double>& plan, int actuator, double steps);

// The plan `executed` output steps later: each knot takes the value the old plan has at its time plus
// `executed` (the warm start of the next planning step).
std::vector<double> shift_plan(const PlanLayout& layout, const std::vector<double>& plan, long executed);

// plan + sigma * noise, clamped: white noise is independent per knot, brown noise a random walk along each
// actuator's knots (each step sigma), as DiffMJX's sampling baseline.
std::vector<double> perturb_plan(const PlanLayout& layout, const std::vector<double>& plan, double sigma,
                                 bool brown, std::mt19937_64& rng);

}  // namespace sg
