#pragma once
// The OpenGL function loader (glad, generated at build time). Free of GL and EGL headers, so that both the
// EGL side (egl_session.cpp) and the GL side can include it.
#include <string>

namespace sg::render {

// A GL entry point, and a function returning one by name: glfwGetProcAddress, eglGetProcAddress.
using GlProc = void (*)();
using GlProcLoader = GlProc (*)(const char* name);

// Loads every GL 3.3 core function for the context current on this thread through `loader`. Returns the
// context's version as major * 10 + minor (e.g. 45), or 0 with a message in *error when nothing usable was
// found (no glGetString, no version string). Call it once a context is current, before any other GL call.
int load_gl(GlProcLoader loader, std::string* error);

}  // namespace sg::render
