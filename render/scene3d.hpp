#pragma once
// Plain description of what the 3-D viewport shows; filled by the caller every frame.
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "render/mesh_data.hpp"

namespace sg::render {

// Size conventions follow MuJoCo geoms (all lengths in metres):
//   kSphere: size[0] radius.            kCapsule: size[0] radius, size[1] half-length of the axis (local z).
//   kBox: size = half extents.          kCylinder: size[0] radius, size[1] half-length (local z).
//   kEllipsoid: size = radii.           kPlane: size[0], size[1] half extents, size[2] grid spacing.
//   kMesh: Scene3D::meshes[mesh] in its own units (size unused).
enum class Shape { kSphere, kCapsule, kBox, kCylinder, kEllipsoid, kPlane, kMesh };

struct Primitive {
  Shape shape = Shape::kSphere;
  int mesh = -1;  // kMesh: its index in Scene3D::meshes
  float size[3] = {0.5f, 0.5f, 0.5f};
  float pos[3] = {0.0f, 0.0f, 0.0f};
  float quat[4] = {1.0f, 0.0f, 0.0f, 0.0f};  // (w, x, y, z)
  float color[4] = {0.8f, 0.8f, 0.8f, 1.0f};
  bool operator==(const Primitive&) const = default;
};

// What a line shows decides its colour, so the same quantity looks the same everywhere.
enum class LineKind { kContactNormal, kVirtualForce, kTrail, kCustom };

struct Line {
  float from[3] = {0.0f, 0.0f, 0.0f};
  float to[3] = {0.0f, 0.0f, 0.0f};
  LineKind kind = LineKind::kCustom;
  float color[4] = {1.0f, 1.0f, 1.0f, 1.0f};  // used only for LineKind::kCustom
  bool operator==(const Line&) const = default;
};

struct Scene3D {
  std::vector<Primitive> prims;
  std::vector<Line> lines;
  // Triangle meshes that kMesh primitives draw; shared, so a frame's scene copies no vertices, and the
  // renderer uploads each once (by address) while scenes hold it.
  std::vector<std::shared_ptr<const MeshData>> meshes;
  bool operator==(const Scene3D&) const = default;  // the viewport draws again only when this changes
};

// Fixed palette: contact normals orange-red, virtual CFD forces cyan, trails yellow.
std::array<float, 4> line_color(const Line& line);

// Appends a polyline (e.g. a trajectory trail) as consecutive segments.
void append_polyline(Scene3D& scene, std::span<const std::array<float, 3>> points, LineKind kind);

}  // namespace sg::render
