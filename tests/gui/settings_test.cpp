#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gui/app/app_settings.hpp"
#include "gui/document/atomic_file.hpp"

using namespace sg::gui;
namespace fs = std::filesystem;

namespace {
fs::path fresh_dir(const char* name) {
  const fs::path dir = fs::path(sg::test::binary_dir()) / "test_gui_tmp" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
}  // namespace

TEST_CASE("settings survive a save/load round trip") {
  const fs::path path = fresh_dir("roundtrip") / "softgrad" / "settings.json";
  AppSettings saved;
  saved.window_width = 1600;
  saved.window_height = 900;
  saved.ui_scale = 1.5f;
  saved.camera.target = {1.0f, 2.0f, 3.0f};
  saved.camera.distance = 12.5f;
  saved.camera.yaw = -0.3f;
  saved.camera.pitch = 0.7f;
  saved.camera_fits_bodies = true;
  std::string error;
  REQUIRE(save_settings(path, saved, &error));
  AppSettings loaded;
  REQUIRE(load_settings(path, &loaded, &error));
  CHECK(loaded.version == k_settings_version);
  CHECK(loaded.window_width == 1600);
  CHECK(loaded.window_height == 900);
  CHECK(loaded.ui_scale == doctest::Approx(1.5f));
  CHECK(loaded.camera.target[2] == doctest::Approx(3.0f));
  CHECK(loaded.camera.distance == doctest::Approx(12.5f));
  CHECK(loaded.camera.yaw == doctest::Approx(-0.3f));
  CHECK(loaded.camera.pitch == doctest::Approx(0.7f));
  CHECK(loaded.camera_fits_bodies);
  CHECK_FALSE(AppSettings{}.camera_fits_bodies);
  CHECK(settings_to_json(saved).find("\"version\": 1") != std::string::npos);
}

TEST_CASE("missing fields keep defaults, bad values are clamped, bad files are refused") {
  AppSettings settings;
  std::string error;
  REQUIRE(
      settings_from_json(R"({"version": 1, "ui_scale": 40, "camera": {"distance": -5}})", &settings, &error));
  CHECK(settings.window_width == AppSettings{}.window_width);
  CHECK(settings.ui_scale == doctest::Approx(3.0f));
  CHECK(settings.camera.distance == doctest::Approx(sg::render::k_min_distance));

  AppSettings untouched;
  untouched.window_width = 777;
  CHECK_FALSE(settings_from_json("{not json", &untouched, &error));
  CHECK_FALSE(settings_from_json(R"({"version": 99})", &untouched, &error));
  CHECK(error.find("newer") != std::string::npos);
  CHECK_FALSE(settings_from_json(R"({"version": 1, "ui_scale": "big"})", &untouched, &error));
  CHECK(untouched.window_width == 777);  // failed loads change nothing
}

TEST_CASE("atomic write replaces the file and leaves no temporary behind") {
  const fs::path dir = fresh_dir("atomic");
  const fs::path path = dir / "settings.json";
  std::string error;
  REQUIRE(write_file_atomic(path, "first", &error));
  REQUIRE(write_file_atomic(path, "second", &error));
  std::string content;
  REQUIRE(read_file(path, &content, &error));
  CHECK(content == "second");
  CHECK_FALSE(fs::exists(dir / "settings.json.tmp"));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("a failed atomic write keeps the previous file intact") {
  const fs::path dir = fresh_dir("atomic_fail");
  const fs::path path = dir / "settings.json";
  std::string error;
  REQUIRE(write_file_atomic(path, "good", &error));
  // A regular file where the new file's folder should be: the write fails before touching anything.
  CHECK_FALSE(write_file_atomic(path / "inner.json", "bad", &error));
  CHECK_FALSE(error.empty());
  std::string content;
  REQUIRE(read_file(path, &content, &error));
  CHECK(content == "good");
}

TEST_CASE("settings directory follows XDG_CONFIG_HOME, then HOME") {
  const char* old_xdg = std::getenv("XDG_CONFIG_HOME");
  const char* old_home = std::getenv("HOME");
  const std::string saved_xdg = old_xdg ? old_xdg : "";
  const std::string saved_home = old_home ? old_home : "";
  setenv("XDG_CONFIG_HOME", "/tmp/xdg_test", 1);
  CHECK(settings_directory() == fs::path("/tmp/xdg_test/softgrad"));
  unsetenv("XDG_CONFIG_HOME");
  setenv("HOME", "/tmp/home_test", 1);
  CHECK(settings_directory() == fs::path("/tmp/home_test/.config/softgrad"));
  CHECK(settings_file(settings_directory()).filename() == "settings.json");
  CHECK(imgui_ini_file(settings_directory()).filename() == "imgui.ini");
  if (old_xdg) setenv("XDG_CONFIG_HOME", saved_xdg.c_str(), 1);
  if (old_home) setenv("HOME", saved_home.c_str(), 1);
}
