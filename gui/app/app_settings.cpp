#include "gui/app/app_settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "gui/document/atomic_file.hpp"

namespace sg::gui {

namespace {

using nlohmann::json;

json camera_to_json(const render::Camera& camera) {
  return {
      {"target", camera.target}, {"distance", camera.distance}, {"yaw", camera.yaw}, {"pitch", camera.pitch}};
}

void camera_from_json(const json& j, render::Camera* camera) {
  camera->target = j.value("target", camera->target);
  camera->distance =
      std::clamp(j.value("distance", camera->distance), render::k_min_distance, render::k_max_distance);
  camera->yaw = j.value("yaw", camera->yaw);
  camera->pitch = std::clamp(j.value("pitch", camera->pitch), -render::k_max_pitch, render::k_max_pitch);
}

}  // namespace

std::filesystem::path settings_directory() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "softgrad";
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "softgrad";
  }
  return std::filesystem::path(".softgrad");
}

std::filesystem::path settings_file(const std::filesystem::path& directory) {
  return directory / "settings.json";
}
std::filesystem::path imgui_ini_file(const std::filesystem::path& directory) {
  return directory / "imgui.ini";
}

std::string settings_to_json(const AppSettings& settings) {
  const json j = {{"version", k_settings_version},
                  {"window", {{"width", settings.window_width}, {"height", settings.window_height}}},
                  {"ui_scale", settings.ui_scale},
                  {"camera", camera_to_json(settings.camera)},
                  {"camera_fits_bodies", settings.camera_fits_bodies}};
  return j.dump(2) + "\n";
}

bool settings_from_json(const std::string& text, AppSettings* settings, std::string* error) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    if (error) *error = "settings are not a JSON object";
    return false;
  }
  const int version = j.value("version", 0);
  if (version > k_settings_version) {
    if (error)
      *error = "settings version " + std::to_string(version) + " is newer than this build understands";
    return false;
  }
  AppSettings result = *settings;
  try {
    if (j.contains("window")) {
      result.window_width = std::max(320, j["window"].value("width", result.window_width));
      result.window_height = std::max(240, j["window"].value("height", result.window_height));
    }
    result.ui_scale = std::clamp(j.value("ui_scale", result.ui_scale), 0.5f, 3.0f);
    if (j.contains("camera")) camera_from_json(j["camera"], &result.camera);
    result.camera_fits_bodies = j.value("camera_fits_bodies", result.camera_fits_bodies);
  } catch (const json::exception& e) {
    if (error) *error = std::string("settings have a field of the wrong type: ") + e.what();
    return false;
  }
  result.version = k_settings_version;
  *settings = result;
  return true;
}

bool load_settings(const std::filesystem::path& path, AppSettings* settings, std::string* error) {
  std::string text;
  if (!read_file(path, &text, error)) return false;
  return settings_from_json(text, settings, error);
}

bool save_settings(const std::filesystem::path& path, const AppSettings& settings, std::string* error) {
  return write_file_atomic(path, settings_to_json(settings), error);
}

}  // namespace sg::gui
