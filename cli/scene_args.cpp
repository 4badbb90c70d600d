#include "cli/scene_args.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "engine/io/atomic_file.hpp"
#include "engine/problem/load_problem.hpp"

namespace sg::cli {

void add_scene_args(CLI::App& cmd, SceneArgs& args) {
  cmd.add_option("scene", args.scene,
                 "Scene file (JSON), e.g. scenes/toy_point_mass.json, or a MuJoCo model (MJCF, .xml) with "
                 "every other setting at its default")
      ->required();
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

CLI::Validator finite_number(NumberRule rule) {
  const char* words = rule == NumberRule::positive      ? "a finite number > 0"
                      : rule == NumberRule::nonnegative ? "a finite number >= 0"
                                                        : "a finite number";
  return CLI::Validator(
      [rule, words](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        const bool parsed = end != text.c_str() && *end == '\0';
        const bool in_range = rule == NumberRule::positive      ? v > 0.0
                              : rule == NumberRule::nonnegative ? v >= 0.0
                                                                : true;
        if (parsed && std::isfinite(v) && in_range) return "";
        return "'" + text + "' is not " + words;
      },
      "NUMBER", words);
}

bool write_output(const std::string& path, const std::string& text) {
  std::string error;
  if (io::write_file_atomic(path, text, &error)) return true;
  std::cerr << error << "\n";
  return false;
}

}  // namespace sg::cli
