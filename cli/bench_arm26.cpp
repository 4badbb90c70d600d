#include "cli/bench_arm26.hpp"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/bench_step_costs.hpp"
#include "engine/problem/load_problem.hpp"

namespace sg::cli {

void bench_arm26(const std::string& scenes, int rounds) {
  const std::string file = scenes + "/mpc_arm26_reach.json";
  // 2.5 s with every muscle driven (actuator 0's control is the sweep value): the arm moves through its
  // range, the shoulder meets its limit.
  const std::vector<std::string> sets = {"integrator.steps=500",
                                         "model.tree.actuators.1.ctrl=0.2",
                                         "model.tree.actuators.2.ctrl=0.7",
                                         "model.tree.actuators.3.ctrl=0.4",
                                         "model.tree.actuators.4.ctrl=0.6",
                                         "model.tree.actuators.5.ctrl=0.3"};
  ProblemLoad loaded = load_problem_file(file, sets);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s", loaded.errors.c_str());
    return;
  }
  const Problem& p = *loaded.problem;
  const double x = 0.5 * (p.sweep.from + p.sweep.to);
  StepCosts c;
  try {
    c = step_costs(p, file, x, rounds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench arm26: %s\n", e.what());
    return;
  }
  std::printf(
      "arm26 (scenes/mpc_arm26_reach.json, MuJoCo's tendon_arm/arm26.xml: 2 hinges, 6 muscles on 6 spatial "
      "tendons wrapping 2 cylinders) at %s = %g, the other controls 0.2 to 0.7: Euler %g ms x %ld steps, "
      "single thread, best of %d runs; the two engines' final qpos differ by %.1e\n\n",
      p.sweep.parameter.c_str(), x, 1e3 * p.integrator.fixed_step(), p.integrator.steps, rounds, c.qpos_diff);
  print_step_costs(c);
}

}  // namespace sg::cli
