#pragma once
// Model-predictive control through the simulator (softgrad mpc): from the scene's start, plan the control
// knots over a receding horizon (engine/control/planners.hpp), execute the best plan for mpc.execute output
// steps, plan again from the state reached with the executed plan shifted forward as the warm start, until
// mpc.duration steps ran. The cost of a plan is the scene's loss at the horizon's end (plus mpc.effort times
// the mean square of its knots); the integrator,
// contact model and Contacts From Distance are the scene's, as everywhere.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "engine/control/mpc_settings.hpp"

namespace sg {

struct PlanningStep {
  long step = 0;            // the output step the plan starts at
  double time = 0.0;        // s
  double cost = 0.0;        // the executed plan's cost over its horizon
  double first_cost = 0.0;  // the warm-started plan's cost
  long best = 0;            // the iterate (gradient) or sample (sampling) executed
  long evaluations = 0;     // rollouts it took
  double grad_norm = 0.0;   // gradient planner: at the warm start, before clipping
  double grad_norm_max = 0.0;
  long clipped = 0;
  double wall_ms = 0.0;  // planning and executing
  std::string status = "ok";
};

struct MpcResult {
  Planner planner = Planner::gradient;
  std::vector<PlanningStep> steps;
  std::vector<double> t;                   // executed output times, from 0
  std::vector<std::vector<double>> state;  // the state y = [qpos, phi, qvel, act] at each output time
  std::vector<double> cost;                // the scene's loss at each output time
  std::vector<std::vector<double>> ctrl;   // per output step (one fewer than times): each actuator's control
  std::vector<std::string> knot_paths;     // what a plan is made of
  double final_cost = 0.0;
  bool success = false;  // final_cost < mpc.success
  bool cancelled = false;
  std::string status = "ok";  // the first failure: a planning step without a finite cost, or an
                              // executed run that failed
  double wall_s = 0.0;
};

struct MpcCallbacks {
  // After each planning step, on the caller's thread: the run so far (its last planning step is the new one).
  std::function<void(const MpcResult&)> on_step;
  const std::atomic<bool>* cancel = nullptr;  // checked before each planning step
  int threads = 1;                            // for the rollouts of one planning step
};

// Throws std::invalid_argument with "mpc.KEY: why" (or the model's key) when the scene cannot be planned:
// not a joint tree, no actuators, mpc.execute beyond mpc.horizon, a control section that leaves every
// actuator constant.
MpcResult run_mpc(const Problem& scene, const MpcSettings& s, const MpcCallbacks& cb = {});

// The scene with contact.cfd.enabled set: the variant a comparison of CFD on and off plans (the command's
// --cfd, the MPC tab's "also without CFD"). Throws std::invalid_argument as problem_from_config does.
Problem with_cfd(const Problem& scene, bool enabled);

}  // namespace sg
