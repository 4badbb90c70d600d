#pragma once
// The scene's mpc section (softgrad mpc, engine/control/mpc.hpp): which planner, the receding horizon, how
// much of each plan is executed, and each planner's knobs. Read from the resolved scene, so that the
// command line's options, --set mpc.KEY=VALUE and a saved scene address the same numbers.
#include <stdexcept>

#include "engine/problem/problem.hpp"

namespace sg {

enum class Planner : unsigned char { gradient, sampling };
enum class PlanNoise : unsigned char { white, brown };

struct MpcSettings {
  Planner planner = Planner::gradient;
  long horizon = 50;  // output steps each plan spans (the control section's knots span it)
  long execute = 5;   // output steps of each plan executed before planning again
  long duration = 0;  // output steps executed in all (0: the scene's integrator.steps)
  long knots = 10;    // knots per actuator when the scene has no control section
  // The gradient planner: Adam on the knots with the rollout's reverse-mode gradient.
  long iterations = 10;
  double lr = 0.05;
  double clip = 1.0;  // gradient norm clipped to this before each Adam step (0: no clipping)
  double beta1 = 0.9, beta2 = 0.999;
  // The sampling planner: predictive sampling (Howell et al. 2022).
  long samples = 64;
  double noise = 0.1;  // standard deviation of each knot's perturbation (control units)
  PlanNoise noise_kind = PlanNoise::white;
  unsigned long seed = 1;
  bool running_cost =
      false;            // mpc.cost "mean": the loss averaged over the horizon's output steps, not at its end
  double effort = 0.0;  // the plan's cost adds effort * (mean of its knots' squares)
  double success = 1e-3;  // the task counts as solved when the executed run's final cost is below this
  // Whether the executed runs keep the scene's Contacts From Distance: false plans with it (e.g. in the
  // forward simulation) and acts in the model without it, MuJoCo's contact.
  bool execute_cfd = true;
};

// From problem.config["mpc"] (validated by the schema: ranges and choices are already checked).
MpcSettings mpc_settings(const Problem& problem);

}  // namespace sg
