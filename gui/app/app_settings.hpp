#pragma once
// Our own persisted settings (imgui.ini keeps the window layout): versioned JSON in the config folder.
#include <filesystem>
#include <string>

#include "render/camera.hpp"

namespace sg::gui {

inline constexpr int k_settings_version = 1;

struct AppSettings {
  int version = k_settings_version;
  int window_width = 1280;
  int window_height = 800;
  float ui_scale = 1.0f;  // user factor on top of the monitor content scale
  render::Camera camera;
  bool camera_fits_bodies = false;  // the camera was fitted to a rigid scene's or a joint tree's bodies
};

// $XDG_CONFIG_HOME/softgrad, else ~/.config/softgrad, else ./.softgrad when HOME is unset.
std::filesystem::path settings_directory();
std::filesystem::path settings_file(const std::filesystem::path& directory);   // <dir>/settings.json
std::filesystem::path imgui_ini_file(const std::filesystem::path& directory);  // <dir>/imgui.ini

std::string settings_to_json(const AppSettings& settings);
// Missing fields keep their defaults; out-of-range values are clamped. Fails on malformed JSON or a
// file written by a newer version (then *settings is left unchanged).
bool settings_from_json(const std::string& text, AppSettings* settings, std::string* error);

bool load_settings(const std::filesystem::path& path, AppSettings* settings, std::string* error);
bool save_settings(const std::filesystem::path& path, const AppSettings& settings, std::string* error);

}  // namespace sg::gui
