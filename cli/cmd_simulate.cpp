// softgrad simulate: one trajectory at a sweep value, with the loss and its gradient.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "engine/simulate/trajectory.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/trajectory_figure.hpp"

namespace sg::cli {
namespace {

struct SimulateArgs {
  SceneArgs scene;
  std::optional<double> value;
  std::string out, svg;
};

int run(const SimulateArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  const double x = args.value.value_or(problem->sweep.from);
  if (!std::isfinite(x)) {
    std::fprintf(stderr, "--value: expected a finite number\n");
    return kExitBadInput;
  }
  const Trajectory tr = simulate_trajectory(*problem, x);
  std::printf("%s at %s = %g: loss %.10g, gradient %.10g, %ld steps accepted, %ld rejected, %zu events, %s\n",
              problem->name.c_str(), problem->sweep.parameter.c_str(), x, tr.loss, tr.grad, tr.accepted,
              tr.rejected, tr.events.size(), tr.status.c_str());
  bool written = true;
  if (!args.out.empty()) {
    const bool ok = write_output(args.out, trajectory_to_json(tr).dump(1) + "\n");
    written &= ok;
    if (ok) std::printf("result: %s\n", args.out.c_str());
  }
  if (!args.svg.empty()) {
    const bool ok = write_output(args.svg, plot::to_svg(trajectory_figure(tr), 1000, 700));
    written &= ok;
    if (ok) std::printf("plot: %s\n", args.svg.c_str());
  }
  if (!written) return kExitFailed;
  return tr.status == "ok" ? kExitOk : kExitFailed;
}

}  // namespace

void register_simulate(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand("simulate", "One trajectory at a sweep value (t, q, v, dt, loss, grad)");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--value", args->value, "Value of the sweep parameter (default: sweep.from)");
  cmd->add_option("--out", args->out, "Write the trajectory JSON here")->check(output_path());
  cmd->add_option("--svg", args->svg, "Write a plot of the trajectory here")->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
