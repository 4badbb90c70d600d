#pragma once
// CPU-side unit meshes (position + normal), scaled/placed per primitive by the model matrix.
#include <cstdint>
#include <vector>

namespace sg::render {

struct MeshData {
  std::vector<float> vertices;  // interleaved px, py, pz, nx, ny, nz
  std::vector<std::uint32_t> indices;
  std::size_t vertex_count() const { return vertices.size() / 6; }
};

MeshData make_unit_sphere(int slices, int stacks);  // radius 1
MeshData make_unit_cylinder(int slices);            // radius 1, z in [-1, 1], capped
MeshData make_unit_box();                           // [-1, 1]^3, flat normals
MeshData make_unit_quad();                          // [-1, 1]^2 at z = 0, normal +z
// Triangles (3 indices into xyz, 3 numbers per point) with flat normals: a faceted solid.
MeshData make_faceted_mesh(const std::vector<double>& xyz, const std::vector<int>& triangles);

}  // namespace sg::render
