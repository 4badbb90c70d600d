// softgrad-gui: the interactive workbench (demo content until the physics is wired in).
#include <cstdio>
#include <filesystem>

#include "gui/app_settings.hpp"
#include "gui/demo_workbench.hpp"
#include "gui/glfw_app.hpp"

int main() {
  const std::filesystem::path dir = sg::gui::settings_directory();
  sg::gui::AppSettings settings;
  std::string error;
  if (std::filesystem::exists(sg::gui::settings_file(dir)) &&
      !sg::gui::load_settings(sg::gui::settings_file(dir), &settings, &error)) {
    std::fprintf(stderr, "softgrad-gui: using default settings: %s\n", error.c_str());
  }
  sg::gui::AppShell shell(sg::gui::make_demo_workbench(), settings);
  return sg::gui::run_glfw_app(shell, dir);
}
