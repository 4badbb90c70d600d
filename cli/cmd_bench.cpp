// softgrad bench: ns per step and per forward-mode gradient step for each integrator on the toy scenes, the
// wall time of the 2000-point toy sweep with AD and FD, and the 3-D scenes' sweeps with their step counts,
// events and costs per step. Prints Markdown tables.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/bench_arm26.hpp"
#include "cli/bench_finger.hpp"
#include "cli/bench_fit.hpp"
#include "cli/bench_gpu.hpp"
#include "cli/bench_humanoid.hpp"
#include "cli/bench_mpc.hpp"
#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "engine/gradient/parameter_gradient.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/sweep/point_order.hpp"
#include "engine/sweep/sweep.hpp"

namespace sg::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchArgs {
  std::string scenes = SOFTGRAD_SCENES_DIR;
  bool quick = false;
  std::string
      only;  // one section: steps, sweeps, 3d, gradients, fit, humanoid, arm26, finger, mpc or gpu ("": all)
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
  static const char* kMethods[] = {"euler", "moreau", "rk4", "bosh3", "dopri5", "tsit5", "dopri8"};
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

// The 3-D scenes' sweeps as shipped (each with its own integrator), plus the DiffMJX box toss at 1e-7 and
// without events: sweep wall time (best of `repeats`), per point the AD run's accepted and rejected steps and
// located events, and the cost per accepted step of a plain and a gradient run (rejected attempts and event
// handling included) at the middle of the range.
struct SweepCase {
  const char* scene;
  std::vector<std::string> sets;
  const char* label;
};

// A sweep timed as the GUI sees it: the wall time, and when the points computed so far first covered the
// whole range with no gap wider than `spacing` grid steps (the points run coarse to fine; the GUI's curve
// joins them).
struct TimedSweep {
  SweepResult result;
  double coarse_seconds = 0.0;
};

TimedSweep timed_sweep(const Problem& p, long spacing) {
  const long n = p.sweep.points;
  std::vector<double> done_at(static_cast<std::size_t>(n), 0.0);
  SweepControl control;
  const auto t0 = Clock::now();
  control.on_point = [&](long i, const PointResult&) {
    done_at[static_cast<std::size_t>(i)] = std::chrono::duration<double>(Clock::now() - t0).count();
  };
  TimedSweep out{run_sweep(p, control), 0.0};
  // The shortest prefix of the order whose points leave no gap wider than `spacing`, and when its last one
  // finished.
  std::vector<long> taken;
  for (long i : coarse_to_fine(n)) {
    out.coarse_seconds = std::max(out.coarse_seconds, done_at[static_cast<std::size_t>(i)]);
    taken.insert(std::upper_bound(taken.begin(), taken.end(), i), i);
    bool covered = taken.front() == 0 && taken.back() == n - 1;
    for (std::size_t k = 1; covered && k < taken.size(); ++k) covered = taken[k] - taken[k - 1] <= spacing;
    if (covered) break;
  }
  return out;
}

void bench_3d_sweeps(const BenchArgs& args, int repeats, double budget) {
  const std::vector<SweepCase> cases = {
      {"toss_sphere_mjx", {}, ""},
      {"toss_sphere_diffmjx", {}, ""},
      {"toss_box_mjx", {}, ""},
      {"toss_box_diffmjx", {}, ""},
      {"toss_box_diffmjx", {"integrator.rtol=1e-7", "integrator.atol=1e-7"}, "tsit5 1e-7"},
      {"toss_box_diffmjx",
       {"integrator.rtol=1e-7", "integrator.atol=1e-7", "integrator.events=false"},
       "tsit5 1e-7, events off"},
      // Tight references: Dopri8 against Tsit5 at 1e-10 and 1e-12 (docs/engine.md, "Dopri8").
      {"toss_box_diffmjx", {"integrator.rtol=1e-10", "integrator.atol=1e-10"}, "tsit5 1e-10"},
      {"toss_box_diffmjx",
       {"integrator.type=dopri8", "integrator.rtol=1e-10", "integrator.atol=1e-10"},
       "dopri8 1e-10"},
      {"toss_box_diffmjx", {"integrator.rtol=1e-12", "integrator.atol=1e-12"}, "tsit5 1e-12"},
      {"toss_box_diffmjx",
       {"integrator.type=dopri8", "integrator.rtol=1e-12", "integrator.atol=1e-12"},
       "dopri8 1e-12"},
      {"toss_capsule_diffmjx", {}, ""},
      {"toss_cylinder_diffmjx", {}, ""},
      {"toss_ellipsoid_diffmjx", {}, ""},
      {"billiards", {}, ""},
      {"billiards_nogravity", {}, ""},
  };
  std::printf(
      "| scene | integrator | points | sweep wall time | whole range, every 8th point | accepted / point | "
      "rejected / point | events / point | us / step | us / gradient step "
      "|\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const SweepCase& c : cases) {
    ProblemLoad loaded = load_problem_file(args.scenes + "/" + c.scene + ".json", c.sets);
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s", loaded.errors.c_str());
      continue;
    }
    const Problem& p = *loaded.problem;
    SweepResult best;
    best.stats.seconds = 1e30;
    double coarse = 1e30;
    for (int i = 0; i < repeats; ++i) {
      TimedSweep r = timed_sweep(p, 8);
      coarse = std::min(coarse, r.coarse_seconds);
      if (r.result.stats.seconds < best.stats.seconds) best = std::move(r.result);
    }
    const StepCost cost = step_cost(p, budget, 3);
    const double n = static_cast<double>(best.stats.points);
    std::string method = p.config["integrator"]["type"].get<std::string>();
    if (*c.label) method = c.label;
    std::printf("| %s | %s | %ld | %.3f s | %.3f s | %.0f | %.1f | %.1f | %.2f | %.2f |\n", c.scene,
                method.c_str(), best.stats.points, best.stats.seconds, coarse,
                static_cast<double>(best.stats.steps_total) / n,
                static_cast<double>(best.stats.rejected_total) / n,
                static_cast<double>(best.stats.events_total) / n, 1e-3 * cost.ns_plain, 1e-3 * cost.ns_grad);
  }
}

void bench_sweep(const BenchArgs& args, int repeats) {
  ProblemLoad loaded = load_problem_file(args.scenes + "/toy_point_mass.json");
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s", loaded.errors.c_str());
    return;
  }
  for (int threads : {1, available_cores()}) {
    SweepControl control;
    control.threads = threads;
    run_sweep(*loaded.problem, control);  // warm up the worker pool
    double best = 1e30;
    for (int i = 0; i < repeats; ++i)
      best = std::min(best, run_sweep(*loaded.problem, control).stats.seconds);
    std::printf("| toy_point_mass sweep, %ld points, AD + central FD | %d | %.3f ms |\n",
                loaded.problem->sweep.points, threads, 1e3 * best);
    if (threads == available_cores()) break;
  }
}

// Every differentiable number of a scene at once: one plain run, forward mode (ceil(P/4) runs of 4 lanes) and
// reverse mode, with the whole run on one tape and checkpointed (gradient.checkpoint_steps), and backsolve,
// best of `rounds`; with the memory each reverse run needed. The longest case is checkpointed only (its whole
// tape would take gigabytes). The checkpointed run also on all cores (its segments recorded side by side).
void bench_all_gradients(const BenchArgs& args, int rounds) {
  struct Case {
    const char* scene;
    std::vector<std::string> sets;
    const char* label;
    bool whole_tape;
  };
  const std::vector<Case> cases = {
      {"toss_box_diffmjx", {}, "1 s", true},
      {"billiards", {}, "1.6 s", true},
      {"identify_cube_toss", {}, "1 s", true},
      {"identify_cube_toss", {"integrator.steps=1000"}, "10 s", true},
      {"identify_cube_toss", {"integrator.steps=10000", "integrator.max_steps=100000"}, "100 s", false},
  };
  std::printf(
      "| scene | horizon | parameters | accepted steps | plain run | forward, all | reverse, whole tape | "
      "memory | "
      "reverse, checkpointed | memory | checkpointed / plain | checkpointed, %d threads | / plain | "
      "backsolve "
      "| backsolve / plain |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
      available_cores());
  const auto seconds = [](auto t0, auto t1) { return std::chrono::duration<double>(t1 - t0).count(); };
  for (const Case& c : cases) {
    ProblemLoad loaded = load_problem_file(args.scenes + "/" + c.scene + ".json", c.sets);
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s", loaded.errors.c_str());
      continue;
    }
    const Problem& p = *loaded.problem;
    ParameterGradient g(p, all_gradient_paths(p, true), nullptr);
    const std::vector<double> x = g.initial_values();
    double plain = 1e30, forward = 1e30, whole = 1e30, pieces = 1e30, threaded = 1e30, back = 1e30;
    std::string back_status;
    std::size_t whole_bytes = 0, pieces_bytes = 0;
    SolveStats stats;
    for (int r = 0; r < rounds; ++r) {
      auto t0 = Clock::now();
      g.objective(x, &stats);
      auto t1 = Clock::now();
      if (c.whole_tape) g.forward(x);
      auto t2 = Clock::now();
      g.set_checkpoint_steps(0);
      if (c.whole_tape) g.reverse(x);
      whole_bytes = g.tape_bytes();
      auto t3 = Clock::now();
      g.set_checkpoint_steps(p.gradient.checkpoint_steps);
      g.reverse(x);
      pieces_bytes = g.tape_bytes();
      auto t4 = Clock::now();
      back_status = g.backsolve(x).status;
      auto t5 = Clock::now();
      g.set_threads(available_cores());
      g.reverse(x);
      g.set_threads(1);
      threaded = std::min(threaded, seconds(t5, Clock::now()));
      back = std::min(back, seconds(t4, t5));
      plain = std::min(plain, seconds(t0, t1));
      forward = std::min(forward, seconds(t1, t2));
      whole = std::min(whole, seconds(t2, t3));
      pieces = std::min(pieces, seconds(t3, t4));
    }
    char fwd[32] = "-", tape[64] = "- | -";
    if (c.whole_tape) {
      std::snprintf(fwd, sizeof fwd, "%.1f ms", 1e3 * forward);
      std::snprintf(tape, sizeof tape, "%.1f ms | %.0f MB", 1e3 * whole,
                    1e-6 * static_cast<double>(whole_bytes));
    }
    char backsolve[160];
    std::snprintf(backsolve, sizeof backsolve, "%.1f ms%s%s | %.0fx", 1e3 * back,
                  back_status == "ok" ? "" : ", failed: ", back_status == "ok" ? "" : back_status.c_str(),
                  back / plain);
    std::printf(
        "| %s | %s | %zu | %ld | %.2f ms | %s | %s | %.1f ms | %.1f MB | %.1fx | %.1f ms | %.1fx | %s |\n",
        c.scene, c.label, x.size(), stats.accepted, 1e3 * plain, fwd, tape, 1e3 * pieces,
        1e-6 * static_cast<double>(pieces_bytes), pieces / plain, 1e3 * threaded, threaded / plain,
        backsolve);
  }
}

int run(const BenchArgs& args) {
  const auto wanted = [&](const char* section) { return args.only.empty() || args.only == section; };
  // Refused before any work: a run that prints nothing and exits 0 reads as a benchmark that passed.
  if (!std::filesystem::is_directory(args.scenes) ||
      !std::filesystem::exists(std::filesystem::path(args.scenes) / "toy_point_mass.json")) {
    std::fprintf(stderr,
                 "bench: --scenes %s is not the folder of the shipped scenes (no toy_point_mass.json)\n",
                 args.scenes.c_str());
    return kExitBadInput;
  }
  if (args.quick && !args.only.empty() && !(args.only == "steps" || args.only == "sweeps")) {
    std::fprintf(stderr, "bench: --quick covers the steps and sweeps sections only, not --only %s\n",
                 args.only.c_str());
    return kExitBadInput;
  }
  const double budget = args.quick ? 0.02 : 0.3;
  if (wanted("steps")) {
    std::printf(
        "Per-step cost at the middle of each sweep range (ns per accepted step, best of 5 rounds)\n\n");
    std::printf("| scene | contact | integrator | ns/step | ns/gradient step (Dual<1>) | ratio |\n");
    std::printf("|---|---|---|---|---|---|\n");
    bench_integrators(args, "toy_point_mass.json", "penalty", budget);
    bench_integrators(args, "toy_elastic.json", "elastic", budget);
    bench_integrators(args, "falling_mass.json", "hard", budget);
  }
  if (wanted("sweeps")) {
    std::printf("\nSweep wall time (best of %d)\n\n| sweep | threads | wall time |\n|---|---|---|\n",
                args.quick ? 2 : 20);
    bench_sweep(args, args.quick ? 2 : 20);
  }
  if (args.quick) return kExitOk;  // the 3-D part takes a minute more
  if (wanted("3d")) {
    std::printf(
        "\n3-D scenes: sweeps with AD and central FD on all cores (best of 3; and when the points done so "
        "far "
        "first spanned the range with no gap over 8 grid steps, as the GUI draws them), per-point step "
        "counts "
        "of the AD runs, cost per accepted step at the middle of the range (best of 3 rounds)\n\n");
    bench_3d_sweeps(args, 3, 1.5);
  }
  if (wanted("gradients")) {
    std::printf(
        "\nGradients of every differentiable number of the scene, single thread but where a column says "
        "otherwise (best of 3)\n\n");
    bench_all_gradients(args, 3);
  }
  if (wanted("fit")) {
    std::printf(
        "\nA 100-parameter fit (identify_four_cubes, single thread where a row or column does not say "
        "otherwise, best of 3)\n\n");
    bench_many_parameter_fit(args.scenes, 3);
  }
  if (wanted("humanoid")) {
    std::printf("\n");
    bench_humanoid(args.scenes, 20);
  }
  if (wanted("arm26")) {
    std::printf("\n");
    bench_arm26(args.scenes, 20);
  }
  if (wanted("finger")) {
    std::printf("\n");
    bench_finger(args.scenes, 5);
  }
  if (wanted("mpc")) {
    std::printf("\n");
    bench_mpc(args.scenes, 3);
  }
  if (wanted("gpu")) {
    std::printf("\n");
    bench_gpu(args.scenes);
  }
  return kExitOk;
}

}  // namespace

void register_bench(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand("bench", "Time steps, gradient steps and the 2000-point toy sweep");
  cmd->add_option("--scenes", args->scenes, "Folder with the shipped scenes");
  cmd->add_flag("--quick", args->quick, "Short runs (for smoke tests)");
  cmd->add_option("--only", args->only,
                  "One section: steps, sweeps, 3d, gradients, fit, humanoid, arm26, finger, mpc or gpu")
      ->check(CLI::IsMember(
          {"steps", "sweeps", "3d", "gradients", "fit", "humanoid", "arm26", "finger", "mpc", "gpu"}));
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
