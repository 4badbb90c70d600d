#pragma once
// Options shared by the subcommands that read a scene: the scene file and repeated --set overrides.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/problem/problem.hpp"

namespace sg::cli {

struct SceneArgs {
  std::string scene;
  std::vector<std::string> overrides;
};

void add_scene_args(CLI::App& cmd, SceneArgs& args);

// Loads and validates; on failure prints every problem to stderr and returns nothing.
std::optional<Problem> load_scene_or_report(const SceneArgs& args);

// Checks an output option's path when it is parsed (before any work): empty paths, folders and missing
// parent folders are refused with the usage exit code.
CLI::Validator output_path();

// A finite number option: NaN and infinities are refused, and with `rule` also values <= 0 or < 0; the
// message states the rule in words (CLI11's PositiveNumber lets NaN through and prints DBL_MAX in full).
enum class NumberRule { finite, positive, nonnegative };
CLI::Validator finite_number(NumberRule rule = NumberRule::finite);

// Writes text to path (engine/io: atomically, through links, special files in place); on failure prints
// why to stderr.
bool write_output(const std::string& path, const std::string& text);

}  // namespace sg::cli
