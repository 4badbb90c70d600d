// softgrad bench: ns per step and per forward-mode gradient step for each integrator on the toy scenes,
// and the wall time of the 2000-point toy sweep with AD and FD. Prints a Markdown table.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/sweep/sweep.hpp"

namespace sg::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchArgs {
  std::string scenes = SOFTGRAD_SCENES_DIR;
  bool quick = false;
};

// Runs fn repeatedly for about `budget` seconds; returns (seconds, steps) summed.
template <class F>
std::pair<double, long> time_runs(double budget, F&& fn) {
  long steps = 0, runs = 0;
  const auto start = Clock::now();
  double elapsed = 0.0;
  while (elapsed < budget || runs < 3) {
    steps += fn();
    ++runs;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return {elapsed, steps};
}

struct StepCost {
  double ns_plain, ns_grad;
};

// ns per accepted step of a double run and of a Dual<1> run at the middle of the sweep range, best of
// `rounds` rounds: the least disturbed by whatever else the machine is doing.
StepCost step_cost(const Problem& p, double budget, int rounds) {
  PointEvaluator eval(p);
  const double x = 0.5 * (p.sweep.from + p.sweep.to);
  StepCost best{1e30, 1e30};
  for (int round = 0; round < rounds; ++round) {
    auto plain = time_runs(budget / rounds, [&] { return eval.loss_only(x).stats.accepted; });
    auto grad = time_runs(budget / rounds, [&] { return eval.loss_and_grad(x).stats.accepted; });
    best.ns_plain = std::min(best.ns_plain, 1e9 * plain.first / static_cast<double>(plain.second));
    best.ns_grad = std::min(best.ns_grad, 1e9 * grad.first / static_cast<double>(grad.second));
  }
  return best;
}

void bench_integrators(const BenchArgs& args, const std::string& scene, const char* contact, double budget) {
  static const char* kMethods[] = {"euler", "moreau", "rk4", "bosh3", "dopri5", "tsit5"};
  for (const char* method : kMethods) {
    std::vector<std::string> sets = {std::string("integrator.type=") + method};
    // Impulse models come with their own stepping scheme.
    if (std::string(contact) == "elastic" && std::string(method) != "euler") continue;
    if (std::string(contact) == "hard" && std::string(method) != "moreau") continue;
    ProblemLoad loaded = load_problem_file(args.scenes + "/" + scene, sets);
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s", loaded.errors.c_str());
      continue;
    }
    const StepCost c = step_cost(*loaded.problem, budget, 5);
    std::printf("| %s | %s | %s | %.1f | %.1f | %.2f |\n", scene.c_str(), contact, method, c.ns_plain,
                c.ns_grad, c.ns_grad / c.ns_plain);
  }
}

// Per-step cost of the 3-D scenes as shipped (each with its own integrator).
void bench_rigid_scenes(const BenchArgs& args, double budget) {
  static const char* kScenes[] = {
      "toss_sphere_mjx",      "toss_sphere_diffmjx",   "toss_box_mjx",           "toss_box_diffmjx",
      "toss_capsule_diffmjx", "toss_cylinder_diffmjx", "toss_ellipsoid_diffmjx", "billiards",
      "billiards_nogravity"};
  for (const char* scene : kScenes) {
    ProblemLoad loaded = load_problem_file(args.scenes + "/" + scene + ".json");
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s", loaded.errors.c_str());
      continue;
    }
    const StepCost c = step_cost(*loaded.problem, budget, 3);
    const std::string method = loaded.problem->config["integrator"]["type"].get<std::string>();
    std::printf("| %s | %s | %.0f | %.0f | %.2f |\n", scene, method.c_str(), c.ns_plain, c.ns_grad,
                c.ns_grad / c.ns_plain);
  }
}

void bench_toss_sweep(const BenchArgs& args, int repeats) {
  ProblemLoad loaded = load_problem_file(args.scenes + "/toss_box_diffmjx.json",
                                         {"integrator.rtol=1e-7", "integrator.atol=1e-7"});
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s", loaded.errors.c_str());
    return;
  }
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) best = std::min(best, run_sweep(*loaded.problem).stats.seconds);
  std::printf("| toss_box_diffmjx sweep, %ld points, Tsit5 1e-7, AD + central FD | all cores | %.3f s |\n",
              loaded.problem->sweep.points, best);
}

void bench_sweep(const BenchArgs& args, int repeats) {
  ProblemLoad loaded = load_problem_file(args.scenes + "/toy_point_mass.json");
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s", loaded.errors.c_str());
    return;
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  for (int threads : {1, static_cast<int>(cores)}) {
    SweepControl control;
    control.threads = threads;
    run_sweep(*loaded.problem, control);  // warm up the worker pool
    double best = 1e30;
    for (int i = 0; i < repeats; ++i)
      best = std::min(best, run_sweep(*loaded.problem, control).stats.seconds);
    std::printf("| toy_point_mass sweep, %ld points, AD + central FD | %d | %.3f ms |\n",
                loaded.problem->sweep.points, threads, 1e3 * best);
    if (threads == static_cast<int>(cores)) break;
  }
}

int run(const BenchArgs& args) {
  const double budget = args.quick ? 0.02 : 0.3;
  std::printf("Per-step cost at the middle of each sweep range (ns per accepted step, best of 5 rounds)\n\n");
  std::printf("| scene | contact | integrator | ns/step | ns/gradient step (Dual<1>) | ratio |\n");
  std::printf("|---|---|---|---|---|---|\n");
  bench_integrators(args, "toy_point_mass.json", "penalty", budget);
  bench_integrators(args, "toy_elastic.json", "elastic", budget);
  bench_integrators(args, "falling_mass.json", "hard", budget);
  std::printf("\nSweep wall time (best of %d)\n\n| sweep | threads | wall time |\n|---|---|---|\n",
              args.quick ? 2 : 20);
  bench_sweep(args, args.quick ? 2 : 20);
  if (args.quick) return kExitOk;  // the 3-D part takes a few seconds more
  std::printf("\n3-D scenes at the middle of each sweep range (ns per accepted step, best of 3 rounds)\n\n");
  std::printf(
      "| scene | integrator | ns/step | ns/gradient step (Dual<1>) | ratio |\n|---|---|---|---|---|\n");
  bench_rigid_scenes(args, 1.5);
  std::printf("\n| sweep | threads | wall time (best of 3) |\n|---|---|---|\n");
  bench_toss_sweep(args, 3);
  return kExitOk;
}

}  // namespace

void register_bench(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand("bench", "Time steps, gradient steps and the 2000-point toy sweep");
  cmd->add_option("--scenes", args->scenes, "Folder with the shipped scenes");
  cmd->add_flag("--quick", args->quick, "Short runs (for smoke tests)");
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
