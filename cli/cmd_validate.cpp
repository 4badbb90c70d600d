// softgrad validate: checks a scene and lists every problem with its key path.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"

namespace sg::cli {

void register_validate(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SceneArgs>();
  CLI::App* cmd =
      app.add_subcommand("validate", "Check a scene file and list every problem with its key path");
  add_scene_args(*cmd, *args);
  cmd->callback([args, &exit_code] {
    if (!load_scene_or_report(*args)) {
      exit_code = kExitBadInput;
      return;
    }
    std::printf("%s: ok\n", args->scene.c_str());
    exit_code = kExitOk;
  });
}

}  // namespace sg::cli
