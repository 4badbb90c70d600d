#include "cli/bench_mpc.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/control/mpc.hpp"
#include "engine/core/available_cores.hpp"
#include "engine/problem/load_problem.hpp"

namespace sg::cli {
namespace {

struct MpcCase {
  const char* planner;
  long horizon;
  double target_ms;  // 0: no target
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

void bench_mpc(const std::string& scenes, int rounds) {
  const std::vector<MpcCase> cases = {
      {"gradient", 50, 50.0}, {"sampling", 50, 30.0}, {"gradient", 100, 0.0}, {"sampling", 100, 0.0}};
  const int threads = available_cores();
  std::printf(
      "MPC push task (scenes/mpc_finger_push.json): wall time per planning step (planning and executing), "
      "%d threads, median and slowest over %d runs of the whole task\n\n"
      "| planner | horizon | per step | median | slowest | final cost | target "
      "|\n|---|---|---|---|---|---|---|\n",
      threads, rounds);
  for (const MpcCase& c : cases) {
    ProblemLoad loaded = load_problem_file(
        scenes + "/mpc_finger_push.json",
        {std::string("mpc.planner=") + c.planner, "mpc.horizon=" + std::to_string(c.horizon)});
    if (!loaded.ok()) {  // without libmujoco an MJCF scene does not load
      std::fprintf(stderr, "%s", loaded.errors.c_str());
      return;
    }
    const MpcSettings s = mpc_settings(*loaded.problem);
    MpcCallbacks cb;
    cb.threads = threads;
    std::vector<double> ms;
    double slowest = 0.0, final_cost = 0.0;
    for (int r = 0; r < rounds; ++r) {
      const MpcResult result = run_mpc(*loaded.problem, s, cb);
      for (const PlanningStep& step : result.steps) {
        ms.push_back(step.wall_ms);
        slowest = std::max(slowest, step.wall_ms);
      }
      final_cost = result.final_cost;
    }
    const std::string per_step = c.planner == std::string("gradient")
                                     ? std::to_string(s.iterations) + " Adam iterations"
                                     : std::to_string(s.samples) + " samples";
    const double m = median(ms);
    std::printf("| %s | %ld | %s | %.1f ms | %.1f ms | %.3g | %s |\n", c.planner, c.horizon, per_step.c_str(),
                m, slowest, final_cost,
                c.target_ms <= 0.0 ? "-"
                : m < c.target_ms ? ("met (" + std::to_string(static_cast<int>(c.target_ms)) + " ms)").c_str()
                                  : "**not met**");
  }
}

}  // namespace sg::cli
