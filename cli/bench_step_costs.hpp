#pragma once
// A joint-tree scene's step against MuJoCo's mj_step, for `softgrad bench`'s humanoid and arm26 sections:
// softgrad's plain step and its forward-mode steps (Dual<1>, Dual<4>) per step of the scene's run, MuJoCo
// 2.2.2's mj_step on the scene's MJCF from the same start in the same process, and the table that says
// whether a target ratio is met.
#include <functional>
#include <string>
#include <vector>

#include "engine/problem/problem.hpp"

namespace sg::cli {

// The fastest of `rounds` calls of fn, in seconds: the least disturbed by whatever else the machine does.
double best_seconds_of(int rounds, const std::function<void()>& fn);

const char* verdict(double ratio, double target);

// The paths of every actuator's constant control.
std::vector<std::string> control_paths(const Problem& p);

struct StepCosts {
  double mujoco = 0.0, plain = 0.0, dual1 = 0.0, dual4 = 0.0;  // seconds per step
  int contacts = 0;
  double qpos_diff = 0.0;  // final qpos, MuJoCo against softgrad
};

// MuJoCo's mj_step on the scene's MJCF from the same start (the sweep parameter at x); 0 where libmujoco
// is not in the build.
void time_mujoco(const Problem& p, const std::string& scene, double x, int rounds, StepCosts& c);

// Every cost of StepCosts at sweep value x.
StepCosts step_costs(const Problem& p, const std::string& scene, double x, int rounds);

// The table: MuJoCo, the plain step against 2x MuJoCo, Dual<1> against 2x plain, Dual<4>.
void print_step_costs(const StepCosts& c);

}  // namespace sg::cli
