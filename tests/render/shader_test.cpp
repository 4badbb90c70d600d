#include <doctest/doctest.h>

#include <string>

#include "headless_fixture.hpp"
#include "render/embedded_shaders.hpp"
#include "render/gl_check.hpp"
#include "render/shader_program.hpp"

using namespace sg::render;

TEST_CASE("embedded shaders are present and declare GLSL 330 core") {
  CHECK(find_embedded_shader("mesh") != nullptr);
  CHECK(find_embedded_shader("grid") != nullptr);
  CHECK(find_embedded_shader("line") != nullptr);
  CHECK(find_embedded_shader("missing") == nullptr);
  for (const EmbeddedShader& shader : embedded_shaders()) {
    INFO(shader.name);
    CHECK(std::string(shader.vertex).find("#version 330 core") != std::string::npos);
    CHECK(std::string(shader.fragment).find("#version 330 core") != std::string::npos);
  }
}

TEST_CASE("every embedded shader compiles and links") {
  auto context = testing::require_headless(16, 16);
  REQUIRE(embedded_shaders().size() >= 3);
  for (const EmbeddedShader& shader : embedded_shaders()) {
    std::string error;
    auto program = ShaderProgram::build_embedded(shader.name, &error);
    INFO(shader.name << ": " << error);
    CHECK(program.has_value());
  }
  CHECK(take_gl_errors().empty());
}

TEST_CASE("a broken shader reports the stage and the driver log") {
  auto context = testing::require_headless(16, 16);
  const char* good_vertex = find_embedded_shader("line")->vertex;
  const char* bad_fragment = "#version 330 core\nout vec4 c;\nvoid main() { c = undefined_symbol; }\n";
  std::string error;
  auto program = ShaderProgram::build("broken", good_vertex, bad_fragment, &error);
  CHECK_FALSE(program.has_value());
  CHECK(error.find("broken.frag") != std::string::npos);
  CHECK(error.find("undefined_symbol") != std::string::npos);
}
