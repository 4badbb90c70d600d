// softgrad simulate: one trajectory at a sweep value, with the loss and its gradient.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "engine/problem/swept_value.hpp"
#include "engine/simulate/sink_check.hpp"
#include "engine/simulate/trajectory.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/trajectory_figure.hpp"

namespace sg::cli {
namespace {

struct SimulateArgs {
  SceneArgs scene;
  std::optional<double> value;
  std::string out, svg, positions;
  double noise = 0.0;
  unsigned long seed = 1;
};

// The positions at every output time as CSV t,body,x,y,z (the format `softgrad fit --data` reads), with
// optional Gaussian noise of standard deviation `noise` metres per coordinate (synthetic measurements).
std::string positions_csv(const Trajectory& tr, double noise, unsigned long seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, noise > 0.0 ? noise : 1.0);
  const std::size_t stride = tr.layout == "particles" ? 3 : 7;
  std::ostringstream out;
  out.precision(17);
  out << "t,body,x,y,z\n";
  for (std::size_t i = 0; i < tr.t.size(); ++i) {
    const std::vector<double>& q = tr.q[i];
    for (std::size_t b = 0; b * stride < q.size(); ++b) {
      out << tr.t[i] << ',' << b;
      for (std::size_t k = 0; k < 3; ++k) out << ',' << q[b * stride + k] + (noise > 0.0 ? normal(rng) : 0.0);
      out << '\n';
    }
  }
  return out.str();
}

int run(const SimulateArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  // Without --value: sweep.from, unless --set gave the swept number (then that value).
  double x = swept_value(*problem, args.scene.overrides, problem->sweep.from);
  if (args.value) x = *args.value;
  if (!std::isfinite(x)) {
    std::fprintf(stderr, "--value: expected a finite number\n");
    return kExitBadInput;
  }
  if (!(args.noise >= 0.0) || !std::isfinite(args.noise)) {
    std::fprintf(stderr, "--noise: expected a finite number >= 0\n");
    return kExitBadInput;
  }
  const Trajectory tr = simulate_trajectory(*problem, x);
  std::printf("%s at %s = %g: loss %.10g, gradient %.10g, %ld steps accepted, %ld rejected, %zu events, %s\n",
              problem->name.c_str(), problem->sweep.parameter.c_str(), x, tr.loss, tr.grad, tr.accepted,
              tr.rejected, tr.events.size(), tr.status.c_str());
  if (const std::string sunk = sunk_through_plane(*problem, tr); !sunk.empty())
    std::fprintf(stderr, "warning: %s\n", sunk.c_str());
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
  if (!args.positions.empty() && tr.status == "ok") {
    const bool ok = write_output(args.positions, positions_csv(tr, args.noise, args.seed));
    written &= ok;
    if (ok) std::printf("positions: %s\n", args.positions.c_str());
  }
  if (!written) return kExitFailed;
  return tr.status == "ok" ? kExitOk : kExitFailed;
}

}  // namespace

void register_simulate(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand("simulate", "One trajectory at a sweep value (t, q, v, dt, loss, grad)");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--value", args->value,
                  "Value of the sweep parameter (default: sweep.from, or the value --set gives it)");
  cmd->add_option("--out", args->out, "Write the trajectory JSON here")->check(output_path());
  cmd->add_option("--svg", args->svg, "Write a plot of the trajectory here")->check(output_path());
  cmd->add_option(
         "--positions", args->positions,
         "Write the positions at the output times as CSV t,body,x,y,z (input of `softgrad fit --data`)")
      ->check(output_path());
  cmd->add_option("--noise", args->noise, "Gaussian noise (m) added to the --positions values (default 0)");
  cmd->add_option("--seed", args->seed, "Seed of the --noise samples (default 1)");
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
