#include <doctest/doctest.h>

#include <cmath>

#include "render/mesh_data.hpp"
#include "render/scene3d.hpp"

using namespace sg::render;

namespace {
// Every index in range, triangles complete, normals unit length (tolerance 1e-4).
void check_mesh(const MeshData& mesh) {
  REQUIRE(mesh.vertex_count() > 0);
  CHECK(mesh.indices.size() % 3 == 0);
  for (auto index : mesh.indices) REQUIRE(index < mesh.vertex_count());
  for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
    const float* n = &mesh.vertices[v * 6 + 3];
    CHECK(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) == doctest::Approx(1.0f).epsilon(1e-4));
  }
}
}  // namespace

TEST_CASE("unit meshes are well formed") {
  check_mesh(make_unit_sphere(16, 8));
  check_mesh(make_unit_cylinder(16));
  check_mesh(make_unit_box());
  check_mesh(make_unit_quad());
  CHECK(make_unit_box().indices.size() == 36);
}

TEST_CASE("sphere vertices lie on the unit sphere") {
  const MeshData sphere = make_unit_sphere(12, 6);
  for (std::size_t v = 0; v < sphere.vertex_count(); ++v) {
    const float* p = &sphere.vertices[v * 6];
    CHECK(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) == doctest::Approx(1.0f).epsilon(1e-5));
  }
}

TEST_CASE("line kinds have distinct fixed colours and polylines become segments") {
  Line contact, force, trail, custom;
  contact.kind = LineKind::kContactNormal;
  force.kind = LineKind::kVirtualForce;
  trail.kind = LineKind::kTrail;
  custom.color[0] = 0.25f;
  CHECK(line_color(contact) != line_color(force));
  CHECK(line_color(force) != line_color(trail));
  CHECK(line_color(contact) != line_color(trail));
  CHECK(line_color(custom)[0] == doctest::Approx(0.25f));

  Scene3D scene;
  const std::array<float, 3> points[] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}};
  append_polyline(scene, points, LineKind::kTrail);
  REQUIRE(scene.lines.size() == 2);
  CHECK(scene.lines[1].from[0] == doctest::Approx(1.0f));
  CHECK(scene.lines[1].to[1] == doctest::Approx(1.0f));
}
