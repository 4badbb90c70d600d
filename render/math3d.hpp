#pragma once
// Minimal float matrix math for the renderer (column-major, OpenGL conventions).
#include <array>

namespace sg::render {

using Vec3f = std::array<float, 3>;
using Vec4f = std::array<float, 4>;

struct Mat4 {
  std::array<float, 16> m{};  // column-major: element (row, col) is m[col * 4 + row]
  float& at(int row, int col) { return m[col * 4 + row]; }
  float at(int row, int col) const { return m[col * 4 + row]; }
  static Mat4 identity();
};

struct Mat3 {
  std::array<float, 9> m{};  // column-major
  float& at(int row, int col) { return m[col * 3 + row]; }
  float at(int row, int col) const { return m[col * 3 + row]; }
};

Vec3f add(const Vec3f& a, const Vec3f& b);
Vec3f sub(const Vec3f& a, const Vec3f& b);
Vec3f scale(const Vec3f& a, float s);
float dot(const Vec3f& a, const Vec3f& b);
Vec3f cross(const Vec3f& a, const Vec3f& b);
float length(const Vec3f& a);
Vec3f normalize(const Vec3f& a);

Mat4 operator*(const Mat4& a, const Mat4& b);
Vec4f operator*(const Mat4& a, const Vec4f& v);

Mat4 translation(const Vec3f& t);
Mat4 scaling(const Vec3f& s);
// Rotation from a unit quaternion given as (w, x, y, z); the input is normalized first.
Mat4 rotation_from_quat(const Vec4f& wxyz);
Mat4 perspective(float fov_y_rad, float aspect, float z_near, float z_far);
Mat4 look_at(const Vec3f& eye, const Vec3f& target, const Vec3f& up);

// Inverse-transpose for normals of a model matrix R * diag(s): equals R * diag(1/s).
Mat3 normal_matrix(const Vec4f& quat_wxyz, const Vec3f& scale_xyz);

}  // namespace sg::render
