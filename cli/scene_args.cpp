#include "cli/scene_args.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>

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

bool write_output(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) {
      std::cerr << path << ": cannot write this file\n";
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::cerr << path << ": cannot write this file\n";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace sg::cli
