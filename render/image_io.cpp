#include "render/image_io.hpp"

#include <stb_image_write.h>  // implementation comes from Debian's libstb

namespace sg::render {

bool write_png(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba,
               std::string* error) {
  const auto expected = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  if (width <= 0 || height <= 0 || rgba.size() != expected) {
    if (error)
      *error = "write_png: pixel buffer does not match " + std::to_string(width) + "x" +
               std::to_string(height) + " RGBA";
    return false;
  }
  if (stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4) == 0) {
    if (error) *error = "write_png: cannot write '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace sg::render
