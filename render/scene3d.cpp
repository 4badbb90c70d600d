#include "render/scene3d.hpp"

namespace sg::render {

std::array<float, 4> line_color(const Line& line) {
  switch (line.kind) {
    case LineKind::kContactNormal:
      return {1.0f, 0.35f, 0.1f, 1.0f};
    case LineKind::kVirtualForce:
      return {0.1f, 0.85f, 1.0f, 1.0f};
    case LineKind::kTrail:
      return {1.0f, 0.9f, 0.2f, 1.0f};
    case LineKind::kCustom:
      break;
  }
  return {line.color[0], line.color[1], line.color[2], line.color[3]};
}

void append_polyline(Scene3D& scene, std::span<const std::array<float, 3>> points, LineKind kind) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    Line segment;
    segment.kind = kind;
    for (int k = 0; k < 3; ++k) {
      segment.from[k] = points[i - 1][k];
      segment.to[k] = points[i][k];
    }
    scene.lines.push_back(segment);
  }
}

}  // namespace sg::render
