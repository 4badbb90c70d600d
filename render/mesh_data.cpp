#include "render/mesh_data.hpp"

#include <array>
#include <cmath>
#include <numbers>

namespace sg::render {

namespace {

std::uint32_t push_vertex(MeshData& mesh, float px, float py, float pz, float nx, float ny, float nz) {
  const auto index = static_cast<std::uint32_t>(mesh.vertex_count());
  mesh.vertices.insert(mesh.vertices.end(), {px, py, pz, nx, ny, nz});
  return index;
}

void push_quad(MeshData& mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
}

// A flat disk at height z facing +z (up = true) or -z.
void push_cap(MeshData& mesh, int slices, float z, bool up) {
  const float nz = up ? 1.0f : -1.0f;
  const std::uint32_t center = push_vertex(mesh, 0.0f, 0.0f, z, 0.0f, 0.0f, nz);
  const std::uint32_t first = static_cast<std::uint32_t>(mesh.vertex_count());
  for (int i = 0; i <= slices; ++i) {
    const float angle = 2.0f * std::numbers::pi_v<float> * static_cast<float>(i) / static_cast<float>(slices);
    push_vertex(mesh, std::cos(angle), std::sin(angle), z, 0.0f, 0.0f, nz);
  }
  for (int i = 0; i < slices; ++i) {
    const std::uint32_t a = first + static_cast<std::uint32_t>(i);
    if (up) {
      mesh.indices.insert(mesh.indices.end(), {center, a, a + 1});
    } else {
      mesh.indices.insert(mesh.indices.end(), {center, a + 1, a});
    }
  }
}

}  // namespace

MeshData make_unit_sphere(int slices, int stacks) {
  MeshData mesh;
  const float pi = std::numbers::pi_v<float>;
  for (int j = 0; j <= stacks; ++j) {
    const float theta = pi * static_cast<float>(j) / static_cast<float>(stacks);  // from +z down
    for (int i = 0; i <= slices; ++i) {
      const float phi = 2.0f * pi * static_cast<float>(i) / static_cast<float>(slices);
      const float x = std::sin(theta) * std::cos(phi), y = std::sin(theta) * std::sin(phi),
                  z = std::cos(theta);
      push_vertex(mesh, x, y, z, x, y, z);
    }
  }
  const auto row = static_cast<std::uint32_t>(slices + 1);
  for (int j = 0; j < stacks; ++j) {
    for (int i = 0; i < slices; ++i) {
      const std::uint32_t a = static_cast<std::uint32_t>(j) * row + static_cast<std::uint32_t>(i);
      push_quad(mesh, a, a + row, a + row + 1, a + 1);
    }
  }
  return mesh;
}

MeshData make_unit_cylinder(int slices) {
  MeshData mesh;
  const float pi = std::numbers::pi_v<float>;
  for (int i = 0; i <= slices; ++i) {
    const float angle = 2.0f * pi * static_cast<float>(i) / static_cast<float>(slices);
    const float x = std::cos(angle), y = std::sin(angle);
    push_vertex(mesh, x, y, -1.0f, x, y, 0.0f);
    push_vertex(mesh, x, y, 1.0f, x, y, 0.0f);
  }
  for (int i = 0; i < slices; ++i) {
    const auto a = static_cast<std::uint32_t>(2 * i);
    push_quad(mesh, a, a + 2, a + 3, a + 1);
  }
  push_cap(mesh, slices, 1.0f, true);
  push_cap(mesh, slices, -1.0f, false);
  return mesh;
}

MeshData make_unit_box() {
  MeshData mesh;
  // Each face: normal axis, sign; corners walk counter-clockwise seen from outside.
  for (int axis = 0; axis < 3; ++axis) {
    for (float sign : {1.0f, -1.0f}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      float normal[3] = {0.0f, 0.0f, 0.0f};
      normal[axis] = sign;
      std::uint32_t corners[4];
      const float us[4] = {-1.0f, 1.0f, 1.0f, -1.0f};
      const float vs[4] = {-1.0f, -1.0f, 1.0f, 1.0f};
      for (int c = 0; c < 4; ++c) {
        float p[3];
        p[axis] = sign;
        p[u] = us[c];
        p[v] = sign > 0.0f ? vs[c] : -vs[c];
        corners[c] = push_vertex(mesh, p[0], p[1], p[2], normal[0], normal[1], normal[2]);
      }
      push_quad(mesh, corners[0], corners[1], corners[2], corners[3]);
    }
  }
  return mesh;
}

MeshData make_unit_quad() {
  MeshData mesh;
  const std::uint32_t a = push_vertex(mesh, -1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
  const std::uint32_t b = push_vertex(mesh, 1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
  const std::uint32_t c = push_vertex(mesh, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
  const std::uint32_t d = push_vertex(mesh, -1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
  push_quad(mesh, a, b, c, d);
  return mesh;
}

MeshData make_faceted_mesh(const std::vector<double>& xyz, const std::vector<int>& triangles) {
  MeshData mesh;
  const auto point = [&](int i) {
    const std::size_t at = 3 * static_cast<std::size_t>(i);
    return std::array<double, 3>{xyz[at], xyz[at + 1], xyz[at + 2]};
  };
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const std::array<double, 3> p[3] = {point(triangles[t]), point(triangles[t + 1]),
                                        point(triangles[t + 2])};
    const double u[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    const double v[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len <= 0.0) continue;  // a degenerate triangle shows nothing
    for (double& c : n) c /= len;
    for (const auto& q : p)
      mesh.indices.push_back(push_vertex(mesh, static_cast<float>(q[0]), static_cast<float>(q[1]),
                                         static_cast<float>(q[2]), static_cast<float>(n[0]),
                                         static_cast<float>(n[1]), static_cast<float>(n[2])));
  }
  return mesh;
}

}  // namespace sg::render
