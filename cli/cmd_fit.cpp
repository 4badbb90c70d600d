// softgrad fit: identification. Moves the chosen scene numbers (--wrt, or the scene's identify.parameters
// from their start values) to make the simulated positions match measured ones (--data, CSV t,body,x,y,z on
// the output grid, or without it the scene's own positions: synthetic measurements with identify.noise), by
// Levenberg-Marquardt (or Adam) with forward-mode derivatives (engine/optimize/fit.hpp, identify.hpp).
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/fit_bound_args.hpp"
#include "cli/fit_profile_output.hpp"
#include "cli/scene_args.hpp"
#include "engine/optimize/identify.hpp"
#include "engine/problem/json_number.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/identification_figure.hpp"
#include "plots/sweep_figures/profile_figure.hpp"

namespace sg::cli {
namespace {

struct FitArgs {
  SceneArgs scene;
  std::vector<std::string> data;  // one file, or one per run: the scene's, then identify.rollouts'
  std::vector<std::string> wrt;
  std::vector<std::string> bounds;  // PATH=MIN:MAX
  FitSettings settings;
  int steps = -1;      // -1: identify.steps
  std::string method;  // "": identify.method
  std::string gradient = "auto";
  int print_every = 1;
  int threads = 0;
  std::string out, svg;
  bool profile = false;         // profile-likelihood intervals after the fit (or identify.profile)
  std::optional<double> level;  // their level (default: identify.level)
  std::string profile_svg;
};

void print_step(const FitStep& s) {
  std::printf("%4d  loss %-14.8g", s.iteration, s.loss);
  for (double v : s.values) std::printf(" %12.6g", v);
  std::printf("\n");
}

// The correlation matrix of the fitted values, for two or more ("-" where a standard error is inf).
void print_correlation(const std::vector<std::string>& paths, const FitResult& result) {
  const std::size_t n = paths.size();
  if (n < 2 || result.correlation.size() != n * n) return;
  auto tail = [](const std::string& p) { return p.size() > 12 ? p.substr(p.size() - 12) : p; };
  std::printf("correlations of the fitted values (near +-1: the data trade one against the other):\n%-14s",
              "");
  for (const std::string& p : paths) std::printf(" %12s", tail(p).c_str());
  std::printf("\n");
  for (std::size_t i = 0; i < n; ++i) {
    std::printf("%-14s", tail(paths[i]).c_str());
    for (std::size_t j = 0; j < n; ++j) {
      const double c = result.correlation[i * n + j];
      if (std::isfinite(c))
        std::printf(" %12.3f", c);
      else
        std::printf(" %12s", "-");
    }
    std::printf("\n");
  }
}

// The table of fitted values: start, fitted, standard error (with "at bound" for a value on an end of its
// range), and with synthetic data the truth and the relative error; then the residual standard deviation.
void print_fitted(const std::vector<std::string>& paths, const std::vector<double>& start,
                  const FitResult& result, const std::vector<double>* truth) {
  const std::vector<double>& fitted = result.path.back().values;
  std::printf("%-36s %14s %14s %11s%s\n", "parameter", "start", "fitted", "std. error",
              truth ? "          truth    rel. error" : "");
  for (std::size_t j = 0; j < paths.size(); ++j) {
    std::printf("%-36s %14.8g %14.8g", paths[j].c_str(), start[j], fitted[j]);
    if (j < result.std_error.size())
      std::printf(" %11.3g", result.std_error[j]);
    else
      std::printf(" %11s", "-");
    if (truth)
      std::printf(" %14.8g %12.3g%%", (*truth)[j],
                  100.0 * std::fabs(fitted[j] - (*truth)[j]) / std::max(std::fabs((*truth)[j]), 1e-300));
    if (j < result.at_bound.size() && result.at_bound[j]) std::printf("  (at its bound)");
    std::printf("\n");
  }
  if (std::isfinite(result.residual_sigma))
    std::printf(
        "residual standard deviation %.3g m per coordinate; standard errors from the Gauss-Newton covariance "
        "(inf: not determined by the data)\n",
        result.residual_sigma);
  print_correlation(paths, result);
}

// Measured positions into setup: one file for the scene's own run (identify.rollouts then left out, with a
// note), or one per run, the scene's first, then each rollout's in order. False after printing why.
bool read_measured(const FitArgs& args, const Problem& problem, IdentifySetup& setup) {
  const std::size_t runs = 1 + setup.rollouts.size();
  if (args.data.size() != 1 && args.data.size() != runs) {
    std::fprintf(
        stderr,
        "--data: %zu files for %zu runs (the scene's and %zu of identify.rollouts): give one file for "
        "the scene's run, or one per run in that order\n",
        args.data.size(), runs, setup.rollouts.size());
    return false;
  }
  if (args.data.size() == 1 && runs > 1)
    std::printf("note: one --data file: fitting the scene's own run without its %zu identify.rollouts\n",
                setup.rollouts.size());
  if (args.data.size() == 1) {
    setup.rollouts.clear();
    setup.rollout_data.clear();
  }
  const int bodies =
      problem.data.type == ModelType::rigid ? problem.data.rigid.count : problem.data.model.count;
  for (std::size_t k = 0; k < args.data.size(); ++k) {
    TrajectoryData& into = k == 0 ? setup.data : setup.rollout_data[k - 1];
    std::string error;
    if (!read_trajectory_data(args.data[k], problem.integrator.dt, problem.integrator.steps, bodies, &into,
                              &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return false;
    }
  }
  return true;
}

// --profile: the intervals after the fit, printed and drawn (--profile-svg); into *json for --out. False
// when they could not be made (printed why).
bool run_profile(const FitArgs& args, double eval_level, Rollouts& eval, const ObjectiveFactory& more,
                 FitResult& fit, const FitSettings& settings, const std::vector<std::string>& paths,
                 const std::vector<double>* truth, nlohmann::json* json) {
  ProfileSettings ps;
  ps.level = args.level.value_or(eval_level);
  ps.refit = settings;
  std::printf("profiling (%zu numbers, each held in turn while the others are fitted again)\n", paths.size());
  std::vector<double> restart_from = fit.path.back().values;
  const ProfileResult profile = profile_with_restarts(
      eval, fit, settings, ps, kProfileRestarts,
      [&](std::size_t j, const ProfilePoint& q) {
        std::printf("  %-34s %14.8g  delta %.4g\n", paths[j].c_str(), q.value, q.delta);
      },
      [&](const FitResult& again) {
        std::printf("a refit found a lower error than the fit's: fitted again from there (%ld simulations)\n",
                    again.runs);
        print_fitted(paths, restart_from, again, truth);
        restart_from = again.path.back().values;
        std::printf("profiling again\n");
      },
      more);
  *json = profile_json(paths, profile);
  if (profile.status != "ok") {
    std::fprintf(stderr, "profile: %s\n", profile.status.c_str());
    return false;
  }
  print_profile(paths, fit, profile);
  std::printf("profile: %ld simulations\n", profile.runs);
  if (!args.profile_svg.empty()) {
    const plot::Figure figure = profile_figure(paths, fit.path.back().values, fit.std_error,
                                               truth ? *truth : std::vector<double>{}, profile);
    if (!write_output(args.profile_svg,
                      plot::to_svg(figure, 420 * figure.columns, 360 * ((paths.size() + 2) / 3))))
      return false;
    std::printf("profile plot: %s\n", args.profile_svg.c_str());
  }
  return true;
}

int run(const FitArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  if (!(args.settings.lr > 0.0) || !(args.settings.lr_final > 0.0) || !std::isfinite(args.settings.lr) ||
      !std::isfinite(args.settings.lr_final)) {
    std::fprintf(stderr, "--lr and --lr-final must be finite and > 0\n");
    return kExitBadInput;
  }
  if (args.level && !(*args.level > 0.0 && *args.level < 1.0)) {
    std::fprintf(stderr, "--level must be in (0, 1), e.g. 0.95\n");
    return kExitBadInput;
  }
  // Paths and start values: --wrt from the scene's values, or the scene's identify section.
  const bool from_scene = args.wrt.empty();
  IdentifySetup setup = identify_setup(*problem);
  if (from_scene && setup.paths.empty()) {
    std::fprintf(stderr,
                 "%s: --wrt: give the scene paths to fit, or list them in the scene's identify.parameters\n",
                 args.scene.scene.c_str());
    return kExitBadInput;
  }
  if (!from_scene) {
    setup.paths = args.wrt;
    if (setup.paths.size() == 1 && setup.paths[0] == "all") setup.paths = all_gradient_paths(*problem, false);
  }
  const bool synthetic = args.data.empty();
  if (synthetic && setup.status != "ok") {
    std::fprintf(stderr, "%s: %s\n", args.scene.scene.c_str(), setup.status.c_str());
    return kExitFailed;
  }
  if (!synthetic && !read_measured(args, *problem, setup)) return kExitBadInput;
  const std::vector<std::string>& paths = setup.paths;
  std::unique_ptr<Rollouts> eval;
  try {
    eval = std::make_unique<Rollouts>(rollouts_of(*problem, setup, paths));
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: --wrt %s\n", args.scene.scene.c_str(), e.what());
    return kExitBadInput;
  }
  FitSettings settings = identify_settings(*problem);
  settings.lr = args.settings.lr;
  settings.lr_final = args.settings.lr_final;
  settings.tolerance = args.settings.tolerance;
  if (!args.method.empty()) settings.method = args.method == "adam" ? FitMethod::adam : FitMethod::lm;
  if (args.steps >= 0) settings.steps = args.steps;
  // auto: reverse mode once it is cheaper than ceil(P / 4) forward runs, where the scene allows it.
  settings.reverse = args.gradient == "reverse" || (args.gradient == "auto" && paths.size() > 12 &&
                                                    !problem->integrator.through_controller);
  settings.threads = args.threads > 0 ? args.threads : available_cores();
  settings.bounds = fit_bounds(*problem, paths);
  std::string bound_error;
  if (!apply_bound_args(args.bounds, paths, &settings.bounds, &bound_error)) {
    std::fprintf(stderr, "%s: %s\n", args.scene.scene.c_str(), bound_error.c_str());
    return kExitBadInput;
  }
  const std::vector<double> start = from_scene ? setup.start : eval->initial_values();
  for (std::size_t j = 0; j < paths.size(); ++j)
    if (!settings.bounds[j].contains(start[j])) {
      std::fprintf(stderr, "%s: %s: the start %.17g is outside the fit's range (%s)\n",
                   args.scene.scene.c_str(), paths[j].c_str(), start[j], settings.bounds[j].text().c_str());
      return kExitBadInput;
    }
  const std::string source = synthetic ? setup.data.source : args.data.front();
  std::printf("fitting %zu parameters to %ld samples of %s", paths.size(), setup.samples(), source.c_str());
  if (!setup.rollouts.empty()) std::printf(" and %zu more rollouts", setup.rollouts.size());
  std::printf(" (mean squared position error, m^2)\n");
  std::printf("%4s  %-19s", "step", "loss");
  for (const std::string& p : paths)
    std::printf(" %12s", p.size() > 12 ? p.substr(p.size() - 12).c_str() : p.c_str());
  std::printf("\n");
  const int every = args.print_every > 0 ? args.print_every : 1;
  FitResult result = fit_parameters(*eval, start, settings, [&](const FitStep& s) {
    if (s.iteration % every == 0) print_step(s);
  });
  if (result.path.empty()) {  // the start itself failed
    std::fprintf(stderr, "%s\n", result.status.c_str());
    return kExitFailed;
  }
  if (result.path.back().iteration % every != 0) print_step(result.path.back());
  // With synthetic measurements the scene's values are the truth: the fit's error against it.
  const bool truth = synthetic && from_scene;
  print_fitted(paths, start, result, truth ? &setup.truth : nullptr);
  std::printf("%s after %d steps and %ld simulations (stopped: %s)\n",
              result.status == "ok" ? "done" : "failed", result.path.back().iteration, result.runs,
              result.stopped.c_str());
  if (result.status != "ok") std::fprintf(stderr, "%s\n", result.status.c_str());
  nlohmann::json profile_out;
  const bool profile = args.profile || !args.profile_svg.empty() || problem->identify.profile;
  // The profile may fit again from a lower point it finds: result is then that fit.
  const bool profiled = result.status != "ok" || !profile ||
                        run_profile(
                            args, problem->identify.level, *eval,
                            [&] { return std::make_unique<Rollouts>(rollouts_of(*problem, setup, paths)); },
                            result, settings, paths, truth ? &setup.truth : nullptr, &profile_out);
  const FitStep& last = result.path.back();
  if (!args.svg.empty()) {
    const plot::Figure figure =
        identification_figure(paths, truth ? setup.truth : std::vector<double>{}, result.path);
    if (!write_output(args.svg, plot::to_svg(figure, truth ? 1100 : 600, 450))) return kExitFailed;
    std::printf("plot: %s\n", args.svg.c_str());
  }
  if (!args.out.empty()) {
    nlohmann::json steps = nlohmann::json::array();
    for (const FitStep& s : result.path) {
      nlohmann::json grad = nlohmann::json::array();
      for (double g : s.grad) grad.push_back(number_or_null(g));
      steps.push_back(
          {{"step", s.iteration}, {"loss", number_or_null(s.loss)}, {"values", s.values}, {"grad", grad}});
    }
    nlohmann::json out = {{"scene", problem->name}, {"data", source},           {"parameters", paths},
                          {"start", start},         {"fitted", last.values},    {"status", result.status},
                          {"path", steps},          {"config", problem->config}};
    nlohmann::json errors = nlohmann::json::array();
    for (double e : result.std_error) errors.push_back(number_or_null(e));
    out["std_error"] = errors;
    out["residual_sigma"] = number_or_null(result.residual_sigma);
    out["at_bound"] = result.at_bound;
    nlohmann::json correlation = nlohmann::json::array();
    for (std::size_t i = 0; i * paths.size() < result.correlation.size(); ++i) {
      nlohmann::json row = nlohmann::json::array();
      for (std::size_t j = 0; j < paths.size(); ++j)
        row.push_back(number_or_null(result.correlation[i * paths.size() + j]));
      correlation.push_back(row);
    }
    out["correlation"] = correlation;
    if (!profile_out.is_null()) out["profile"] = profile_out;
    if (!write_output(args.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", args.out.c_str());
  }
  return result.status == "ok" && profiled ? kExitOk : kExitFailed;
}

}  // namespace

void register_fit(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<FitArgs>();
  CLI::App* cmd = app.add_subcommand(
      "fit", "Identify scene numbers from measured positions (Levenberg-Marquardt or Adam, forward mode)");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--data", args->data,
                  "Measured positions: CSV with header t,body,x,y,z (times on the output grid); repeat it to "
                  "give one file per run: the scene's, then each of identify.rollouts in order. Without it, "
                  "the scene's own positions with identify.noise (synthetic measurements)");
  cmd->add_option(
      "--wrt", args->wrt,
      "Dotted scene paths to fit (repeatable), or `all`; start values from the scene. Without it: "
      "the scene's identify.parameters from their start values");
  cmd->add_option(
      "--bound", args->bounds,
      "PATH=MIN:MAX: keep a fitted number in [MIN, MAX] (repeatable; an end may be empty: 0.1:), on "
      "top of its key's own range and identify.parameters.*.min / max");
  cmd->add_option("--method", args->method,
                  "lm: Levenberg-Marquardt on the position errors; adam: gradient descent (default: "
                  "identify.method)")
      ->check(CLI::IsMember({"lm", "adam"}));
  cmd->add_option(
         "--gradient", args->gradient,
         "adam: the gradient by forward or reverse mode; auto (default): reverse beyond 12 parameters")
      ->check(CLI::IsMember({"auto", "forward", "reverse"}));
  cmd->add_option("--steps", args->steps, "Iterations (default: identify.steps)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--tolerance", args->settings.tolerance,
                  "Stop once the mean squared error is at or below this");
  cmd->add_option("--lr", args->settings.lr,
                  "adam: first step size, relative to the start values (default 0.05)");
  cmd->add_option("--lr-final", args->settings.lr_final,
                  "adam: last step size (geometric decay; default 1e-3)");
  cmd->add_option("--print-every", args->print_every, "Print every n-th step (default 1)");
  cmd->add_option("--threads", args->threads,
                  "Threads (0: all cores) for each step's forward-mode runs or reverse-mode segments; the "
                  "same numbers to the last bit")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("--profile", args->profile,
                "After the fit, profile-likelihood intervals: each number held at values stepped away from "
                "its fit while the others are fitted again, until the error has risen by the level's "
                "chi-square quantile (honest where the standard errors' linearisation is not); also "
                "--set identify.profile=true");
  cmd->add_option("--level", args->level,
                  "Confidence level of the --profile intervals (default: identify.level, 0.6827)");
  cmd->add_option("--profile-svg", args->profile_svg,
                  "Draw each number's profile against the parabola of its standard error as SVG here "
                  "(implies --profile)")
      ->check(output_path());
  cmd->add_option("--out", args->out, "Write the fit's path as JSON here")->check(output_path());
  cmd->add_option("--svg", args->svg,
                  "Draw the error per iteration (and each number's error against the truth) as SVG here")
      ->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
