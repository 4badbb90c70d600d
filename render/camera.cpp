#include "render/camera.hpp"

#include <algorithm>
#include <cmath>

namespace sg::render {

namespace {
constexpr float k_orbit_radians_per_pixel = 0.008f;
constexpr Vec3f k_world_up{0.0f, 0.0f, 1.0f};
}  // namespace

Vec3f camera_eye(const Camera& camera) {
  const float cp = std::cos(camera.pitch);
  const Vec3f offset{cp * std::cos(camera.yaw), cp * std::sin(camera.yaw), std::sin(camera.pitch)};
  return add(camera.target, scale(offset, camera.distance));
}

Mat4 camera_view(const Camera& camera) {
  return look_at(camera_eye(camera), camera.target, k_world_up);
}

Mat4 camera_projection(const Camera& camera, float aspect) {
  return perspective(camera.fov_y, aspect > 0.0f ? aspect : 1.0f, camera.z_near, camera.z_far);
}

Mat4 camera_view_projection(const Camera& camera, int width, int height) {
  const float aspect = height > 0 ? static_cast<float>(width) / static_cast<float>(height) : 1.0f;
  return camera_projection(camera, aspect) * camera_view(camera);
}

void camera_orbit(Camera& camera, float dx_pixels, float dy_pixels) {
  camera.yaw -= dx_pixels * k_orbit_radians_per_pixel;
  camera.pitch = std::clamp(camera.pitch + dy_pixels * k_orbit_radians_per_pixel, -k_max_pitch, k_max_pitch);
}

void camera_pan(Camera& camera, float dx_pixels, float dy_pixels, int viewport_height) {
  const Vec3f eye = camera_eye(camera);
  const Vec3f forward = normalize(sub(camera.target, eye));
  const Vec3f right = normalize(cross(forward, k_world_up));
  const Vec3f up = cross(right, forward);
  // World units per pixel at the target's depth.
  const float world_per_pixel = 2.0f * camera.distance * std::tan(camera.fov_y * 0.5f) /
                                static_cast<float>(std::max(viewport_height, 1));
  camera.target = add(camera.target, scale(right, -dx_pixels * world_per_pixel));
  camera.target = add(camera.target, scale(up, dy_pixels * world_per_pixel));
}

void camera_zoom(Camera& camera, float wheel_steps) {
  camera.distance = std::clamp(camera.distance * std::pow(0.9f, wheel_steps), k_min_distance, k_max_distance);
}

}  // namespace sg::render
