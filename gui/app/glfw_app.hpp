#pragma once
// The interactive host: a GLFW window driving the app shell until the user quits.
#include <filesystem>

#include "gui/app/app_shell.hpp"

namespace sg::gui {

// Returns the process exit code. Without a display prints one line pointing to
// `softgrad screenshot` and returns 1. Saves settings.json and imgui.ini in config_dir.
int run_glfw_app(AppShell& shell, const std::filesystem::path& config_dir);

}  // namespace sg::gui
