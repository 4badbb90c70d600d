#include "gui/app/glfw_app.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "gui/app/imgui_session.hpp"
#include "render/glfw_window_context.hpp"

namespace sg::gui {

namespace {

// Dear ImGui 1.86 reads the keys' state once per frame, so a press and its release that arrive in one batch
// of events (a quick tap while the idle window waits for events, or xdotool) would never be seen as a press,
// and a modifier released in the same batch would be missing from the chord. Once a key was pressed since
// the last frame, every release is held back until that frame has been drawn.
struct DeferredKeyReleases {
  struct Release {
    int key, scancode, mods;
  };
  static constexpr int kKeys = GLFW_KEY_LAST + 1;
  bool pressed_since_frame = false;
  Release held[64];
  int count = 0;

  static DeferredKeyReleases& instance() {
    static DeferredKeyReleases releases;
    return releases;
  }
  static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    DeferredKeyReleases& self = instance();
    const bool tracked = key >= 0 && key < kKeys;
    if (tracked && action == GLFW_RELEASE && self.pressed_since_frame && self.count < 64) {
      self.held[self.count++] = {key, scancode, mods};
      return;
    }
    if (tracked && action == GLFW_PRESS) self.pressed_since_frame = true;
    ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
  }
  // After a frame: the held releases reach ImGui (seen by the next frame).
  void release(GLFWwindow* window) {
    pressed_since_frame = false;
    for (int i = 0; i < count; ++i)
      ImGui_ImplGlfw_KeyCallback(window, held[i].key, held[i].scancode, GLFW_RELEASE, held[i].mods);
    count = 0;
  }
};

// The first of the files last dropped on the window, taken by the loop after the events are handled (GLFW
// calls back from inside glfwPollEvents, where the workbench must not open a scene mid-frame).
struct DroppedFile {
  std::string path;
  static DroppedFile& instance() {
    static DroppedFile dropped;
    return dropped;
  }
  static void on_drop(GLFWwindow*, int count, const char** paths) {
    if (count > 0 && paths[0]) instance().path = paths[0];
  }
  // Hands the dropped file to the workbench, once.
  static void deliver(AppShell& shell) {
    std::string& path = instance().path;
    if (path.empty()) return;
    if (shell.workbench().open_dropped) shell.workbench().open_dropped(path);
    path.clear();
  }
};

// Pairs ImGui_ImplGlfw_Init/Shutdown so every exit path shuts the platform backend down first.
struct GlfwPlatformBackend {
  explicit GlfwPlatformBackend(GLFWwindow* window) {
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    glfwSetKeyCallback(window, &DeferredKeyReleases::on_key);  // forwards to ImGui's callback
    glfwSetDropCallback(window, &DroppedFile::on_drop);
  }
  ~GlfwPlatformBackend() { ImGui_ImplGlfw_Shutdown(); }
  GlfwPlatformBackend(const GlfwPlatformBackend&) = delete;
  GlfwPlatformBackend& operator=(const GlfwPlatformBackend&) = delete;
};

void draw_frame(AppShell& shell, ImGuiSession& imgui, render::GlfwWindowContext& window) {
  imgui.new_frame(shell.settings().ui_scale);
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  shell.frame();
  ImGui::Render();
  window.bind_frame_target();
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  imgui.render_draw_data();
  if (shell.workbench().capture) shell.workbench().capture->service();
  window.end_frame();
}

void save_on_exit(AppShell& shell, const render::GlfwWindowContext& window,
                  const std::filesystem::path& dir) {
  int width = 0, height = 0;
  glfwGetWindowSize(window.window(), &width, &height);
  if (width > 0 && height > 0) {
    shell.settings().window_width = width;
    shell.settings().window_height = height;
  }
  if (shell.workbench().camera_fits_bodies)
    shell.settings().camera_fits_bodies = shell.workbench().camera_fits_bodies();
  std::string error;
  if (!save_settings(settings_file(dir), shell.settings(), &error)) {
    std::fprintf(stderr, "softgrad-gui: settings not saved: %s\n", error.c_str());
  }
}

}  // namespace

int run_glfw_app(AppShell& shell, const std::filesystem::path& config_dir) {
  std::string error;
  const AppSettings& settings = shell.settings();
  auto window =
      render::GlfwWindowContext::create(settings.window_width, settings.window_height, "softgrad", &error);
  if (!window) {
    std::fprintf(stderr,
                 "softgrad-gui: no display available (%s); use `softgrad screenshot` to render the "
                 "workbench to a PNG headless.\n",
                 error.c_str());
    return 1;
  }
  shell.set_content_scale(window->content_scale());
  std::error_code ec;
  std::filesystem::create_directories(config_dir, ec);  // imgui.ini lives there too
  ImGuiSession imgui(imgui_ini_file(config_dir).string(), shell.content_scale());
  GlfwPlatformBackend platform(window->window());
  if (!imgui.init_renderer(&error) || !shell.attach_gl(&error)) {
    std::fprintf(stderr, "softgrad-gui: %s\n", error.c_str());
    return 1;
  }
  // Idle: sleep until input arrives (waking every 5 s as a safety net), then draw two more frames after each
  // input so ImGui settles hover, focus and popups. Busy or playing: redraw continuously, and twice more once
  // it stops so the finished job's result is shown at once, paced by AppShell::animating_frame_seconds.
  constexpr double kIdleWakeSeconds = 5.0;
  int extra_frames = 0;
  while (!window->should_close() && !shell.state().quit_requested) {
    const bool animating = shell.animating();
    if (animating || extra_frames > 0) {
      glfwPollEvents();
      extra_frames = animating ? 2 : extra_frames - 1;
    } else {
      const double before = glfwGetTime();
      glfwWaitEventsTimeout(kIdleWakeSeconds);
      // Woken by input: two more frames, as a popup opened on a button's release is measured (hidden) in its
      // first frame and shown in the next.
      if (glfwGetTime() - before < 0.9 * kIdleWakeSeconds) extra_frames = 2;
    }
    DroppedFile::deliver(shell);
    const double frame_start = glfwGetTime();
    draw_frame(shell, imgui, *window);
    const double frame_end = glfwGetTime();
    shell.frame_stats().record(ImGui::GetTime(), frame_end - frame_start);
    // The rest of the frame's time waits for input (which then redraws at once) instead of sleeping.
    const double spare = shell.animating_frame_seconds() - (frame_end - frame_start);
    if (animating && spare > 0.0) glfwWaitEventsTimeout(spare);
    DeferredKeyReleases& releases = DeferredKeyReleases::instance();
    if (releases.count > 0) extra_frames = extra_frames > 1 ? extra_frames : 1;  // let ImGui see them
    if (shell.layout_pending()) extra_frames = extra_frames > 1 ? extra_frames : 1;
    releases.release(window->window());
  }
  save_on_exit(shell, *window, config_dir);
  shell.detach_gl();
  return 0;
}

}  // namespace sg::gui
