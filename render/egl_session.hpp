#pragma once
// EGL display + GL 3.3 core context without any window surface. Kept free of GL headers
// because <EGL/egl.h> and <epoxy/gl.h> cannot share a translation unit.
#include <memory>
#include <string>

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
  const std::string& platform() const { return platform_; }

 private:
  EglSession(void* display, void* context, std::string platform);
  void* display_;
  void* context_;
  std::string platform_;
};

}  // namespace sg::render
