// softgrad fit: identification. Moves the chosen scene numbers (--wrt) to make the simulated positions match
// measured ones (--data, CSV t,body,x,y,z on the output grid), by Levenberg-Marquardt (or Adam) with
// forward-mode derivatives (engine/optimize/fit.hpp).
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "engine/optimize/fit.hpp"
#include "engine/problem/json_number.hpp"

namespace sg::cli {
namespace {

struct FitArgs {
  SceneArgs scene;
  std::string data;
  std::vector<std::string> wrt;
  FitSettings settings;
  std::string method = "lm";
  int print_every = 1;
  std::string out;
};

void print_step(const FitStep& s) {
  std::printf("%4d  loss %-14.8g", s.iteration, s.loss);
  for (double v : s.values) std::printf(" %12.6g", v);
  std::printf("\n");
}

int run(const FitArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  if (!(args.settings.lr > 0.0) || !(args.settings.lr_final > 0.0) || !std::isfinite(args.settings.lr) ||
      !std::isfinite(args.settings.lr_final)) {
    std::fprintf(stderr, "--lr and --lr-final must be finite and > 0\n");
    return kExitBadInput;
  }
  const int bodies =
      problem->data.type == ModelType::rigid ? problem->data.rigid.count : problem->data.model.count;
  TrajectoryData data;
  std::string error;
  if (!read_trajectory_data(args.data, problem->integrator.dt, problem->integrator.steps, bodies, &data,
                            &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return kExitBadInput;
  }
  std::vector<std::string> paths = args.wrt;
  if (paths.size() == 1 && paths[0] == "all") paths = all_gradient_paths(*problem, false);
  std::unique_ptr<ParameterGradient> eval;
  try {
    eval = std::make_unique<ParameterGradient>(*problem, paths, &data);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: --wrt %s\n", args.scene.scene.c_str(), e.what());
    return kExitBadInput;
  }
  FitSettings settings = args.settings;
  settings.method = args.method == "adam" ? FitMethod::adam : FitMethod::lm;
  const std::vector<double> start = eval->initial_values();
  std::printf("fitting %zu parameters to %ld samples of %s (mean squared position error, m^2)\n",
              paths.size(), data.count, args.data.c_str());
  std::printf("%4s  %-19s", "step", "loss");
  for (const std::string& p : paths)
    std::printf(" %12s", p.size() > 12 ? p.substr(p.size() - 12).c_str() : p.c_str());
  std::printf("\n");
  const int every = args.print_every > 0 ? args.print_every : 1;
  const FitResult result = fit_parameters(*eval, start, settings, [&](const FitStep& s) {
    if (s.iteration % every == 0) print_step(s);
  });
  if (result.path.empty()) {  // the start itself failed
    std::fprintf(stderr, "%s\n", result.status.c_str());
    return kExitFailed;
  }
  const FitStep& last = result.path.back();
  if (last.iteration % every != 0) print_step(last);
  std::printf("%-36s %14s %14s\n", "parameter", "start", "fitted");
  for (std::size_t j = 0; j < paths.size(); ++j)
    std::printf("%-36s %14.8g %14.8g\n", paths[j].c_str(), start[j], last.values[j]);
  std::printf("%s after %d steps and %ld simulations (stopped: %s)\n",
              result.status == "ok" ? "done" : "failed", last.iteration, result.runs, result.stopped.c_str());
  if (result.status != "ok") std::fprintf(stderr, "%s\n", result.status.c_str());
  if (!args.out.empty()) {
    nlohmann::json steps = nlohmann::json::array();
    for (const FitStep& s : result.path) {
      nlohmann::json grad = nlohmann::json::array();
      for (double g : s.grad) grad.push_back(number_or_null(g));
      steps.push_back(
          {{"step", s.iteration}, {"loss", number_or_null(s.loss)}, {"values", s.values}, {"grad", grad}});
    }
    const nlohmann::json out = {{"scene", problem->name}, {"data", args.data},
                                {"parameters", paths},    {"start", start},
                                {"fitted", last.values},  {"status", result.status},
                                {"path", steps},          {"config", problem->config}};
    if (!write_output(args.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", args.out.c_str());
  }
  return result.status == "ok" ? kExitOk : kExitFailed;
}

}  // namespace

void register_fit(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FitArgs>();
  CLI::App* cmd = app.add_subcommand(
      "fit", "Identify scene numbers from measured positions (Levenberg-Marquardt or Adam, forward mode)");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--data", args->data,
                  "Measured positions: CSV with header t,body,x,y,z (times on the output grid)")
      ->required();
  cmd->add_option("--wrt", args->wrt,
                  "Dotted scene paths to fit (repeatable), or `all`; start values from the scene")
      ->required();
  cmd->add_option("--method", args->method,
                  "lm: Levenberg-Marquardt on the position errors (default); adam: gradient descent")
      ->check(CLI::IsMember({"lm", "adam"}));
  cmd->add_option("--steps", args->settings.steps, "Iterations (default 200)")->check(CLI::Range(0, 100000));
  cmd->add_option("--tolerance", args->settings.tolerance,
                  "Stop once the mean squared error is at or below this");
  cmd->add_option("--lr", args->settings.lr,
                  "adam: first step size, relative to the start values (default 0.05)");
  cmd->add_option("--lr-final", args->settings.lr_final,
                  "adam: last step size (geometric decay; default 1e-3)");
  cmd->add_option("--print-every", args->print_every, "Print every n-th step (default 1)");
  cmd->add_option("--out", args->out, "Write the fit's path as JSON here")->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
