#include "render/image_io.hpp"

#include <stb_image_write.h>

#include <string>

#include "engine/io/atomic_file.hpp"  // implementation comes from Debian's libstb

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
  // Encoded in memory, then written like every other output file (atomically, through links).
  std::string encoded;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(append, &encoded, width, height, 4, rgba.data(), width * 4) == 0) {
    if (error) *error = "write_png: cannot encode '" + path + "'";
    return false;
  }
  return io::write_file_atomic(path, encoded, error);
}

}  // namespace sg::render
