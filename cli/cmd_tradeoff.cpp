// softgrad tradeoff: accuracy against cost of the integrators at one parameter value (DiffMJX Fig. S6):
// each method at several fixed steps or tolerances, the loss's and the gradient's error against a tight
// reference over the time of one run, as a table, JSON, CSV and a log-log figure.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/figure_png_output.hpp"
#include "cli/scene_args.hpp"
#include "engine/problem/swept_value.hpp"
#include "engine/study/tradeoff.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/tradeoff_figure.hpp"

namespace sg::cli {
namespace {

struct TradeoffArgs {
  SceneArgs scene;
  std::optional<double> value;
  TradeoffOptions options;
  std::string out, csv, svg, png;
};

// The options' own checks (CLI11 has parsed the numbers): a clear message and false when one is bad.
bool check_options(const TradeoffOptions& o) {
  for (double tol : o.tolerances)
    if (!(tol > 0.0) || !std::isfinite(tol)) {
      std::fprintf(stderr, "--tols: expected finite numbers > 0, got %g\n", tol);
      return false;
    }
  if (!(o.reference_tol > 0.0) || !std::isfinite(o.reference_tol)) {
    std::fprintf(stderr, "--reference-tol: expected a finite number > 0, got %g\n", o.reference_tol);
    return false;
  }
  for (long n : o.step_divisions)
    if (n < 1 || n > 1000000) {
      std::fprintf(stderr, "--divisions: expected integers in [1, 1000000], got %ld\n", n);
      return false;
    }
  for (const std::string& name : {o.reference, o.reference_check}) {
    const TradeoffFamily* f = find_tradeoff_family(name);
    if (!f || !f->adaptive || !f->events) {
      std::fprintf(stderr,
                   "--reference: expected an adaptive method (bosh3, dopri5, tsit5, dopri8), got \"%s\"\n",
                   name.c_str());
      return false;
    }
  }
  return true;
}

void print_row(const TradeoffRow& r) {
  if (r.status.rfind("not run", 0) == 0) {
    std::printf("  %-26s %s\n", r.setting.label().c_str(), r.status.c_str());
    return;
  }
  std::printf("  %-26s %12.3e %12.3e %10.3f %10.3f %8ld  %s\n", r.setting.label().c_str(), r.loss_error,
              r.grad_error, 1e3 * r.seconds_loss, 1e3 * r.seconds_grad, r.steps, r.status.c_str());
}

void print_table(const TradeoffResult& r) {
  std::printf("%s at %s = %g\n", r.scene.c_str(), r.parameter.c_str(), r.value);
  std::printf("reference %s: loss %.12g, gradient %.12g (%s)\n", r.reference.setting.label().c_str(),
              r.reference.loss, r.reference.grad, r.reference.status.c_str());
  std::printf("check     %s: loss %.12g, gradient %.12g; differs by %.3g and %.3g\n",
              r.reference_check.setting.label().c_str(), r.reference_check.loss, r.reference_check.grad,
              r.spread_loss, r.spread_grad);
  std::printf("  %-26s %12s %12s %10s %10s %8s  %s\n", "setting", "loss error", "grad error", "ms loss",
              "ms grad", "steps", "status");
  // A family the scene refuses is refused at every knob: said once.
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const TradeoffRow& row = r.rows[i];
    const bool repeated = i > 0 && row.status.rfind("not run", 0) == 0 &&
                          r.rows[i - 1].setting.family == row.setting.family &&
                          r.rows[i - 1].status == row.status;
    if (!repeated) print_row(row);
  }
}

int run(TradeoffArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  if (!check_options(args.options)) return kExitBadInput;
  std::string error;
  if (tradeoff_settings(*problem, args.options, &error).empty() && !error.empty()) {
    std::fprintf(stderr, "--methods: %s\n", error.c_str());
    return kExitBadInput;
  }
  // Without --value: the middle of the sweep range (DiffMJX's v_z = -2 on the tosses), unless --set gave
  // the swept number.
  double x = swept_value(*problem, args.scene.overrides, 0.5 * (problem->sweep.from + problem->sweep.to));
  if (args.value) x = *args.value;
  if (!std::isfinite(x)) {
    std::fprintf(stderr, "--value: expected a finite number\n");
    return kExitBadInput;
  }
  const TradeoffResult result = run_tradeoff(*problem, args.scene.scene, x, args.options);
  print_table(result);
  bool written = true;
  auto write = [&](const std::string& path, const std::string& text, const char* what) {
    if (path.empty()) return;
    const bool ok = write_output(path, text);
    written &= ok;
    if (ok) std::printf("%s: %s\n", what, path.c_str());
  };
  write(args.out, tradeoff_to_json(result).dump(1) + "\n", "result");
  write(args.csv, tradeoff_to_csv(result), "table");
  write(args.svg, plot::to_svg(tradeoff_figure(result), 1100, 520), "plot");
  if (!args.png.empty()) written &= write_figure_png(tradeoff_figure(result), 1100, 520, args.png);
  if (!result.ok()) {
    std::fprintf(stderr, "the reference run failed (%s): no errors to report\n",
                 result.reference.status.c_str());
    return kExitFailed;
  }
  return written ? kExitOk : kExitFailed;
}

}  // namespace

void register_tradeoff(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TradeoffArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tradeoff",
      "Accuracy against cost of the integrators at one value (DiffMJX Fig. S6): errors vs run time");
  add_scene_args(*cmd, args->scene);
  TradeoffOptions& o = args->options;
  cmd->add_option(
      "--value", args->value,
      "Value of the sweep parameter (default: the middle of the sweep range, or the value --set gives it)");
  cmd->add_option(
         "--methods", o.families,
         "Integrator families, comma-separated (default euler,rk4,bosh3,dopri5,tsit5,tsit5-noevents,dopri8 "
         "and the scene's own method; also moreau)")
      ->delimiter(',');
  cmd->add_option("--tols", o.tolerances,
                  "Adaptive methods: rtol = atol values (default 1e-4,...,1e-8,1e-10)")
      ->delimiter(',');
  cmd->add_option("--divisions", o.step_divisions,
                  "Fixed-step methods: h = integrator.dt / n for each n (default 1,3,10,30,100,300)")
      ->delimiter(',');
  cmd->add_option("--reference", o.reference, "Reference method, with contact events (default tsit5)");
  cmd->add_option("--reference-check", o.reference_check,
                  "A second reference method; its difference from the first is the floor (default dopri8)");
  cmd->add_option("--reference-tol", o.reference_tol, "Tolerance of the references (default 1e-12)");
  cmd->add_option("--repeats", o.repeats, "Timing rounds over all settings, the best time counts (default 3)")
      ->check(CLI::Range(1, 100));
  cmd->add_option("--out", args->out, "Write the results as JSON here")->check(output_path());
  cmd->add_option("--csv", args->csv, "Write the table as CSV here")->check(output_path());
  cmd->add_option("--svg", args->svg, "Draw errors against run time (log-log) as SVG here")
      ->check(output_path());
  cmd->add_option("--png", args->png, "The same figure as PNG (the GUI's renderer, headless)")
      ->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
