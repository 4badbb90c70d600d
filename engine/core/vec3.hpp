#pragma once
// A 3-vector over any scalar. Small and dependency-free on purpose: it must compile for Dual<N> and
// for CUDA device code without Eigen's NumTraits and device-function configuration (docs/design.md).
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

template <class S>
struct Vec3 {
  S x{}, y{}, z{};

  SG_HD constexpr Vec3() = default;
  SG_HD constexpr Vec3(S x_, S y_, S z_) : x(x_), y(y_), z(z_) {}
  template <class T>
  SG_HD explicit Vec3(const Vec3<T>& o) : x(S(o.x)), y(S(o.y)), z(S(o.z)) {}

  SG_INLINE S& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  SG_INLINE const S& operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }

  SG_INLINE Vec3& operator+=(const Vec3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  SG_INLINE Vec3& operator-=(const Vec3& o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
  SG_INLINE Vec3& operator*=(const S& s) {
    x *= s;
    y *= s;
    z *= s;
    return *this;
  }
};

template <class S>
SG_INLINE Vec3<S> operator+(Vec3<S> a, const Vec3<S>& b) {
  return a += b;
}
template <class S>
SG_INLINE Vec3<S> operator-(Vec3<S> a, const Vec3<S>& b) {
  return a -= b;
}
template <class S>
SG_INLINE Vec3<S> operator-(const Vec3<S>& a) {
  return {-a.x, -a.y, -a.z};
}
template <class S, class T>
SG_INLINE Vec3<S> operator*(const Vec3<S>& a, const T& s) {
  return {a.x * s, a.y * s, a.z * s};
}
template <class S, class T>
SG_INLINE Vec3<S> operator*(const T& s, const Vec3<S>& a) {
  return {a.x * s, a.y * s, a.z * s};
}
template <class S, class T>
SG_INLINE Vec3<S> operator/(const Vec3<S>& a, const T& s) {
  return {a.x / s, a.y / s, a.z / s};
}
template <class S>
SG_INLINE S dot(const Vec3<S>& a, const Vec3<S>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class S>
SG_INLINE Vec3<S> cross(const Vec3<S>& a, const Vec3<S>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class S>
SG_INLINE S norm2(const Vec3<S>& a) {
  return dot(a, a);
}
template <class S>
SG_INLINE S norm(const Vec3<S>& a) {
  return sqrt(dot(a, a));
}

}  // namespace sg

// Reverse-mode overloads (fused tape nodes), after the generic templates they specialise.
#include "engine/core/reverse_vec3.hpp"
