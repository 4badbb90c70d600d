#pragma once
// Matrix-vector and matrix-matrix products of reverse-mode 3 x 3 matrices as fused tape nodes (one node per
// result component: engine/core/reverse_vec3.hpp), values as the generic formulas compute them.
#include "engine/core/mat3.hpp"
#include "engine/core/reverse_vec3.hpp"

namespace sg {

inline Vec3<Rev> operator*(const Mat3<Rev>& a, const Vec3<Rev>& v) {
  return {rev_dot3(a.m[0][0], v.x, a.m[0][1], v.y, a.m[0][2], v.z),
          rev_dot3(a.m[1][0], v.x, a.m[1][1], v.y, a.m[1][2], v.z),
          rev_dot3(a.m[2][0], v.x, a.m[2][1], v.y, a.m[2][2], v.z)};
}

inline Vec3<Rev> mul_transpose(const Mat3<Rev>& a, const Vec3<Rev>& v) {
  return {rev_dot3(a.m[0][0], v.x, a.m[1][0], v.y, a.m[2][0], v.z),
          rev_dot3(a.m[0][1], v.x, a.m[1][1], v.y, a.m[2][1], v.z),
          rev_dot3(a.m[0][2], v.x, a.m[1][2], v.y, a.m[2][2], v.z)};
}

inline Mat3<Rev> operator*(const Mat3<Rev>& a, const Mat3<Rev>& b) {
  Mat3<Rev> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r.m[i][j] = rev_dot3(a.m[i][0], b.m[0][j], a.m[i][1], b.m[1][j], a.m[i][2], b.m[2][j]);
  return r;
}

}  // namespace sg
