#pragma once
// Shared helpers for tests that need a headless GL context.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "render/headless_context.hpp"

namespace sg::render::testing {

inline std::unique_ptr<HeadlessContext> require_headless(int width, int height) {
  std::string error;
  auto context = HeadlessContext::create(width, height, &error);
  INFO("headless context: " << error);
  REQUIRE(context != nullptr);
  MESSAGE("GL: " << context->describe());
  return context;
}

struct Rgba {
  int r, g, b, a;
};

inline Rgba pixel(const std::vector<std::uint8_t>& rgba, int width, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x) * 4;
  return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
}

}  // namespace sg::render::testing
