#pragma once
// A row-major 3x3 matrix over any scalar (double or Dual<N>). Only what rigid bodies and collision
// detection need: products, transpose, columns, skew and outer products.
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

template <class S>
struct Mat3 {
  S m[3][3] = {};  // m[row][col]

  SG_HD S& operator()(int r, int c) { return m[r][c]; }
  SG_HD const S& operator()(int r, int c) const { return m[r][c]; }

  SG_HD Vec3<S> row(int r) const { return {m[r][0], m[r][1], m[r][2]}; }
  SG_HD Vec3<S> col(int c) const { return {m[0][c], m[1][c], m[2][c]}; }

  SG_HD static Mat3 identity() { return diag(Vec3<S>(S(1.0), S(1.0), S(1.0))); }
  SG_HD static Mat3 diag(const Vec3<S>& d) {
    Mat3 r;
    for (int i = 0; i < 3; ++i) r.m[i][i] = d[i];
    return r;
  }
  // The matrix whose columns are c0, c1, c2.
  SG_HD static Mat3 from_columns(const Vec3<S>& c0, const Vec3<S>& c1, const Vec3<S>& c2) {
    Mat3 r;
    for (int i = 0; i < 3; ++i) {
      r.m[i][0] = c0[i];
      r.m[i][1] = c1[i];
      r.m[i][2] = c2[i];
    }
    return r;
  }
};

template <class S>
SG_INLINE Mat3<S> transpose(const Mat3<S>& a) {
  Mat3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[j][i];
  return r;
}

template <class S>
SG_INLINE Mat3<S> operator*(const Mat3<S>& a, const Mat3<S>& b) {
  Mat3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  return r;
}

template <class S>
SG_INLINE Vec3<S> operator*(const Mat3<S>& a, const Vec3<S>& v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
          a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}

// a^T v without forming the transpose: world-to-local for a rotation matrix.
template <class S>
SG_INLINE Vec3<S> mul_transpose(const Mat3<S>& a, const Vec3<S>& v) {
  return {a.m[0][0] * v.x + a.m[1][0] * v.y + a.m[2][0] * v.z,
          a.m[0][1] * v.x + a.m[1][1] * v.y + a.m[2][1] * v.z,
          a.m[0][2] * v.x + a.m[1][2] * v.y + a.m[2][2] * v.z};
}

template <class S>
SG_INLINE Mat3<S> operator+(const Mat3<S>& a, const Mat3<S>& b) {
  Mat3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] + b.m[i][j];
  return r;
}

template <class S>
SG_INLINE Mat3<S> operator-(const Mat3<S>& a, const Mat3<S>& b) {
  Mat3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] - b.m[i][j];
  return r;
}

template <class S, class T>
SG_INLINE Mat3<S> operator*(const Mat3<S>& a, const T& s) {
  Mat3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] * s;
  return r;
}

// skew(v) w = v x w.
template <class S>
SG_INLINE Mat3<S> skew(const Vec3<S>& v) {
  Mat3<S> r;
  r.m[0][1] = -v.z;
  r.m[0][2] = v.y;
  r.m[1][0] = v.z;
  r.m[1][2] = -v.x;
  r.m[2][0] = -v.y;
  r.m[2][1] = v.x;
  return r;
}

// outer(a, b) = a b^T.
template <class S>
SG_INLINE Mat3<S> outer(const Vec3<S>& a, const Vec3<S>& b) {
  Mat3<S> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a[i] * b[j];
  return r;
}

}  // namespace sg

// Reverse-mode overloads (fused tape nodes), after the generic templates they specialise.
#include "engine/core/reverse_mat3.hpp"
