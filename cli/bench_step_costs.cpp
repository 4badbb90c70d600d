#include "cli/bench_step_costs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>

#include "cli/tree_trajectory.hpp"
#include "engine/gradient/parameter_gradient.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/model/tree_system.hpp"
#include "engine/scene/mjcf_source.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/time_mj_step.hpp"
#endif

namespace sg::cli {

double best_seconds_of(int rounds, const std::function<void()>& fn) {
  using Clock = std::chrono::steady_clock;
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = Clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

const char* verdict(double ratio, double target) {
  return ratio <= target ? "met" : "**not met**";
}

// The paths of every actuator's constant control.
std::vector<std::string> control_paths(const Problem& p) {
  std::vector<std::string> paths;
  for (int i = 0; i < p.data.tree.act.nu; ++i)
    paths.push_back("model.tree.actuators." + std::to_string(i) + ".ctrl");
  return paths;
}

// MuJoCo's mj_step on the scene's MJCF from the same start; 0 where libmujoco is not in the build.
void time_mujoco(const Problem& p, const std::string& scene, double x, int rounds, StepCosts& c) {
#ifdef SOFTGRAD_HAVE_MJCF
  auto pd = std::make_unique<ProblemData<double>>(p.data);
  if (double* slot = parameter_slot(*pd, p.sweep.parameter)) *slot = x;
  const std::string file = scene::mjcf_file_path(scene, p.config.at("model").at("file").get<std::string>());
  const long steps = p.integrator.steps * p.integrator.substeps;
  const mjcf::MjStepTiming t = mjcf::time_mj_step(pd->tree, file, steps, p.integrator.fixed_step(), rounds);
  c.mujoco = t.seconds / static_cast<double>(steps);
  c.contacts = t.max_contacts;
  const auto sys = std::make_unique<TreeSystem<double>>(&pd->tree, p.integrator.fixed_step());
  const std::vector<double> end = tree_trajectory(*sys, p.integrator).back();
  for (std::size_t i = 0; i < t.qpos.size(); ++i)
    c.qpos_diff = std::max(c.qpos_diff, std::fabs(t.qpos[i] - end[i]));
#else
  (void)p, (void)scene, (void)x, (void)rounds, (void)c;
#endif
}

StepCosts step_costs(const Problem& p, const std::string& scene, double x, int rounds) {
  StepCosts c;
  const double steps = static_cast<double>(p.integrator.steps * p.integrator.substeps);
  PointEvaluator eval(p);
  c.plain = best_seconds_of(rounds, [&] { eval.loss_only(x); }) / steps;
  c.dual1 = best_seconds_of(rounds, [&] { eval.loss_and_grad(x); }) / steps;
  // One run of `softgrad gradient --mode forward`'s lanes: four controls at once.
  std::vector<std::string> four = control_paths(p);
  four.resize(std::min<std::size_t>(four.size(), ParameterGradient::kLanes));
  ParameterGradient g(p, four, nullptr);
  const std::vector<double> v = g.initial_values();
  c.dual4 = best_seconds_of(rounds, [&] { g.forward(v); }) / steps;
  time_mujoco(p, scene, x, rounds, c);
  return c;
}

void print_step_costs(const StepCosts& c) {
  std::printf("| run | us / step | ratio | target | |\n|---|---|---|---|---|\n");
  if (c.mujoco > 0.0)
    std::printf(
        "| MuJoCo 2.2.2 mj_step | %.2f | 1 | | |\n| softgrad step (double) | %.2f | %.2fx MuJoCo | "
        "(a) 2x MuJoCo | %s |\n",
        1e6 * c.mujoco, 1e6 * c.plain, c.plain / c.mujoco, verdict(c.plain / c.mujoco, 2.0));
  else
    std::printf("| softgrad step (double) | %.2f | - | (a) needs libmujoco in the build | |\n",
                1e6 * c.plain);
  std::printf(
      "| forward-mode step, Dual<1> (the sweep's AD run) | %.2f | %.2fx plain | (b) 2x plain | %s |\n",
      1e6 * c.dual1, c.dual1 / c.plain, verdict(c.dual1 / c.plain, 2.0));
  std::printf("| forward-mode step, Dual<4> (`gradient --mode forward`'s lanes) | %.2f | %.2fx plain | | |\n",
              1e6 * c.dual4, c.dual4 / c.plain);
}

}  // namespace sg::cli
