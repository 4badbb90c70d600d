// A 100-parameter identification (scenes/identify_four_cubes.json: the first 100 of its differentiable
// numbers, loss targets left out, each started 5% above the truth, fitted to the scene's own positions):
// the cost of one gradient by forward mode (ceil(P / 4) runs of four lanes) and by reverse mode (one
// checkpointed run), against one plain run, and ten Adam steps with each.
#include "cli/bench_fit.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "engine/optimize/identify.hpp"
#include "engine/problem/load_problem.hpp"

namespace sg::cli {
namespace {

constexpr std::size_t kParameters = 100;
constexpr int kAdamSteps = 10;

template <class F>
double best_seconds(int rounds, F&& fn) {
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

struct AdamRun {
  double seconds = 0.0, first = 0.0, last = 0.0;
  long runs = 0;
  std::string status;
};

AdamRun adam(ParameterGradient& g, const std::vector<double>& start, bool reverse, int threads) {
  FitSettings s;
  s.method = FitMethod::adam;
  s.steps = kAdamSteps;
  s.lr = 0.01;
  s.lr_final = 0.01;
  s.reverse = reverse;
  s.threads = threads;
  s.uncertainty = false;  // the bench times the descent's gradients alone
  AdamRun out;
  FitResult r;
  out.seconds = best_seconds(1, [&] { r = fit_parameters(g, start, s, {}); });
  out.status = r.status;
  out.runs = r.runs;
  if (!r.path.empty()) {
    out.first = r.path.front().loss;
    out.last = r.path.back().loss;
  }
  return out;
}

}  // namespace

void bench_many_parameter_fit(const std::string& scenes, int rounds) {
  const ProblemLoad loaded = load_problem_file(scenes + "/identify_four_cubes.json");
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s", loaded.errors.c_str());
    return;
  }
  const Problem& p = *loaded.problem;
  const IdentifySetup setup = identify_setup(p);
  if (setup.status != "ok") {
    std::fprintf(stderr, "identify_four_cubes: %s\n", setup.status.c_str());
    return;
  }
  std::vector<std::string> paths = all_gradient_paths(p, false);
  paths.resize(std::min(paths.size(), kParameters));
  ParameterGradient g(p, paths, &setup.data);
  std::vector<double> start = g.initial_values();
  for (double& v : start) v *= 1.05;
  SolveStats stats;
  const double plain = best_seconds(rounds, [&] { g.objective(start, &stats); });
  const double forward = best_seconds(rounds, [&] { g.forward(start); });
  const double reverse = best_seconds(rounds, [&] { g.reverse(start); });
  const double bytes = 1e-6 * static_cast<double>(g.tape_bytes());
  const int cores = available_cores();
  g.set_threads(cores);
  const double threaded = best_seconds(rounds, [&] { g.reverse(start); });
  g.set_threads(1);
  std::printf(
      "| parameters | accepted steps | plain run | gradient, forward | gradient, reverse | reverse / plain | "
      "reverse memory | reverse, %d threads | / plain |\n|---|---|---|---|---|---|---|---|---|\n",
      cores);
  std::printf(
      "| %zu | %ld | %.1f ms | %.1f ms (%zu runs) | %.1f ms | %.1fx | %.1f MB | %.1f ms | %.1fx |\n\n",
      paths.size(), stats.accepted, 1e3 * plain, 1e3 * forward,
      (paths.size() + ParameterGradient::kLanes - 1) / ParameterGradient::kLanes, 1e3 * reverse,
      reverse / plain, bytes, 1e3 * threaded, threaded / plain);
  std::printf(
      "| %d Adam steps | wall time | simulations | mean squared error, first -> last | status |\n"
      "|---|---|---|---|---|\n",
      kAdamSteps);
  for (int variant = 0; variant < 3; ++variant) {
    const bool rev = variant > 0;
    const int threads = variant == 2 ? cores : 1;
    const AdamRun r = adam(g, start, rev, threads);
    std::printf("| gradient by %s mode%s | %.2f s | %ld | %.3e -> %.3e | %s |\n", rev ? "reverse" : "forward",
                threads > 1 ? (", " + std::to_string(threads) + " threads").c_str() : "", r.seconds, r.runs,
                r.first, r.last, r.status.c_str());
  }
}

}  // namespace sg::cli
