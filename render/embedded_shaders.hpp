#pragma once
// GLSL sources from shaders/, embedded into the binary at build time by shaders/embed_shaders.cmake.
#include <span>
#include <string_view>

namespace sg::render {

struct EmbeddedShader {
  const char* name;      // file stem, e.g. "mesh" for mesh.vert + mesh.frag
  const char* vertex;    // full GLSL text of <name>.vert
  const char* fragment;  // full GLSL text of <name>.frag
};

std::span<const EmbeddedShader> embedded_shaders();

// Returns nullptr when no shader pair has this name.
const EmbeddedShader* find_embedded_shader(std::string_view name);

}  // namespace sg::render
