#include "render/glfw_window_context.hpp"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

#include "render/gl_loader.hpp"

namespace sg::render {

namespace {
std::string last_glfw_error() {
  const char* description = nullptr;
  const int code = glfwGetError(&description);
  if (code == GLFW_NO_ERROR) return "unknown GLFW error";
  return description ? description : "GLFW error " + std::to_string(code);
}
// A window larger than the screen (1280x800 asked for on a 1280x720 display, or scaled up by the monitor's
// content scale) would put the status bar and progress off-screen: shrink it to the monitor's work area.
void fit_to_work_area(GLFWwindow* window) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!monitor) return;
  int x = 0, y = 0, w = 0, h = 0;
  glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
  if (w <= 0 || h <= 0) return;
  int width = 0, height = 0;
  glfwGetWindowSize(window, &width, &height);
  if (width <= w && height <= h) return;
  glfwSetWindowSize(window, std::min(width, w), std::min(height, h));
  glfwSetWindowPos(window, x, y);
}

}  // namespace

std::unique_ptr<GlfwWindowContext> GlfwWindowContext::create(int width, int height, const char* title,
                                                             std::string* error) {
  if (!glfwInit()) {
    if (error) *error = last_glfw_error();
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!window) {
    if (error) *error = last_glfw_error();
    glfwTerminate();
    return nullptr;
  }
  fit_to_work_area(window);
  glfwMakeContextCurrent(window);
  // The window's context is current: load the GL functions through GLFW before any GL call.
  std::string load_error;
  if (load_gl(&glfwGetProcAddress, &load_error) == 0) {
    if (error) *error = "GLFW window: " + load_error;
    glfwDestroyWindow(window);
    glfwTerminate();
    return nullptr;
  }
  glfwSwapInterval(1);
  return std::unique_ptr<GlfwWindowContext>(new GlfwWindowContext(window));
}

GlfwWindowContext::~GlfwWindowContext() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool GlfwWindowContext::make_current() {
  glfwMakeContextCurrent(window_);
  return true;
}

int GlfwWindowContext::framebuffer_width() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return w;
}

int GlfwWindowContext::framebuffer_height() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return h;
}

void GlfwWindowContext::bind_frame_target() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, framebuffer_width(), framebuffer_height());
}

void GlfwWindowContext::end_frame() {
  glfwSwapBuffers(window_);
}

std::string GlfwWindowContext::describe() const {
  return "GLFW window | " + current_gl_renderer();
}

float GlfwWindowContext::content_scale() const {
  float x = 1.0f, y = 1.0f;
  glfwGetWindowContentScale(window_, &x, &y);
  return std::max(x, y) > 0.0f ? std::max(x, y) : 1.0f;
}

bool GlfwWindowContext::should_close() const {
  return glfwWindowShouldClose(window_) != 0;
}

void GlfwWindowContext::request_close() {
  glfwSetWindowShouldClose(window_, GLFW_TRUE);
}

}  // namespace sg::render
