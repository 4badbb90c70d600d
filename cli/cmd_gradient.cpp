// softgrad gradient: the loss and its derivative with respect to every requested scene number at once
// (forward mode with several tangent lanes per run, reverse mode with a tape, central finite differences, or
// several side by side).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/gradient_note.hpp"
#include "cli/scene_args.hpp"
#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/json_number.hpp"

namespace sg::cli {
namespace {

struct GradientArgs {
  SceneArgs scene;
  std::optional<double> value;
  std::vector<std::string> wrt;
  std::string mode = "forward";
  std::optional<double> fd_eps;
  std::string out;
  int threads = 0;
};

double relative_difference(double a, double b) {
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale > 0.0 ? std::fabs(a - b) / scale : 0.0;
}

// Backsolve's known failure: the state integrated backwards does not come back to the initial state
// (dissipative or switching contact), and the adjoint then follows another path.
// At located contact switches the force may jump (damping at onset and separation), and the continuous
// adjoint has no jump term there.
void warn_if_not_retraced(const std::vector<std::string>& modes,
                          const std::vector<ObjectiveGradient>& results, const ParameterGradient& eval) {
  constexpr double kRetraced = 1e3;  // tolerances: a smooth run comes back within a few hundred at most
  const auto it = std::find(modes.begin(), modes.end(), "backsolve");
  if (it == modes.end()) return;
  const long switches = results[static_cast<std::size_t>(it - modes.begin())].stats.events;
  if (switches > 0)
    std::fprintf(stderr,
                 "note: backsolve: the run crossed %ld contact switches; where the contact force jumps there "
                 "(damping at onset and separation) the continuous adjoint has no jump term, so derivatives "
                 "with respect to numbers that move a switch can be wrong (compare --mode all)\n",
                 switches);
  const double e = eval.backsolve_reconstruction();
  if (!(e > kRetraced)) return;
  std::fprintf(
      stderr,
      "warning: backsolve: the state integrated backwards ends %.3g tolerances away from the initial "
      "state: the backward solve did not retrace the run (dissipative or switching contact), so its "
      "gradient follows another path and may be wrong; reverse mode (--mode reverse) is exact for "
      "the discrete run\n",
      e);
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
  // As sweep refuses gradient.mode = backsolve there: the continuous adjoint needs an adaptive solver.
  if (args.mode == "backsolve" && !is_adaptive(problem->integrator.method)) {
    std::fprintf(stderr,
                 "%s: --mode backsolve integrates the adjoint backwards with an adaptive solver; "
                 "integrator.type %s is fixed-step (use forward, reverse or fd, or an adaptive integrator)\n",
                 args.scene.scene.c_str(),
                 problem->config.at("integrator").at("type").get<std::string>().c_str());
    return kExitBadInput;
  }
  std::unique_ptr<ParameterGradient> eval;
  try {
    eval = std::make_unique<ParameterGradient>(*problem, paths, nullptr);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: --wrt %s\n", args.scene.scene.c_str(), e.what());
    return kExitBadInput;
  }
  eval->set_threads(args.threads > 0 ? args.threads : available_cores());
  const std::vector<double> x = eval->initial_values();
  // The columns to compute, in this order: the first is the result, the others compare with it.
  std::vector<std::string> modes;
  if (args.mode == "both")
    modes = {"forward", "fd"};
  else if (args.mode == "all" && is_adaptive(problem->integrator.method))
    modes = {"forward", "reverse", "backsolve", "fd"};
  else if (args.mode == "all")
    modes = {"forward", "reverse", "fd"};
  else
    modes = {args.mode};
  std::vector<ObjectiveGradient> results;
  std::vector<double> seconds;
  for (const std::string& m : modes) {
    const auto t0 = std::chrono::steady_clock::now();
    if (m == "forward") results.push_back(eval->forward(x));
    if (m == "reverse") results.push_back(eval->reverse(x));
    if (m == "backsolve") results.push_back(eval->backsolve(x));
    if (m == "fd") results.push_back(eval->finite_difference(x, eps));
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const ObjectiveGradient& main = results[0];
  std::printf("%s: loss %.12g (%zu parameters", problem->name.c_str(), main.loss, paths.size());
  for (std::size_t c = 0; c < modes.size(); ++c) {
    if (modes[c] == "forward")
      std::printf("; forward: %ld runs of %d lanes", results[c].runs, ParameterGradient::kLanes);
    if (modes[c] == "reverse")
      std::printf("; reverse: 1 run replayed on the tape in %ld segments on %d threads, %.1f MB",
                  eval->segments(), eval->threads(), eval->tape_bytes() / 1e6);
    if (modes[c] == "backsolve")
      std::printf(
          "; backsolve: %ld accepted and %ld rejected steps backwards, the state back at t = 0 within "
          "%.3g x tolerance",
          eval->backsolve_stats().accepted, eval->backsolve_stats().rejected,
          eval->backsolve_reconstruction());
    if (modes[c] == "fd") std::printf("; fd: %ld runs, step %g x |value|", results[c].runs, eps);
    std::printf(", %.3f s", seconds[c]);
  }
  std::printf(")\n");
  std::printf("%-36s %14s", "parameter", "value");
  for (std::size_t c = 0; c < modes.size(); ++c) std::printf(" %20s", ("d loss / d p: " + modes[c]).c_str());
  if (modes.size() > 1) std::printf(" %12s", "max rel diff");
  std::printf("\n");
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t j = 0; j < paths.size(); ++j) {
    std::printf("%-36s %14.6g", paths[j].c_str(), x[j]);
    nlohmann::json row = {{"path", paths[j]}, {"value", x[j]}};
    double worst = 0.0;
    for (std::size_t c = 0; c < modes.size(); ++c) {
      std::printf(" %20.10g", results[c].grad[j]);
      row[modes[c]] = number_or_null(results[c].grad[j]);
      if (c > 0) worst = std::max(worst, relative_difference(results[0].grad[j], results[c].grad[j]));
    }
    if (modes.size() > 1) {
      std::printf(" %12.2e", worst);
      row["relative_difference"] = number_or_null(worst);
    }
    std::printf("\n");
    rows.push_back(row);
  }
  std::string status = "ok";
  for (std::size_t c = 0; c < modes.size() && status == "ok"; ++c)
    if (results[c].status != "ok") status = modes[c] + ": " + results[c].status;
  if (status != "ok") std::fprintf(stderr, "%s\n", status.c_str());
  warn_if_not_retraced(modes, results, *eval);
  if (modes.size() > 1 || modes[0] != "fd")
    note_straight_through(*problem);  // finite differences: the plain model
  if (!args.out.empty()) {
    nlohmann::json out = {
        {"scene", problem->name}, {"mode", args.mode},  {"loss", number_or_null(main.loss)}, {"fd_eps", eps},
        {"status", status},       {"parameters", rows}, {"config", problem->config}};
    if (std::find(modes.begin(), modes.end(), "reverse") != modes.end()) out["threads"] = eval->threads();
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
      "The loss and its derivative with respect to many scene numbers at once (forward, reverse, FD)");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--value", args->value, "Value of the sweep parameter (default: the scene's own)");
  cmd->add_option("--wrt", args->wrt,
                  "Dotted scene paths to differentiate with respect to (repeatable), or `all`: every "
                  "differentiable number of the scene")
      ->required();
  cmd->add_option("--mode", args->mode,
                  "forward (tangent lanes), reverse (one run replayed on a tape from checkpoints), backsolve "
                  "(the continuous adjoint, integrated backwards; adaptive solvers; can be wrong on stiff "
                  "contact), fd (central differences), both (forward and fd side by side) or all (forward, "
                  "reverse, backsolve where the solver is adaptive, and fd)")
      ->check(CLI::IsMember({"forward", "reverse", "backsolve", "fd", "both", "all"}));
  cmd->add_option("--fd-eps", args->fd_eps,
                  "Relative finite-difference step: h = eps |value| (eps where the value is 0); default "
                  "gradient.fd_eps");
  cmd->add_option("--out", args->out, "Write the result as JSON here")->check(output_path());
  cmd->add_option("--threads", args->threads,
                  "Threads (0: all cores) for forward mode's runs of lanes, the finite differences' runs and "
                  "reverse mode's segments; the numbers are the same to the last bit")
      ->check(CLI::Range(0, 1024));
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
