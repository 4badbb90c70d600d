// softgrad fit: identification. Moves the chosen scene numbers (--wrt, or the scene's identify.parameters
// from their start values) to make the simulated positions match measured ones (--data, CSV t,body,x,y,z on
// the output grid, or without it the scene's own positions: synthetic measurements with identify.noise), by
// Levenberg-Marquardt (or Adam) with forward-mode derivatives (engine/optimize/fit.hpp, identify.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/fit_bootstrap_output.hpp"
#include "cli/fit_bound_args.hpp"
#include "cli/fit_output.hpp"
#include "cli/fit_profile_output.hpp"
#include "cli/fit_tosses.hpp"
#include "cli/scene_args.hpp"
#include "engine/optimize/identify.hpp"
#include "engine/problem/json_number.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/bootstrap_figure.hpp"
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
  std::optional<int> bootstrap;  // parametric bootstrap draws after the fit (default: identify.bootstrap)
  std::string bootstrap_csv, bootstrap_svg;
  std::string bootstrap_from;  // "": identify.bootstrap_from
  TossFitRequest tosses;       // --tosses FILE: measured tosses cut into segments
  std::optional<double> beta1, beta2, adam_eps;
  std::string label;  // --out's `label` (fit-figure's legend)
};

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
  const int bodies = scored_body_count(problem.data);
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

// A figure of one plot per fitted number (a profile's, a bootstrap's) as SVG: 420 x 360 pixels a plot, on its
// grid of columns.
bool write_grid_svg(const std::string& path, const plot::Figure& figure) {
  const std::size_t columns = static_cast<std::size_t>(std::max(1, figure.columns));
  const std::size_t rows = (figure.plots.size() + columns - 1) / columns;
  return write_output(path,
                      plot::to_svg(figure, 420 * static_cast<int>(columns), 360 * static_cast<int>(rows)));
}

// --profile: the intervals after the fit, printed and drawn (--profile-svg); into *json for --out. False
// when they could not be made (printed why).
bool run_profile(const FitArgs& args, const Problem& problem, const IdentifySetup& setup, FitResult& fit,
                 const FitSettings& settings, const std::vector<double>* truth, nlohmann::json* json) {
  const std::vector<std::string>& paths = setup.paths;
  std::printf("profiling (%zu numbers, each held in turn while the others are fitted again)\n", paths.size());
  std::vector<double> restart_from = fit.path.back().values;
  const ProfileResult profile = run_identification_profile(
      problem, setup, fit, settings, args.level.value_or(problem.identify.level),
      [&](std::size_t j, const ProfilePoint& q) {
        std::printf("  %-34s %14.8g  delta %.4g\n", paths[j].c_str(), q.value, q.delta);
      },
      [&](const FitResult& again) {
        std::printf("a refit found a lower error than the fit's: fitted again from there (%ld simulations)\n",
                    again.runs);
        print_fitted(paths, restart_from, again, truth);
        restart_from = again.path.back().values;
        std::printf("profiling again\n");
      });
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
    if (!write_grid_svg(args.profile_svg, figure)) return false;
    std::printf("profile plot: %s\n", args.profile_svg.c_str());
  }
  return true;
}

// --bootstrap: the intervals from refits on measurements drawn from the fitted model, printed, into *json
// for --out and as CSV (--bootstrap-csv). False when they could not be made (printed why).
bool run_bootstrap(const FitArgs& args, const Problem& problem, const IdentifySetup& setup,
                   const FitResult& fit, const FitSettings& settings, int draws,
                   const std::vector<double>* truth, const std::vector<double>* start, nlohmann::json* json) {
  const bool from_fit =
      args.bootstrap_from.empty() ? problem.identify.bootstrap_from_fit : args.bootstrap_from == "fit";
  std::printf(
      "bootstrap: %d draws from the fitted model (noise %.4g m per coordinate), each fitted again from %s\n",
      draws, fit.residual_sigma, from_fit ? "the fitted values" : "the fit's start");
  int done = 0;
  std::mutex printing;
  const BootstrapResult boot = run_identification_bootstrap(
      problem, setup, fit, settings, draws, args.level.value_or(problem.identify.level),
      from_fit ? std::vector<double>{} : *start, [&](int, const std::vector<double>&) {
        const std::lock_guard<std::mutex> lock(printing);
        if (++done % 10 == 0 || done == draws) std::printf("  %d of %d draws\n", done, draws);
      });
  *json = bootstrap_json(setup.paths, boot);
  (*json)["from"] = from_fit ? "fit" : "start";
  if (boot.status != "ok") {
    std::fprintf(stderr, "bootstrap: %s\n", boot.status.c_str());
    return false;
  }
  print_bootstrap(setup.paths, fit, boot);
  std::printf("bootstrap: %ld simulations\n", boot.runs);
  if (!args.bootstrap_csv.empty()) {
    if (!write_output(args.bootstrap_csv, bootstrap_csv(setup.paths, boot))) return false;
    std::printf("bootstrap draws: %s\n", args.bootstrap_csv.c_str());
  }
  if (!args.bootstrap_svg.empty()) {
    const plot::Figure figure = bootstrap_figure(setup.paths, fit.path.back().values, fit.std_error,
                                                 truth ? *truth : std::vector<double>{}, boot);
    if (!write_grid_svg(args.bootstrap_svg, figure)) return false;
    std::printf("bootstrap plot: %s\n", args.bootstrap_svg.c_str());
  }
  return true;
}

// The fit's settings: the scene's identify section, with the command line's overrides and bounds. False
// after printing why (a bad --bound).
bool settings_from_args(const FitArgs& args, const Problem& problem, const std::vector<std::string>& paths,
                        FitSettings* out) {
  FitSettings& settings = *out;
  settings = identify_settings(problem);
  settings.lr = args.settings.lr;
  settings.lr_final = args.settings.lr_final;
  settings.tolerance = args.settings.tolerance;
  if (!args.method.empty()) settings.method = args.method == "adam" ? FitMethod::adam : FitMethod::lm;
  settings.beta1 = args.beta1.value_or(settings.beta1);
  settings.beta2 = args.beta2.value_or(settings.beta2);
  settings.adam_eps = args.adam_eps.value_or(settings.adam_eps);
  if (args.steps >= 0) settings.steps = args.steps;
  // auto: reverse mode once it is cheaper than ceil(P / 4) forward runs, where the scene allows it.
  settings.reverse = args.gradient == "reverse" ||
                     (args.gradient == "auto" && paths.size() > 12 && !problem.integrator.through_controller);
  settings.threads = args.threads > 0 ? args.threads : available_cores();
  settings.bounds = fit_bounds(problem, paths);
  std::string bound_error;
  if (!apply_bound_args(args.bounds, paths, &settings.bounds, &bound_error)) {
    std::fprintf(stderr, "%s: %s\n", args.scene.scene.c_str(), bound_error.c_str());
    return false;
  }
  return true;
}

// --tosses: the fit to measured tosses (cli/fit_tosses.cpp); the profile and the bootstrap are not made
// there.
int run_tosses(const FitArgs& args, const Problem& problem) {
  if (!args.data.empty() || args.profile || !args.profile_svg.empty() || args.bootstrap.value_or(0) > 0) {
    std::fprintf(stderr, "--tosses: --data, --profile and --bootstrap do not apply to a fit to tosses\n");
    return kExitBadInput;
  }
  FitArgs unbounded = args;  // --bound names fitted numbers: run_toss_fit applies it
  unbounded.bounds.clear();
  FitSettings settings;
  if (!settings_from_args(unbounded, problem, {}, &settings)) return kExitBadInput;
  TossFitRequest request = args.tosses;
  request.scene = args.scene.scene;
  request.wrt = args.wrt;
  request.bounds = args.bounds;
  request.print_every = args.print_every;
  request.out = args.out;
  request.svg = args.svg;
  request.label = args.label;
  return run_toss_fit(request, problem, settings);
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
  if (args.bootstrap == 1) {
    std::fprintf(stderr, "--bootstrap: 1 draw gives no interval; 0 (none) or at least 2, e.g. 100\n");
    return kExitBadInput;
  }
  if ((!args.bootstrap_csv.empty() || !args.bootstrap_svg.empty()) &&
      args.bootstrap.value_or(problem->identify.bootstrap) == 0) {
    std::fprintf(stderr, "--bootstrap-%s: give the number of draws, --bootstrap N (or identify.bootstrap)\n",
                 args.bootstrap_csv.empty() ? "svg" : "csv");
    return kExitBadInput;
  }
  if (!args.tosses.tosses.empty()) return run_tosses(args, *problem);
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
  FitSettings settings;
  if (!settings_from_args(args, *problem, paths, &settings)) return kExitBadInput;
  const std::vector<double> start = from_scene ? setup.start : eval->initial_values();
  for (std::size_t j = 0; j < paths.size(); ++j)
    if (!settings.bounds[j].contains(start[j])) {
      std::fprintf(stderr, "%s: %s: the start %.17g is outside the fit's range (%s)\n",
                   args.scene.scene.c_str(), paths[j].c_str(), start[j], settings.bounds[j].text().c_str());
      return kExitBadInput;
    }
  const std::string source = synthetic ? setup.data.source : args.data.front();
  print_fit_header(paths, setup.samples(), source, setup.rollouts.size());
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
  print_identification(paths, result);
  nlohmann::json profile_out;
  const bool profile = args.profile || !args.profile_svg.empty() || problem->identify.profile;
  // The profile may fit again from a lower point it finds: result is then that fit.
  const bool profiled =
      result.status != "ok" || !profile ||
      run_profile(args, *problem, setup, result, settings, truth ? &setup.truth : nullptr, &profile_out);
  nlohmann::json bootstrap_out;
  const int draws = args.bootstrap.value_or(problem->identify.bootstrap);
  const bool bootstrapped = result.status != "ok" || draws == 0 ||
                            run_bootstrap(args, *problem, setup, result, settings, draws,
                                          truth ? &setup.truth : nullptr, &start, &bootstrap_out);
  if (!args.svg.empty()) {
    const plot::Figure figure =
        identification_figure(paths, truth ? setup.truth : std::vector<double>{}, result.path);
    if (!write_output(args.svg, plot::to_svg(figure, truth ? 1100 : 600, 450))) return kExitFailed;
    std::printf("plot: %s\n", args.svg.c_str());
  }
  if (!args.out.empty()) {
    nlohmann::json out = fit_json(problem->name, problem->config, source, paths, start, result);
    if (!profile_out.is_null()) out["profile"] = profile_out;
    if (!bootstrap_out.is_null()) out["bootstrap"] = bootstrap_out;
    if (!args.label.empty()) out["label"] = args.label;
    if (!write_output(args.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", args.out.c_str());
  }
  // A number the data do not identify makes the fit's answer no measurement: exit 1, as for a failure.
  return fit_status(paths, result) == "ok" && profiled && bootstrapped ? kExitOk : kExitFailed;
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
                  "Stop once the mean squared error is at or below this")
      ->check(finite_number(NumberRule::nonnegative));
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
                  "Confidence level of the --profile and --bootstrap intervals (default: identify.level, "
                  "0.6827)");
  cmd->add_option("--profile-svg", args->profile_svg,
                  "Draw each number's profile against the parabola of its standard error as SVG here "
                  "(implies --profile)")
      ->check(output_path());
  cmd->add_option(
         "--bootstrap", args->bootstrap,
         "After the fit (and its profile), N parametric bootstrap draws: measurements drawn from the "
         "fitted model with the fit's noise level, each fitted again; intervals from the draws' "
         "quantiles at --level (default: identify.bootstrap, 0: none)")
      ->check(CLI::Range(0, 10000));
  cmd->add_option(
         "--bootstrap-from", args->bootstrap_from,
         "Where each bootstrap refit starts: start (where the fit started: each draw repeats the whole "
         "estimate) or fit (the fitted values); default: identify.bootstrap_from, start")
      ->check(CLI::IsMember({"start", "fit"}));
  cmd->add_option("--bootstrap-csv", args->bootstrap_csv,
                  "Write every bootstrap draw's refitted values as CSV here (with --bootstrap)")
      ->check(output_path());
  cmd->add_option(
         "--bootstrap-svg", args->bootstrap_svg,
         "Draw each number's bootstrap histogram against the normal density of its standard error as "
         "SVG here (with --bootstrap)")
      ->check(output_path());
  cmd->add_option("--tosses", args->tosses.tosses,
                  "Measured tosses (CSV toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz; the ContactNets cube's "
                  "format): fit --wrt to them cut into segments, each starting from a measured state "
                  "(docs/identification.md)");
  cmd->add_option("--toss", args->tosses.select,
                  "--tosses: which tosses to fit, e.g. 0-39,45 or all (default all)");
  cmd->add_option(
         "--segment", args->tosses.segment,
         "--tosses: frames per segment: the start and the frames it predicts (default 5, as DiffMJX)")
      ->check(CLI::Range(2, 100000));
  cmd->add_option("--eval-tosses", args->tosses.evaluate,
                  "--tosses: tosses run whole from their first frame for the trajectory error before and "
                  "after the fit: a list, first40 (default) or none");
  cmd->add_option("--replay-svg", args->tosses.replay_svg,
                  "--tosses: draw a measured toss against its whole rollout before and after the fit as SVG")
      ->check(output_path());
  cmd->add_option("--replay-toss", args->tosses.replay_toss,
                  "--tosses: the toss --replay-svg draws (default: the first of --eval-tosses)")
      ->check(CLI::Range(0, 1000000000));
  cmd->add_option("--beta1", args->beta1, "adam: first moment decay (default 0.9; DiffMJX's fits 0.5)")
      ->check(CLI::Range(0.0, 0.999999));
  cmd->add_option("--beta2", args->beta2, "adam: second moment decay (default 0.999; DiffMJX's fits 0.9)")
      ->check(CLI::Range(0.0, 0.999999));
  cmd->add_option("--adam-eps", args->adam_eps, "adam: denominator guard (default 1e-8; DiffMJX's fits 1e-6)")
      ->check(CLI::Range(1e-300, 1.0));
  cmd->add_option("--out", args->out, "Write the fit's path as JSON here")->check(output_path());
  cmd->add_option("--label", args->label, "A name for this fit in --out (fit-figure's legend)");
  cmd->add_option("--svg", args->svg,
                  "Draw the error per iteration (and each number's error against the truth) as SVG here")
      ->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
