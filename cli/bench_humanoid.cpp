#include "cli/bench_humanoid.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/bench_step_costs.hpp"
#include "cli/bench_tree_stages.hpp"
#include "cli/tree_trajectory.hpp"
#include "engine/gradient/parameter_gradient.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/scene/mjcf_source.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/time_mj_step.hpp"
#endif

namespace sg::cli {
namespace {

// scenes/humanoid_fall.json with the given overrides, or nothing after printing why it did not load
// (without libmujoco an MJCF scene does not).
std::optional<Problem> load_humanoid(const std::string& scenes, const std::vector<std::string>& sets = {}) {
  ProblemLoad loaded = load_problem_file(scenes + "/humanoid_fall.json", sets);
  if (!loaded.ok()) std::fprintf(stderr, "%s", loaded.errors.c_str());
  return std::move(loaded.problem);
}

// The reverse-mode gradient of every control over a 1 s rollout against the plain rollout (and forward
// mode's runs of four lanes for comparison), single thread.
void bench_control_gradient(const std::string& scenes, int rounds) {
  const std::optional<Problem> loaded = load_humanoid(scenes, {"integrator.steps=200"});
  if (!loaded) return;
  const Problem& p = *loaded;
  ParameterGradient g(p, control_paths(p), nullptr);
  const std::vector<double> v = g.initial_values();
  ObjectiveGradient r, f;
  const double plain = best_seconds_of(rounds, [&] { g.objective(v); });
  const double reverse = best_seconds_of(rounds, [&] { r = g.reverse(v); });
  const double forward = best_seconds_of(rounds, [&] { f = g.forward(v); });
  double differ = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i)
    differ = std::max(differ, std::fabs(r.grad[i] - f.grad[i]) / std::max(1.0, std::fabs(f.grad[i])));
  std::printf(
      "\n1 s rollout (200 Euler steps of 5 ms), gradient of the loss w.r.t. all %zu controls "
      "(model.tree.actuators.N.ctrl), single thread, best of %d (reverse and forward agree to %.1e)\n\n",
      v.size(), rounds, differ);
  std::printf("| run | time | / plain rollout | target | |\n|---|---|---|---|---|\n");
  std::printf("| plain rollout (double) | %.2f ms | 1 | | |\n", 1e3 * plain);
  std::printf("| reverse mode, checkpointed (%ld segments, %.1f MB) | %.2f ms | %.1fx | (c) 10x | %s |\n",
              g.segments(), 1e-6 * static_cast<double>(g.tape_bytes()), 1e3 * reverse, reverse / plain,
              verdict(reverse / plain, 10.0));
  std::printf("| forward mode, %ld runs of Dual<4> | %.2f ms | %.1fx | | |\n", f.runs, 1e3 * forward,
              forward / plain);
}

// The plain step with elliptic cones (contact.mujoco.cone set over the file's pyramid), against mj_step given
// the same cone.
void bench_elliptic_step(const std::string& scenes, int rounds) {
  const std::optional<Problem> loaded = load_humanoid(scenes, {"contact.mujoco.cone=elliptic"});
  if (!loaded) return;
  const Problem& p = *loaded;
  const double x = 0.5 * (p.sweep.from + p.sweep.to);
  StepCosts c;
  PointEvaluator eval(p);
  c.plain = best_seconds_of(rounds, [&] { eval.loss_only(x); }) /
            static_cast<double>(p.integrator.steps * p.integrator.substeps);
  time_mujoco(p, scenes + "/humanoid_fall.json", x, rounds, c);
  std::printf(
      "\nThe same run with elliptic cones (--set contact.mujoco.cone=elliptic, MuJoCo given the same "
      "cone; final qpos differ by %.1e)\n\n| run | us / step | ratio |\n|---|---|---|\n",
      c.qpos_diff);
  if (c.mujoco > 0.0) std::printf("| MuJoCo 2.2.2 mj_step, elliptic | %.2f | 1 |\n", 1e6 * c.mujoco);
  std::printf("| softgrad step (double), elliptic | %.2f | %s |\n", 1e6 * c.plain,
              c.mujoco > 0.0 ? (std::to_string(c.plain / c.mujoco).substr(0, 4) + "x MuJoCo").c_str() : "-");
}

void print_stages(const StageProfile& plain, const StageProfile& dual, const StageProfile& taped) {
  std::printf(
      "| stage | double, us / step | share | Dual<1>, us / step | share | taped (Rev), us / step | tape "
      "nodes / step |\n|---|---|---|---|---|---|---|\n");
  const auto share = [](const StageProfile& p, std::size_t k) {
    return 100.0 * p.stages[k].seconds / p.step_seconds;
  };
  for (std::size_t k = 0; k < plain.stages.size() && k < dual.stages.size() && k < taped.stages.size(); ++k)
    std::printf("| %s | %.2f | %.0f%% | %.2f | %.0f%% | %.2f | %.0f |\n", plain.stages[k].name.c_str(),
                1e6 * plain.stages[k].seconds, share(plain, k), 1e6 * dual.stages[k].seconds, share(dual, k),
                1e6 * taped.stages[k].seconds, taped.stages[k].nodes);
  std::printf("| whole step | %.2f | 100%% | %.2f | 100%% | %.2f | %.0f |\n", 1e6 * plain.step_seconds,
              1e6 * dual.step_seconds, 1e6 * taped.step_seconds, taped.step_nodes);
  if (!plain.same_qacc || !dual.same_qacc || !taped.same_qacc)
    std::printf("\n(warning: the staged pass did not reproduce TreeSystem::forward's qacc to the bit)\n");
}

}  // namespace

void bench_humanoid(const std::string& scenes, int rounds) {
  const std::string file = scenes + "/humanoid_fall.json";
  const std::optional<Problem> loaded = load_humanoid(scenes);
  if (!loaded) return;
  const Problem& p = *loaded;
  const double x = 0.5 * (p.sweep.from + p.sweep.to);
  StepCosts c;
  try {
    c = step_costs(p, file, x, rounds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench humanoid: %s\n", e.what());
    return;
  }
  std::printf(
      "Humanoid (%s at %s = %g): Euler %g ms x %ld steps, up to %d contacts (MuJoCo's count), "
      "single thread, best of %d runs; the two engines' final qpos differ by %.1e\n\n",
      "scenes/humanoid_fall.json", p.sweep.parameter.c_str(), x, 1e3 * p.integrator.fixed_step(),
      p.integrator.steps, c.contacts, rounds, c.qpos_diff);
  print_step_costs(c);
  bench_elliptic_step(scenes, rounds);
  bench_control_gradient(scenes, std::max(3, rounds / 4));
  const int stage_rounds = std::max(3, rounds / 4);
  const StageProfile plain = profile_tree_stages(p, x, stage_rounds, StageScalar::plain);
  const StageProfile dual = profile_tree_stages(p, x, stage_rounds, StageScalar::dual);
  const StageProfile taped = profile_tree_stages(p, x, stage_rounds, StageScalar::taped);
  std::printf(
      "\nWhere a step goes: each stage of the step at the run's %ld states, timed as differences of "
      "pipeline prefixes, best of %d\n\n",
      plain.states, stage_rounds);
  print_stages(plain, dual, taped);
}

}  // namespace sg::cli
