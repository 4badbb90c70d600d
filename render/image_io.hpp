#pragma once
// PNG output for framebuffer read-backs.
#include <cstdint>
#include <span>
#include <string>

namespace sg::render {

// rgba holds width*height*4 bytes, top row first. Returns false with a message on failure.
bool write_png(const std::string& path, int width, int height, std::span<const std::uint8_t> rgba,
               std::string* error);

}  // namespace sg::render
