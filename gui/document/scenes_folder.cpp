#include "gui/document/scenes_folder.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace sg::gui {

std::filesystem::path default_scenes_folder() {
  if (const char* env = std::getenv("SOFTGRAD_SCENES"); env && *env) return env;
#ifdef SOFTGRAD_SCENES_DIR
  if (std::filesystem::is_directory(SOFTGRAD_SCENES_DIR)) return SOFTGRAD_SCENES_DIR;
#endif
  return "scenes";
}

std::vector<std::filesystem::path> list_scene_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace sg::gui
