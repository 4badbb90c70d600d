// softgrad screenshot: the whole GUI workbench rendered headless (EGL, no X server) into a PNG after the
// sweep has finished. Only built when the GUI library is (SOFTGRAD_HAVE_GUI).
#ifdef SOFTGRAD_HAVE_GUI

#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "gui/app/workbench_screenshot.hpp"

namespace sg::cli {
namespace {

struct ScreenshotArgs {
  gui::ScreenshotRequest request;
  std::string size = "1600x1000";
};

int run(ScreenshotArgs& args) {
  if (!gui::parse_size(args.size, &args.request.width, &args.request.height)) {
    std::fprintf(stderr, "softgrad screenshot: --size must be WxH with 64..8192 pixels each (got \"%s\")\n",
                 args.size.c_str());
    return kExitBadInput;
  }
  std::string error;
  if (!gui::render_workbench_screenshot(args.request, &error)) {
    std::fprintf(stderr, "softgrad screenshot: %s\n", error.c_str());
    return kExitBadInput;
  }
  std::printf("screenshot: %s\n", args.request.out.c_str());
  return kExitOk;
}

}  // namespace

void register_screenshot(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ScreenshotArgs>();
  CLI::App* cmd = app.add_subcommand("screenshot", "Render the GUI workbench headless into a PNG");
  cmd->add_option("scene", args->request.scene, "Scene file (default: the preset's scene, else the 1-D toy)");
  cmd->add_option("--set", args->request.overrides, "Override a scene value: path=value (repeatable)");
  cmd->add_option("--preset", args->request.preset, "One of the workbench presets, e.g. toy_coarse");
  cmd->add_option("--size", args->size, "Image size WxH (default 1600x1000)");
  cmd->add_option("--time", args->request.time,
                  "Show the selected trajectory at this time in seconds (default: the end)")
      ->check(finite_number(NumberRule::nonnegative));
  cmd->add_flag("--descend", args->request.descend,
                "Also run gradient descent (optimize.*) and draw its paths on the loss plot");
  cmd->add_flag("--identify", args->request.identify,
                "Also run the scene's identification (identify.*) and show the Identify tab with its result");
  cmd->add_flag("--tradeoff", args->request.tradeoff,
                "Also run the accuracy-against-cost study at the selected value and show the Cost tab");
  cmd->add_option("--ui-scale", args->request.ui_scale,
                  "The interface's scale, as Ctrl+- and Ctrl+= set it (default 1)")
      ->check(CLI::Range(0.5f, 3.0f));
  cmd->add_flag("--mpc", args->request.mpc,
                "Also run model-predictive control (gradient and sampling planners) and show the MPC tab and "
                "the first run's executed motion");
  cmd->add_option(
         "--replay-toss", args->request.replay_toss,
         "Also replay this measured toss (a rigid scene, e.g. scenes/contactnets_cube.json) in the Identify "
         "tab and the 3-D view, the measured body beside the simulated one")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option(
      "--tosses", args->request.tosses,
      "--replay-toss: the toss file (default ../shared/data/contactnets/tosses.csv beside the source tree)");
  cmd->add_option("--out", args->request.out, "PNG file to write")->check(output_path())->required();
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli

#endif  // SOFTGRAD_HAVE_GUI
