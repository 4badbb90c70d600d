// Schema rows of the mpc section: model-predictive control through the simulator (softgrad mpc,
// engine/control/mpc.hpp), with a gradient planner (Adam on the control knots, reverse mode) and predictive
// sampling as its baseline. Joint trees with actuators only.
#include "engine/scene/schema_rows.hpp"

namespace sg::scene::rows {

std::vector<FieldSpec> mpc_rows() {
  std::vector<FieldSpec> rows = {
      choice("mpc.planner", {"gradient", "sampling"}, "gradient",
             "gradient: Adam on the plan's knots with the rollout's reverse-mode gradient (clipped, the best "
             "iterate kept); sampling: predictive sampling, the best of mpc.samples perturbed plans."),
      integer(
          "mpc.horizon", 50, closed(1, 100000),
          "Output steps each plan spans: the control section's knots are spread over the horizon, and the "
          "cost is the scene's loss at the horizon's end."),
      integer("mpc.execute", 5, closed(1, 100000),
              "Output steps of each plan executed before planning again from the state reached (at most "
              "mpc.horizon); the next plan starts from the executed one shifted by as much."),
      integer("mpc.duration", 0, closed(0, 1000000), "Output steps executed in all (0: integrator.steps)."),
      integer("mpc.knots", 10, closed(1, 256),
              "Knots per actuator when the scene has no control section (they start at the actuator's "
              "model.tree.actuators.N.ctrl)."),
      integer("mpc.iterations", 10, closed(1, 100000),
              "Gradient planner: Adam iterations per planning step."),
      number("mpc.lr", 0.05, above(0), fixed, "Gradient planner: Adam's learning rate, in control units."),
      number("mpc.clip", 1, at_least(0), fixed,
             "Gradient planner: the gradient's norm is clipped to this before each Adam step (0: no "
             "clipping)."),
      integer("mpc.samples", 64, closed(1, 100000),
              "Sampling planner: plans evaluated per planning step (the nominal plan and samples - 1 "
              "perturbed copies)."),
      number("mpc.noise", 0.1, at_least(0), fixed,
             "Sampling planner: standard deviation of a knot's perturbation, in control units."),
      choice("mpc.noise_kind", {"white", "brown"}, "white",
             "Sampling planner: white (independent per knot) or brown (a random walk along each actuator's "
             "knots) noise."),
      integer("mpc.seed", 1, at_least(0), "Random seed of the sampling planner's noise."),
      number("mpc.success", 1e-3, at_least(0), fixed,
             "The task counts as solved when the scene's loss at the end of the executed run is below this."),
      choice("mpc.cost", {"final", "mean"}, "final",
             "A plan's cost: the scene's loss at the horizon's end (final), or averaged over the horizon's "
             "output "
             "steps (mean: a running cost, for holding a state rather than reaching it by the end)."),
      number("mpc.effort", 0, at_least(0), fixed,
             "Control effort in the plans' cost: the planners minimise the scene's loss at the horizon's end "
             "plus "
             "effort times the mean of the plan's knots squared (0: none; the task's success reads the loss "
             "alone)."),
      boolean(
          "mpc.execute_cfd", true,
          "Whether the executed motion keeps Contacts From Distance: off, the planners plan with the scene's "
          "CFD (with contact.cfd.mode forward its virtual forces shape the plans) and the plans act on the "
          "model without it, MuJoCo's contact."),
  };
  for (FieldSpec& r : rows) r = only(ModelScope::tree, std::move(r));
  return rows;
}

}  // namespace sg::scene::rows
