#include <doctest/doctest.h>

#include <cmath>

#include "render/camera.hpp"

using namespace sg::render;

namespace {
constexpr float k_tol = 1e-4f;  // float round-off for O(10) magnitudes

Vec3f project_ndc(const Mat4& view_proj, const Vec3f& p) {
  const Vec4f clip = view_proj * Vec4f{p[0], p[1], p[2], 1.0f};
  return {clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]};
}
}  // namespace

TEST_CASE("camera eye sits at distance from target") {
  Camera camera;
  camera.target = {1.0f, -2.0f, 0.5f};
  camera.distance = 5.0f;
  CHECK(length(sub(camera_eye(camera), camera.target)) == doctest::Approx(5.0f).epsilon(k_tol));
  camera.pitch = 0.0f;
  camera.yaw = 0.0f;
  const Vec3f eye = camera_eye(camera);
  CHECK(eye[0] == doctest::Approx(6.0f).epsilon(k_tol));
  CHECK(eye[2] == doctest::Approx(0.5f).epsilon(k_tol));
}

TEST_CASE("view projection maps the target to the viewport centre and keeps z up") {
  Camera camera;
  const Mat4 vp = camera_view_projection(camera, 1280, 800);
  const Vec3f center = project_ndc(vp, camera.target);
  CHECK(std::abs(center[0]) < k_tol);
  CHECK(std::abs(center[1]) < k_tol);
  CHECK(center[2] > -1.0f);
  CHECK(center[2] < 1.0f);
  const Vec3f above = project_ndc(vp, add(camera.target, {0.0f, 0.0f, 0.5f}));
  CHECK(above[1] > center[1]);  // world +z appears higher on screen
}

TEST_CASE("orbit changes yaw and clamps pitch below the pole") {
  Camera camera;
  const float yaw0 = camera.yaw;
  camera_orbit(camera, 100.0f, 0.0f);
  CHECK(camera.yaw < yaw0);
  camera_orbit(camera, 0.0f, 1e5f);
  CHECK(camera.pitch == doctest::Approx(k_max_pitch));
  camera_orbit(camera, 0.0f, -1e6f);
  CHECK(camera.pitch == doctest::Approx(-k_max_pitch));
  // Distance and target are unaffected by orbiting.
  CHECK(length(sub(camera_eye(camera), camera.target)) == doctest::Approx(camera.distance).epsilon(k_tol));
}

TEST_CASE("pan moves the target in the view plane by world units per pixel") {
  Camera camera;
  const Vec3f eye0 = camera_eye(camera);
  const Vec3f forward = normalize(sub(camera.target, eye0));
  const Vec3f target0 = camera.target;
  const int height = 800;
  camera_pan(camera, 80.0f, 0.0f, height);
  const Vec3f moved = sub(camera.target, target0);
  CHECK(std::abs(dot(moved, forward)) < k_tol);  // no motion along the view direction
  const float expected = 80.0f * 2.0f * camera.distance * std::tan(camera.fov_y * 0.5f) / height;
  CHECK(length(moved) == doctest::Approx(expected).epsilon(1e-3));
  // Dragging right moves the scene right, i.e. the old target now projects left of centre.
  const Vec3f ndc = project_ndc(camera_view_projection(camera, 1280, height), target0);
  CHECK(ndc[0] > 0.0f);
}

TEST_CASE("zoom scales distance geometrically and clamps") {
  Camera camera;
  camera.distance = 10.0f;
  camera_zoom(camera, 1.0f);
  CHECK(camera.distance == doctest::Approx(9.0f).epsilon(k_tol));
  camera_zoom(camera, -1.0f);
  CHECK(camera.distance == doctest::Approx(10.0f).epsilon(k_tol));
  camera_zoom(camera, 1000.0f);
  CHECK(camera.distance == doctest::Approx(k_min_distance));
  camera_zoom(camera, -1000.0f);
  CHECK(camera.distance == doctest::Approx(k_max_distance));
}

TEST_CASE("quaternion rotation and normal matrix") {
  // 90 degrees about z: x axis goes to y axis.
  const float h = std::sqrt(0.5f);
  const Mat4 r = rotation_from_quat({h, 0.0f, 0.0f, h});
  const Vec4f x = r * Vec4f{1.0f, 0.0f, 0.0f, 0.0f};
  CHECK(x[0] == doctest::Approx(0.0f).epsilon(k_tol));
  CHECK(x[1] == doctest::Approx(1.0f).epsilon(k_tol));
  // Normal matrix of a non-uniform scale is the inverse scale.
  const Mat3 n = normal_matrix({1.0f, 0.0f, 0.0f, 0.0f}, {2.0f, 4.0f, 1.0f});
  CHECK(n.at(0, 0) == doctest::Approx(0.5f));
  CHECK(n.at(1, 1) == doctest::Approx(0.25f));
  CHECK(n.at(0, 1) == doctest::Approx(0.0f));
}
