#include "cli/scene_args.hpp"

#include <cstdio>
#include <iostream>

#include "engine/io/atomic_file.hpp"
#include "engine/problem/load_problem.hpp"

namespace sg::cli {

void add_scene_args(CLI::App& cmd, SceneArgs& args) {
  cmd.add_option("scene", args.scene, "Scene file (JSON), e.g. scenes/toy_point_mass.json")->required();
  cmd.add_option("--set", args.overrides,
                 "Override a scene value by its dotted path, e.g. --set integrator.dt=0.01 (repeatable)")
      ->allow_extra_args(false);
}

std::optional<Problem> load_scene_or_report(const SceneArgs& args) {
  ProblemLoad loaded = load_problem_file(args.scene, args.overrides);
  if (!loaded.ok()) {
    std::cerr << loaded.errors;
    if (!loaded.errors.empty() && loaded.errors.back() != '\n') std::cerr << '\n';
    return std::nullopt;
  }
  return std::move(loaded.problem);
}

CLI::Validator output_path() {
  return CLI::Validator([](std::string& path) { return io::check_output_path(path); }, "FILE", "output path");
}

bool write_output(const std::string& path, const std::string& text) {
  std::string error;
  if (io::write_file_atomic(path, text, &error)) return true;
  std::cerr << error << "\n";
  return false;
}

}  // namespace sg::cli
