// softgrad sweep2d: two scene numbers on a grid; loss, AD gradient along both and AD-vs-FD error at every
// point, written as JSON and drawn as heatmaps (SVG).
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/figure_png_output.hpp"
#include "cli/gradient_note.hpp"
#include "cli/scene_args.hpp"
#include "engine/sweep/device_sweep.hpp"
#include "engine/sweep/sweep2d.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/sweep2d_figure.hpp"

namespace sg::cli {
namespace {

struct Sweep2dArgs {
  SceneArgs scene;
  std::vector<std::string> x, y;  // PATH FROM TO N
  int threads = 0;
  std::string device = "cpu";
  std::string out, svg, png;
};

// PATH FROM TO N -> axis; false with a message naming the option.
bool parse_axis(const std::vector<std::string>& words, const char* option, GridAxis* axis,
                std::string* error) {
  if (words.size() != 4) {
    *error = std::string(option) + ": expected PATH FROM TO N";
    return false;
  }
  axis->path = words[0];
  try {
    std::size_t used = 0;
    axis->from = std::stod(words[1], &used);
    if (used != words[1].size()) throw std::invalid_argument("from");
    axis->to = std::stod(words[2], &used);
    if (used != words[2].size()) throw std::invalid_argument("to");
    axis->points = std::stol(words[3], &used);
    if (used != words[3].size()) throw std::invalid_argument("n");
  } catch (const std::exception&) {
    *error = std::string(option) + ": expected PATH FROM TO N with numbers (got \"" + words[1] + " " +
             words[2] + " " + words[3] + "\")";
    return false;
  }
  return true;
}

int run(const Sweep2dArgs& args) {
  std::optional<Problem> problem = load_scene_or_report(args.scene);
  if (!problem) return kExitBadInput;
  GridAxis x, y;
  std::string error;
  if (!parse_axis(args.x, "--x", &x, &error) || !parse_axis(args.y, "--y", &y, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return kExitBadInput;
  }
  Grid2dResult result;
  SweepDevice device = SweepDevice::cpu;
  parse_sweep_device(args.device, &device);  // the option's check admits only valid names
  std::string used;
  try {
    Grid2dControl control;
    control.threads = args.threads;
    if (!run_sweep2d_on(device, *problem, x, y, control, &result, &used, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return device == SweepDevice::cuda && !cuda_device_info().available ? kExitBadInput : kExitFailed;
    }
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", args.scene.scene.c_str(), e.what());
    return kExitBadInput;
  }
  if (used == "cuda") std::printf("device: %s (CUDA)\n", cuda_device_info().name.c_str());
  double worst = 0.0;
  for (const GridPoint& p : result.points)
    if (std::isfinite(p.error())) worst = std::max(worst, p.error());
  std::printf("%s: %ld x %ld grid of %s and %s in %.3f s; largest AD-vs-FD error %.3g; %ld failed\n",
              problem->name.c_str(), x.points, y.points, x.path.c_str(), y.path.c_str(), result.seconds,
              worst, result.failed);
  note_straight_through(*problem);
  bool written = true;
  if (!args.out.empty()) {
    const bool ok = write_output(args.out, sweep2d_to_json(*problem, result).dump(1) + "\n");
    written &= ok;
    if (ok) std::printf("result: %s\n", args.out.c_str());
  }
  if (!args.svg.empty()) {
    const bool ok = write_output(args.svg, plot::to_svg(sweep2d_figure(*problem, result), 1100, 900));
    written &= ok;
    if (ok) std::printf("plot: %s\n", args.svg.c_str());
  }
  if (!args.png.empty()) written &= write_figure_png(sweep2d_figure(*problem, result), 1100, 900, args.png);
  if (!written) return kExitFailed;
  return result.failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace

void register_sweep2d(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<Sweep2dArgs>();
  CLI::App* cmd =
      app.add_subcommand("sweep2d", "Two parameters on a grid: loss, AD gradient and AD-vs-FD error maps");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--x", args->x, "PATH FROM TO N: the first parameter and its grid")
      ->expected(4)
      ->required();
  cmd->add_option("--y", args->y, "PATH FROM TO N: the second parameter and its grid")
      ->expected(4)
      ->required();
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--device", args->device,
                  "Where the grid points run: cpu (default), cuda (a CUDA GPU, a thread per run of a point), "
                  "auto (CUDA when a device is present and the grid has at least " +
                      std::to_string(kGpuPointsPerCpuThread) + " points per CPU thread)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->add_option("--out", args->out, "Write the grid as JSON here")->check(output_path());
  cmd->add_option("--svg", args->svg, "Draw the four heatmaps as SVG here")->check(output_path());
  cmd->add_option("--png", args->png, "Draw the four heatmaps as PNG here (the GUI's renderer, headless)")
      ->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
