#pragma once
// EGL display + GL 3.3 core context without any window surface. Kept free of GL headers
// because <EGL/egl.h> and <glad/gl.h> cannot share a translation unit (both define the Khronos types): the GL
// side loads its functions through proc_address, a plain function pointer.
#include <memory>
#include <string>

#include "render/gl_loader.hpp"

namespace sg::render {

class EglSession {
 public:
  // Tries, in order: EGL_PLATFORM_SURFACELESS_MESA, EGL_PLATFORM_DEVICE_EXT, the default display.
  // On failure returns nullptr and *error lists what every attempt returned.
  static std::unique_ptr<EglSession> create(std::string* error);
  ~EglSession();
  EglSession(const EglSession&) = delete;
  EglSession& operator=(const EglSession&) = delete;

  bool make_current();
  // eglGetProcAddress: a GL (or EGL) entry point by name, for load_gl.
  static GlProc proc_address(const char* name);
  const std::string& platform() const { return platform_; }

 private:
  EglSession(void* display, void* context, std::string platform);
  void* display_;
  void* context_;
  std::string platform_;
};

}  // namespace sg::render
