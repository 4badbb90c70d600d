#pragma once
// Dot and cross products of reverse-mode vectors as fused tape nodes: one node per result component with its
// six parents, instead of a node per multiplication and addition (a 3-vector dot product was five nodes).
// Values are computed by the generic formulas' expressions, so they match a double run bit for bit.
#include "engine/core/reverse.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// a0 b0 + a1 b1 + a2 b2, summed left to right as the generic code does.
inline Rev rev_dot3(const Rev& a0, const Rev& b0, const Rev& a1, const Rev& b1, const Rev& a2,
                    const Rev& b2) {
  const RevLink parents[6] = {{a0.i, b0.v}, {b0.i, a0.v}, {a1.i, b1.v},
                              {b1.i, a1.v}, {a2.i, b2.v}, {b2.i, a2.v}};
  return rev_combine(a0.v * b0.v + a1.v * b1.v + a2.v * b2.v, 6, parents);
}

// a0 b0 - a1 b1.
inline Rev rev_cross_term(const Rev& a0, const Rev& b0, const Rev& a1, const Rev& b1) {
  const RevLink parents[4] = {{a0.i, b0.v}, {b0.i, a0.v}, {a1.i, -b1.v}, {b1.i, -a1.v}};
  return rev_combine(a0.v * b0.v - a1.v * b1.v, 4, parents);
}

inline Rev dot(const Vec3<Rev>& a, const Vec3<Rev>& b) {
  return rev_dot3(a.x, b.x, a.y, b.y, a.z, b.z);
}

inline Vec3<Rev> cross(const Vec3<Rev>& a, const Vec3<Rev>& b) {
  return {rev_cross_term(a.y, b.z, a.z, b.y), rev_cross_term(a.z, b.x, a.x, b.z),
          rev_cross_term(a.x, b.y, a.y, b.x)};
}

}  // namespace sg
