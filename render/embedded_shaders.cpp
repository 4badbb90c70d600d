#include "render/embedded_shaders.hpp"

namespace sg::render {

const EmbeddedShader* find_embedded_shader(std::string_view name) {
  for (const EmbeddedShader& shader : embedded_shaders()) {
    if (name == shader.name) return &shader;
  }
  return nullptr;
}

}  // namespace sg::render
