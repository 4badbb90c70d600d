// softgrad gradient: the loss and its derivative with respect to every requested scene number at once
// (forward mode with several tangent lanes per run, or central finite differences, or both side by side).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "engine/gradient/parameter_gradient.hpp"

namespace sg::cli {
namespace {

struct GradientArgs {
  SceneArgs scene;
  std::optional<double> value;
  std::vector<std::string> wrt;
  std::string mode = "forward";
  std::optional<double> fd_eps;
  std::string out;
};

nlohmann::json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

double relative_difference(double a, double b) {
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale > 0.0 ? std::fabs(a - b) / scale : 0.0;
}

int run(const GradientArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  if (args.value) {
    if (!std::isfinite(*args.value)) {
      std::fprintf(stderr, "--value: expected a finite number\n");
      return kExitBadInput;
    }
    *parameter_slot(problem->data, problem->sweep.parameter) = *args.value;
  }
  std::vector<std::string> paths = args.wrt;
  if (paths.size() == 1 && paths[0] == "all") paths = all_gradient_paths(*problem, true);
  const double eps = args.fd_eps.value_or(problem->gradient.fd_eps);
  if (!(eps > 0.0) || !std::isfinite(eps)) {
    std::fprintf(stderr, "--fd-eps: expected a finite number > 0\n");
    return kExitBadInput;
  }
  std::unique_ptr<ParameterGradient> eval;
  try {
    eval = std::make_unique<ParameterGradient>(*problem, paths, nullptr);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: --wrt %s\n", args.scene.scene.c_str(), e.what());
    return kExitBadInput;
  }
  const std::vector<double> x = eval->initial_values();
  const bool want_forward = args.mode != "fd", want_fd = args.mode != "forward";
  const auto t0 = std::chrono::steady_clock::now();
  ObjectiveGradient fwd, fd;
  if (want_forward) fwd = eval->forward(x);
  const auto t1 = std::chrono::steady_clock::now();
  if (want_fd) fd = eval->finite_difference(x, eps);
  const auto t2 = std::chrono::steady_clock::now();
  const ObjectiveGradient& main = want_forward ? fwd : fd;

  std::printf("%s: loss %.12g (%zu parameters", problem->name.c_str(), main.loss, paths.size());
  if (want_forward)
    std::printf("; forward mode: %ld runs of %d lanes, %.3f s", fwd.runs, ParameterGradient::kLanes,
                std::chrono::duration<double>(t1 - t0).count());
  if (want_fd)
    std::printf("; finite differences: %ld runs, step %g x |value|, %.3f s", fd.runs, eps,
                std::chrono::duration<double>(t2 - t1).count());
  std::printf(")\n");
  std::printf("%-36s %14s %20s", "parameter", "value",
              want_forward ? "d loss / d param" : "finite difference");
  if (want_forward && want_fd) std::printf(" %20s %10s", "finite difference", "rel. diff");
  std::printf("\n");
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t j = 0; j < paths.size(); ++j) {
    const double g = main.grad[j];
    std::printf("%-36s %14.6g %20.10g", paths[j].c_str(), x[j], g);
    nlohmann::json row = {{"path", paths[j]}, {"value", x[j]}};
    if (want_forward) row["forward"] = number_or_null(fwd.grad[j]);
    if (want_fd) row["fd"] = number_or_null(fd.grad[j]);
    if (want_forward && want_fd) {
      const double rel = relative_difference(fwd.grad[j], fd.grad[j]);
      std::printf(" %20.10g %10.2e", fd.grad[j], rel);
      row["relative_difference"] = number_or_null(rel);
    }
    std::printf("\n");
    rows.push_back(row);
  }
  std::string status = want_forward ? fwd.status : fd.status;
  if (status == "ok" && want_fd && fd.status != "ok") status = "finite differences: " + fd.status;
  if (status != "ok") std::fprintf(stderr, "%s\n", status.c_str());
  if (!args.out.empty()) {
    const nlohmann::json out = {
        {"scene", problem->name}, {"mode", args.mode},  {"loss", number_or_null(main.loss)}, {"fd_eps", eps},
        {"status", status},       {"parameters", rows}, {"config", problem->config}};
    if (!write_output(args.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", args.out.c_str());
  }
  return status == "ok" ? kExitOk : kExitFailed;
}

}  // namespace

void register_gradient(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<GradientArgs>();
  CLI::App* cmd = app.add_subcommand(
      "gradient",
      "The loss and its derivative with respect to many scene numbers at once (forward mode or FD)");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--value", args->value, "Value of the sweep parameter (default: the scene's own)");
  cmd->add_option("--wrt", args->wrt,
                  "Dotted scene paths to differentiate with respect to (repeatable), or `all`: every "
                  "differentiable number of the scene")
      ->required();
  cmd->add_option("--mode", args->mode,
                  "forward (tangent lanes), fd (central differences) or both (side by side); reverse mode is "
                  "not implemented yet")
      ->check(CLI::IsMember({"forward", "fd", "both"}));
  cmd->add_option("--fd-eps", args->fd_eps,
                  "Relative finite-difference step: h = eps |value| (eps where the value is 0); default "
                  "gradient.fd_eps");
  cmd->add_option("--out", args->out, "Write the result as JSON here")->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
