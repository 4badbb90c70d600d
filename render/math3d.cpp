#include "render/math3d.hpp"

#include <cmath>

namespace sg::render {

Mat4 Mat4::identity() {
  Mat4 r;
  for (int i = 0; i < 4; ++i) r.at(i, i) = 1.0f;
  return r;
}

Vec3f add(const Vec3f& a, const Vec3f& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
Vec3f sub(const Vec3f& a, const Vec3f& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3f scale(const Vec3f& a, float s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
float dot(const Vec3f& a, const Vec3f& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec3f cross(const Vec3f& a, const Vec3f& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
float length(const Vec3f& a) {
  return std::sqrt(dot(a, a));
}
Vec3f normalize(const Vec3f& a) {
  const float len = length(a);
  return len > 0.0f ? scale(a, 1.0f / len) : a;
}

Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) {
      float sum = 0.0f;
      for (int k = 0; k < 4; ++k) sum += a.at(row, k) * b.at(k, col);
      r.at(row, col) = sum;
    }
  }
  return r;
}

Vec4f operator*(const Mat4& a, const Vec4f& v) {
  Vec4f r{};
  for (int row = 0; row < 4; ++row) {
    for (int k = 0; k < 4; ++k) r[row] += a.at(row, k) * v[k];
  }
  return r;
}

Mat4 translation(const Vec3f& t) {
  Mat4 r = Mat4::identity();
  for (int i = 0; i < 3; ++i) r.at(i, 3) = t[i];
  return r;
}

Mat4 scaling(const Vec3f& s) {
  Mat4 r = Mat4::identity();
  for (int i = 0; i < 3; ++i) r.at(i, i) = s[i];
  return r;
}

namespace {
// 3x3 rotation of a normalized quaternion, row-major [row][col].
std::array<std::array<float, 3>, 3> quat_rotation(const Vec4f& q_in) {
  float n = std::sqrt(q_in[0] * q_in[0] + q_in[1] * q_in[1] + q_in[2] * q_in[2] + q_in[3] * q_in[3]);
  if (n == 0.0f) n = 1.0f;
  const float w = q_in[0] / n, x = q_in[1] / n, y = q_in[2] / n, z = q_in[3] / n;
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
           {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
           {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}
}  // namespace

Mat4 rotation_from_quat(const Vec4f& wxyz) {
  const auto rot = quat_rotation(wxyz);
  Mat4 r = Mat4::identity();
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) r.at(row, col) = rot[row][col];
  }
  return r;
}

Mat4 perspective(float fov_y_rad, float aspect, float z_near, float z_far) {
  const float f = 1.0f / std::tan(fov_y_rad * 0.5f);
  Mat4 r;
  r.at(0, 0) = f / aspect;
  r.at(1, 1) = f;
  r.at(2, 2) = (z_far + z_near) / (z_near - z_far);
  r.at(2, 3) = 2.0f * z_far * z_near / (z_near - z_far);
  r.at(3, 2) = -1.0f;
  return r;
}

Mat4 look_at(const Vec3f& eye, const Vec3f& target, const Vec3f& up) {
  const Vec3f forward = normalize(sub(target, eye));
  const Vec3f right = normalize(cross(forward, up));
  const Vec3f true_up = cross(right, forward);
  Mat4 r = Mat4::identity();
  for (int i = 0; i < 3; ++i) {
    r.at(0, i) = right[i];
    r.at(1, i) = true_up[i];
    r.at(2, i) = -forward[i];
  }
  r.at(0, 3) = -dot(right, eye);
  r.at(1, 3) = -dot(true_up, eye);
  r.at(2, 3) = dot(forward, eye);
  return r;
}

Mat3 normal_matrix(const Vec4f& quat_wxyz, const Vec3f& scale_xyz) {
  const auto rot = quat_rotation(quat_wxyz);
  Mat3 r;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) {
      const float s = scale_xyz[col] != 0.0f ? scale_xyz[col] : 1.0f;
      r.at(row, col) = rot[row][col] / s;
    }
  }
  return r;
}

}  // namespace sg::render
