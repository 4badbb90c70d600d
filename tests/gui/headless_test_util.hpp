#pragma once
// Helpers shared by the headless GUI tests: a runner whose frames fail the test on GL errors, window checks,
// process CPU time and PNG loading.
#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stb_image.h>
#include <sys/resource.h>
#include "tests/test_paths.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gui/app/headless_runner.hpp"
#include "gui/app/workbench_app.hpp"

namespace sg::gui::test {

// A workbench on a shipped scene (scenes/NAME with overrides), debounced briefly, exporting into the build
// folder; fails the test when the scene does not open.
inline std::shared_ptr<WorkbenchApp> make_scene_app(const std::string& scene,
                                                    const std::vector<std::string>& overrides) {
  const std::filesystem::path scenes = std::filesystem::path(sg::test::source_dir()) / "scenes";
  WorkbenchOptions options;
  options.scenes_folder = scenes;
  options.out_folder = std::filesystem::path(sg::test::binary_dir()) / "test_gui_tmp" / "out";
  options.debounce = std::chrono::milliseconds(20);
  auto app = std::make_shared<WorkbenchApp>(options);
  REQUIRE_MESSAGE(app->open_scene((scenes / scene).string(), overrides), app->document().error());
  return app;
}

inline std::unique_ptr<HeadlessShellRunner> make_runner(AppShell& shell, int w, int h) {
  std::string error;
  auto runner = HeadlessShellRunner::create(shell, w, h, &error);
  INFO(error);
  REQUIRE(runner != nullptr);
  return runner;
}

inline void run_frames(HeadlessShellRunner& runner, int count) {
  for (int i = 0; i < count; ++i) {
    std::string error;
    const bool ok = runner.run_frame(&error);
    INFO(error);
    REQUIRE(ok);  // GL errors fail the test
  }
}

inline bool drawn_this_frame(const char* name) {
  const ImGuiWindow* window = ImGui::FindWindowByName(name);
  return window != nullptr && window->Active;
}

// User plus system CPU time of this process (all threads), in seconds.
inline double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

inline std::vector<unsigned char> load_png(const std::filesystem::path& path, int* w, int* h) {
  int channels = 0;
  unsigned char* data = stbi_load(path.string().c_str(), w, h, &channels, 4);
  REQUIRE(data != nullptr);
  std::vector<unsigned char> pixels(data,
                                    data + static_cast<std::size_t>(*w) * static_cast<std::size_t>(*h) * 4);
  stbi_image_free(data);
  return pixels;
}

}  // namespace sg::gui::test
