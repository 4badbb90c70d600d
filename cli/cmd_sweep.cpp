// softgrad sweep: loss, AD gradient and FD gradient at every sweep point, in parallel.
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/figure_png_output.hpp"
#include "cli/gradient_note.hpp"
#include "cli/scene_args.hpp"
#include "engine/gradient/reference.hpp"
#include "engine/sweep/device_sweep.hpp"
#include "engine/sweep/gradient_agreement.hpp"
#include "engine/sweep/sweep.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/sweep_figure.hpp"

namespace sg::cli {
namespace {

struct SweepArgs {
  SceneArgs scene;
  std::string out, csv, svg, png;
  int threads = 0;
  std::string device = "cpu";
};

// A tight reference (gradient.reference) adds a grad_ref column.
std::string sweep_csv(const SweepResult& r) {
  const bool ref = r.reference != Reference::fd;
  std::ostringstream out;
  out.precision(17);
  out << "value,loss,grad,grad_fd," << (ref ? "grad_ref," : "") << "status\n";
  for (const PointResult& p : r.points) {
    out << p.value << ',' << p.loss << ',' << p.grad << ',' << p.grad_fd << ',';
    if (ref) out << p.grad_ref << ',';
    out << '"' << p.status << "\"\n";
  }
  return out.str();
}

void print_summary(const Problem& problem, const SweepResult& r) {
  const SweepStats& st = r.stats;
  const std::string ref = compared_reference_name(problem);
  std::printf(
      "%s: %ld points of %s in %.3f s; %s; AD runs: %ld steps, %ld rejected, %ld events; %ld failed\n",
      problem.name.c_str(), st.points, problem.sweep.parameter.c_str(), st.seconds,
      agreement_text(st, ref).c_str(), st.steps_total, st.rejected_total, st.events_total, st.failed);
  note_straight_through(problem);
  if (r.reference != Reference::fd)
    std::printf("reference: %s\n",
                reference_label(problem.gradient, problem.integrator, straight_through_cfd(problem)).c_str());
}

int run(const SweepArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  SweepDevice device = SweepDevice::cpu;
  parse_sweep_device(args.device, &device);  // the option's check admits only valid names
  SweepControl control;
  control.threads = args.threads;
  SweepResult result;
  std::string used, error;
  if (!run_sweep_on(device, *problem, control, &result, &used, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return device == SweepDevice::cuda && !cuda_device_info().available ? kExitBadInput : kExitFailed;
  }
  if (used == "cuda")
    std::printf("device: %s (CUDA); threads' scratch in %s memory; kernels %.3f s of the sweep's %.3f s\n",
                cuda_device_info().name.c_str(), result.stats.gpu_scratch, result.stats.kernel_seconds,
                result.stats.seconds);
  else if (device == SweepDevice::automatic && gpu_can_run(*problem))
    std::printf("device: CPU (auto: the GPU pays off from %ld points with %d CPU thread%s)\n",
                kGpuPointsPerCpuThread * sweep_cpu_threads(control), sweep_cpu_threads(control),
                sweep_cpu_threads(control) == 1 ? "" : "s");
  print_summary(*problem, result);
  bool written = true;
  if (!args.out.empty()) {
    const bool ok = write_output(args.out, sweep_to_json(*problem, result).dump(1) + "\n");
    written &= ok;
    if (ok) std::printf("result: %s\n", args.out.c_str());
  }
  if (!args.csv.empty()) {
    const bool ok = write_output(args.csv, sweep_csv(result));
    written &= ok;
    if (ok) std::printf("csv: %s\n", args.csv.c_str());
  }
  if (!args.svg.empty()) {
    const bool ok = write_output(args.svg, plot::to_svg(sweep_figure(*problem, result), 900, 1000));
    written &= ok;
    if (ok) std::printf("plot: %s\n", args.svg.c_str());
  }
  if (!args.png.empty()) written &= write_figure_png(sweep_figure(*problem, result), 900, 1000, args.png);
  if (!written) return kExitFailed;
  if (result.stats.failed > 0) {
    std::fprintf(stderr, "%ld of %ld points failed (see \"status\" in the result)\n", result.stats.failed,
                 result.stats.points);
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace

void register_sweep(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd =
      app.add_subcommand("sweep", "Loss, AD gradient and finite-difference gradient over the sweep");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--out", args->out, "Write the result JSON here")->check(output_path());
  cmd->add_option("--csv", args->csv, "Write value,loss,grad,grad_fd[,grad_ref],status rows here")
      ->check(output_path());
  cmd->add_option("--svg", args->svg, "Write the loss and gradient plot here")->check(output_path());
  cmd->add_option("--png", args->png,
                  "Draw the loss and gradient plot as PNG here (the GUI's renderer, headless)")
      ->check(output_path());
  cmd->add_option("--threads", args->threads, "Worker threads (0: all cores)")->check(CLI::Range(0, 1024));
  cmd->add_option(
         "--device", args->device,
         "Where the points run: cpu (default), cuda (a CUDA GPU, a thread per run of a point), auto (CUDA "
         "when a device is present and the sweep has at least " +
             std::to_string(kGpuPointsPerCpuThread) + " points per CPU thread)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
