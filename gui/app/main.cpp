// softgrad-gui [SCENE] [--set path=value]... [--preset NAME] [--device cpu|cuda|auto] [--exit-after-sweep]:
// the interactive research workbench, opened on the 1-D toy by default. --exit-after-sweep prints the first
// sweep's time as the window ran it and quits (to compare a sweep in the window with the CLI's:
// docs/benchmarks.md).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gui/app/app_settings.hpp"
#include "gui/app/glfw_app.hpp"
#include "gui/app/workbench_app.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

namespace {

struct Args {
  std::string scene, preset;
  sg::SweepDevice device = sg::SweepDevice::automatic;
  std::vector<std::string> overrides;
  bool exit_after_sweep = false;
};

bool parse_args(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--set" || arg == "--preset") && i + 1 < argc) {
      (arg == "--set" ? args->overrides.emplace_back() : args->preset) = argv[++i];
    } else if (arg == "--device" && i + 1 < argc && sg::parse_sweep_device(argv[i + 1], &args->device)) {
      ++i;
    } else if (arg == "--exit-after-sweep") {
      args->exit_after_sweep = true;
    } else if (!arg.empty() && arg[0] != '-' && args->scene.empty()) {
      args->scene = arg;
    } else {
      std::fprintf(
          stderr,
          "usage: softgrad-gui [SCENE] [--set path=value]... [--preset NAME] [--device cpu|cuda|auto] "
          "[--exit-after-sweep]\n");
      return false;
    }
  }
  return true;
}

// Once the first sweep has finished (or stopped), prints its time as the window ran it and quits.
void quit_after_first_sweep(const sg::gui::WorkbenchApp& app, sg::gui::AppShell& shell) {
  auto begin_frame = shell.workbench().begin_frame;
  shell.workbench().begin_frame = [begin_frame, &app, &shell](float dt) {
    if (begin_frame) begin_frame(dt);
    const sg::gui::SweepSnapshot& s = app.sweep();
    if (s.phase != sg::gui::SweepPhase::finished && s.phase != sg::gui::SweepPhase::cancelled) return;
    std::printf("softgrad-gui: sweep of %ld points %s in %.3f s (%s)\n", s.completed,
                s.phase == sg::gui::SweepPhase::finished ? "finished" : "cancelled", s.elapsed_seconds,
                s.problem ? s.problem->name.c_str() : "");
    std::fflush(stdout);
    shell.apply(sg::gui::Action::kQuit);
  };
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!parse_args(argc, argv, &args)) return 2;
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();
#endif
  const std::filesystem::path dir = sg::gui::settings_directory();
  sg::gui::AppSettings settings;
  std::string error;
  if (std::filesystem::exists(sg::gui::settings_file(dir)) &&
      !sg::gui::load_settings(sg::gui::settings_file(dir), &settings, &error)) {
    std::fprintf(stderr, "softgrad-gui: using default settings: %s\n", error.c_str());
  }
  auto app = std::make_shared<sg::gui::WorkbenchApp>();
  app->set_sweep_device(args.device);
  app->set_camera_fits_bodies(settings.camera_fits_bodies);
  const bool opened =
      !args.preset.empty() && args.scene.empty()
          ? app->apply_preset(args.preset)
          : app->open_scene(args.scene.empty() ? sg::gui::default_scene_file() : args.scene, args.overrides);
  if (!opened) {
    // A scene that failed to load says why in the document; an unknown preset in the app's message.
    const std::string& why = app->document().error().empty() ? app->message() : app->document().error();
    std::fprintf(stderr, "softgrad-gui: %s\n", why.c_str());
    return 2;
  }
  sg::gui::AppShell shell(app->make_workbench(), settings);
  if (args.exit_after_sweep) quit_after_first_sweep(*app, shell);
  return sg::gui::run_glfw_app(shell, dir);
}
