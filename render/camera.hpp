#pragma once
// Orbit/pan/zoom camera around a target point, z-up world. Pure math, no GL.
#include "render/math3d.hpp"

namespace sg::render {

struct Camera {
  Vec3f target{0.0f, 0.0f, 0.5f};
  float distance = 7.0f;
  float yaw = 0.9f;     // radians around +z, measured from +x
  float pitch = 0.45f;  // radians above the xy plane
  float fov_y = 0.8f;   // radians
  float z_near = 0.05f;
  float z_far = 300.0f;
  bool operator==(const Camera&) const = default;
};

inline constexpr float k_max_pitch = 1.55f;     // just short of straight up/down so look_at stays defined
inline constexpr float k_min_distance = 0.02f;  // billiard balls are 4 cm
inline constexpr float k_max_distance = 200.0f;

Vec3f camera_eye(const Camera& camera);
Mat4 camera_view(const Camera& camera);
Mat4 camera_projection(const Camera& camera, float aspect);
Mat4 camera_view_projection(const Camera& camera, int width, int height);

// Mouse drags in pixels: orbit rotates about the target, pan moves the target in the view plane so
// the point under the cursor follows it, zoom scales the distance by 0.9 per wheel step.
void camera_orbit(Camera& camera, float dx_pixels, float dy_pixels);
void camera_pan(Camera& camera, float dx_pixels, float dy_pixels, int viewport_height);
void camera_zoom(Camera& camera, float wheel_steps);

}  // namespace sg::render
