// softgrad validate: checks a scene and lists every problem with its key path; a scene imported from MJCF is
// also stepped against MuJoCo's mj_step.
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/scene_args.hpp"
#include "cli/validate_mjcf.hpp"

namespace sg::cli {

namespace {

struct ValidateArgs {
  SceneArgs scene;
  MujocoCheckArgs mujoco;
};

}  // namespace

void register_validate(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ValidateArgs>();
  CLI::App* cmd =
      app.add_subcommand("validate",
                         "Check a scene file and list every problem with its key path; a scene imported from "
                         "MJCF is also stepped against MuJoCo's mj_step");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--mujoco-steps", args->mujoco.steps, "MJCF scenes: Euler steps compared with mj_step")
      ->check(CLI::Range(1L, 1000000L))
      ->capture_default_str();
  cmd->add_option("--mujoco-tol", args->mujoco.tolerance,
                  "MJCF scenes: largest allowed difference of position, orientation, velocities")
      ->check(finite_number(NumberRule::positive))
      ->capture_default_str();
  cmd->callback([args, &exit_code] {
    const auto problem = load_scene_or_report(args->scene);
    if (!problem) {
      exit_code = kExitBadInput;
      return;
    }
    std::printf("%s: ok\n", args->scene.scene.c_str());
    exit_code = kExitOk;
    const auto& model = problem->config.at("model");
    if (problem->data.type != ModelType::particles && !model.value("file", std::string()).empty())
      exit_code = check_against_mujoco(*problem, args->scene.scene, args->mujoco);
  });
}

}  // namespace sg::cli
