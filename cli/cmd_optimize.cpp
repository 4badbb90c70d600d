// softgrad optimize: gradient descent (Adam) on the scene's sweep parameter with the AD gradient: from one
// start value, or from optimize.starts values spread over the sweep range (--starts); prints and writes the
// paths of the parameter and the loss. Settings default to the scene's optimize.* keys.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/gradient_note.hpp"
#include "cli/scene_args.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/optimize/descent.hpp"

namespace sg::cli {
namespace {

struct OptimizeArgs {
  SceneArgs scene;
  std::optional<double> start;
  std::optional<long> starts, steps;
  std::optional<double> lr;
  std::string out;
};

nlohmann::json path_json(const DescentPath& path) {
  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t i = 0; i < path.x.size(); ++i)
    steps.push_back({{"step", i}, {"value", path.x[i]}, {"loss", path.loss[i]}, {"grad", path.grad[i]}});
  return steps;
}

void print_path(const Problem& problem, const DescentPath& path) {
  for (std::size_t i = 0; i < path.x.size(); ++i)
    std::printf("%3zu  %s = %-12.6g loss %-14.8g grad %.6g\n", i, problem.sweep.parameter.c_str(), path.x[i],
                path.loss[i], path.grad[i]);
}

int run(const OptimizeArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  DescentSettings& settings = problem->descent;  // the scene's optimize.*, overridden by the options
  if (args.starts) settings.starts = *args.starts;
  if (args.steps) settings.steps = *args.steps;
  if (args.lr) settings.lr = *args.lr;
  if ((args.start && !std::isfinite(*args.start)) || !(settings.lr > 0.0) || !std::isfinite(settings.lr)) {
    std::fprintf(stderr, "--start and --lr must be finite, --lr > 0\n");
    return kExitBadInput;
  }
  if (args.start && args.starts) {
    std::fprintf(stderr,
                 "--start and --starts exclude each other (one start value, or starts spread over the "
                 "sweep range)\n");
    return kExitBadInput;
  }
  std::vector<DescentPath> paths;
  if (args.starts) {
    paths = run_descent(*problem).paths;
    for (const DescentPath& p : paths)
      std::printf("start %-10.6g -> %-12.6g loss %-12.6g -> %-12.6g (%zu steps)%s%s\n", p.start,
                  p.x.empty() ? NAN : p.x.back(), p.loss.empty() ? NAN : p.loss.front(),
                  p.loss.empty() ? NAN : p.loss.back(), p.x.empty() ? 0 : p.x.size() - 1,
                  p.status == "ok" ? "" : ": ", p.status == "ok" ? "" : p.status.c_str());
  } else {
    paths.push_back(descend_from(*problem, args.start.value_or(problem->sweep.from), settings));
    print_path(*problem, paths.back());
  }
  note_straight_through(*problem);
  bool failed = false;
  for (const DescentPath& p : paths)
    if (p.status != "ok") {
      std::fprintf(stderr, "start %g: %s\n", p.start, p.status.c_str());
      failed = true;
    }
  if (!args.out.empty()) {
    nlohmann::json out = {{"parameter", problem->sweep.parameter},
                          {"lr", settings.lr},
                          {"steps", settings.steps},
                          {"config", problem->config}};
    if (args.starts) {
      out["paths"] = nlohmann::json::array();
      for (const DescentPath& p : paths)
        out["paths"].push_back({{"start", p.start}, {"status", p.status}, {"path", path_json(p)}});
    } else {
      out["path"] = path_json(paths.back());
    }
    if (!write_output(args.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", args.out.c_str());
  }
  return failed ? kExitFailed : kExitOk;
}

}  // namespace

void register_optimize(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<OptimizeArgs>();
  CLI::App* cmd = app.add_subcommand("optimize", "Adam on the sweep parameter with the AD gradient");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--start", args->start, "Start value of the sweep parameter (default: sweep.from)");
  cmd->add_option(
         "--starts", args->starts,
         "Descend from this many starts spread over the sweep range instead (scene: optimize.starts)")
      ->check(CLI::Range(1L, 64L));
  cmd->add_option("--steps", args->steps, "Adam steps (scene: optimize.steps, default 30)")
      ->check(CLI::Range(0L, 100000L));
  cmd->add_option("--lr", args->lr, "Learning rate (scene: optimize.lr, default 0.1)");
  cmd->add_option("--out", args->out, "Write the optimisation path(s) as JSON here")->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
