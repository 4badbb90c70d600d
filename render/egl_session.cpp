#include "render/egl_session.hpp"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>

namespace sg::render {

namespace {

std::string hex(EGLint code) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%04x", static_cast<unsigned>(code));
  return buffer;
}

EGLDisplay device_display() {
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  if (!query_devices) return EGL_NO_DISPLAY;
  EGLDeviceEXT devices[8];
  EGLint count = 0;
  if (!query_devices(8, devices, &count) || count == 0) return EGL_NO_DISPLAY;
  return eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[0], nullptr);
}

// Initializes the display and creates a GL 3.3 core context; appends what failed to *log.
EGLContext create_core_context(EGLDisplay display, std::string* log) {
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    *log += "eglInitialize failed (" + hex(eglGetError()) + "); ";
    return EGL_NO_CONTEXT;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    *log += "eglBindAPI(EGL_OPENGL_API) failed (" + hex(eglGetError()) + "); ";
    return EGL_NO_CONTEXT;
  }
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &config_count) || config_count == 0) {
    // Surfaceless contexts may not need a config (EGL_KHR_no_config_context).
    *log += "eglChooseConfig found " + std::to_string(config_count) + " configs (" + hex(eglGetError()) +
            "), trying EGL_NO_CONFIG; ";
    config = nullptr;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                    3,
                                    EGL_CONTEXT_MINOR_VERSION,
                                    3,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                    EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT) *log += "eglCreateContext failed (" + hex(eglGetError()) + "); ";
  return context;
}

}  // namespace

std::unique_ptr<EglSession> EglSession::create(std::string* error) {
  struct Attempt {
    const char* name;
    EGLDisplay (*open)();
  };
  const Attempt attempts[] = {
      {"EGL surfaceless",
       [] { return eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr); }},
      {"EGL device", [] { return device_display(); }},
      {"EGL default display", [] { return eglGetDisplay(EGL_DEFAULT_DISPLAY); }},
  };
  std::string log;
  for (const Attempt& attempt : attempts) {
    log += std::string(attempt.name) + ": ";
    EGLDisplay display = attempt.open();
    if (display == EGL_NO_DISPLAY) {
      log += "no display (" + hex(eglGetError()) + "); ";
      continue;
    }
    EGLContext context = create_core_context(display, &log);
    if (context == EGL_NO_CONTEXT) continue;
    auto session = std::unique_ptr<EglSession>(new EglSession(display, context, attempt.name));
    if (session->make_current()) return session;
    log += "eglMakeCurrent failed (" + hex(eglGetError()) + "); ";
  }
  if (error) *error = "no headless OpenGL 3.3 context: " + log;
  return nullptr;
}

EglSession::EglSession(void* display, void* context, std::string platform)
    : display_(display), context_(context), platform_(std::move(platform)) {}

EglSession::~EglSession() {
  if (eglGetCurrentContext() == context_)
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
  // No eglTerminate: the display is shared process-wide and other sessions may still use it.
}

bool EglSession::make_current() {
  return eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_) == EGL_TRUE;
}

GlProc EglSession::proc_address(const char* name) {
  return eglGetProcAddress(name);
}

}  // namespace sg::render
