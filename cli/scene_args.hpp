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

// Writes text to path (engine/io: atomically, through links, special files in place); on failure prints
// why to stderr.
bool write_output(const std::string& path, const std::string& text);

}  // namespace sg::cli
