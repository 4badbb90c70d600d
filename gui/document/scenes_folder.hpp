#pragma once
// Where the scene files live: the SOFTGRAD_SCENES environment variable, else the source tree's scenes/
// (compile definition), else ./scenes.
#include <filesystem>
#include <string>
#include <vector>

namespace sg::gui {

std::filesystem::path default_scenes_folder();
// The *.json files of a folder, sorted by name; empty when the folder is missing.
std::vector<std::filesystem::path> list_scene_files(const std::filesystem::path& folder);

}  // namespace sg::gui
