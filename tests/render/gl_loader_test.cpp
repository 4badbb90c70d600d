#include <doctest/doctest.h>

#include <string>

#include "headless_fixture.hpp"
#include "render/gl_check.hpp"
#include "render/gl_context.hpp"
#include "render/gl_loader.hpp"

using namespace sg::render;

TEST_CASE("the headless context loads GL 3.3 core through glad") {
  auto context = testing::require_headless(16, 16);
  std::string error;
  const int version = load_gl(&EglSession::proc_address, &error);
  INFO(error);
  CHECK(version >= 33);
  CHECK(version == current_gl_version());
  CHECK(take_gl_errors().empty());
}

TEST_CASE("a loader that finds nothing is an error message, not a crash, and loading again restores GL") {
  auto context = testing::require_headless(16, 16);
  std::string error;
  CHECK(load_gl([](const char*) -> GlProc { return nullptr; }, &error) == 0);
  CHECK(error.find("glGetString not found") != std::string::npos);
  CHECK(current_gl_renderer() == "GL functions not loaded");
  CHECK(current_gl_version() == 0);
  error.clear();
  CHECK(load_gl(nullptr, &error) == 0);
  CHECK(!error.empty());
  // Unconditionally: the context's destructor makes GL calls.
  error.clear();
  CHECK(load_gl(&EglSession::proc_address, &error) >= 33);
  CHECK(error.empty());
  CHECK(current_gl_version() >= 33);
}
