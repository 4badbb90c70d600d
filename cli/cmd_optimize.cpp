// softgrad optimize: gradient descent (Adam) on the scene's sweep parameter, from a start value, with the
// forward-mode gradient; prints and writes the path of the parameter and the loss.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/optimize/adam.hpp"

namespace sg::cli {
namespace {

struct OptimizeArgs {
  SceneArgs scene;
  std::optional<double> start;
  int steps = 30;
  double lr = 0.1;
  std::string out;
};

int run(const OptimizeArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  double x = args.start.value_or(problem->sweep.from);
  if (!std::isfinite(x) || !(args.lr > 0.0) || !std::isfinite(args.lr)) {
    std::fprintf(stderr, "--start and --lr must be finite, --lr > 0\n");
    return kExitBadInput;
  }
  PointEvaluator eval(*problem);
  Adam adam;
  adam.lr = args.lr;
  nlohmann::json path = nlohmann::json::array();
  for (int i = 0; i <= args.steps; ++i) {
    const LossSample s = eval.loss_and_grad(x);
    std::printf("%3d  %s = %-12.6g loss %-14.8g grad %.6g\n", i, problem->sweep.parameter.c_str(), x, s.loss,
                s.grad);
    path.push_back({{"step", i}, {"value", x}, {"loss", s.loss}, {"grad", s.grad}});
    if (s.stats.status != Status::ok) {
      std::fprintf(stderr, "step %d: %s\n", i, describe_failure(s.stats).c_str());
      return kExitFailed;
    }
    if (i < args.steps) x = adam.step(x, s.grad);
  }
  if (!args.out.empty()) {
    const nlohmann::json out = {{"parameter", problem->sweep.parameter},
                                {"lr", args.lr},
                                {"path", path},
                                {"config", problem->config}};
    if (!write_output(args.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", args.out.c_str());
  }
  return kExitOk;
}

}  // namespace

void register_optimize(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<OptimizeArgs>();
  CLI::App* cmd =
      app.add_subcommand("optimize", "Adam on the sweep parameter with the forward-mode gradient");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--start", args->start, "Start value of the sweep parameter (default: sweep.from)");
  cmd->add_option("--steps", args->steps, "Adam steps (default 30)")->check(CLI::Range(0, 100000));
  cmd->add_option("--lr", args->lr, "Learning rate (default 0.1)");
  cmd->add_option("--out", args->out, "Write the optimisation path as JSON here")->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
