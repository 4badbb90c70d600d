#pragma once
// MuJoCo 2.2.2's tendon wrapping (mju_wrap and its helpers in engine_util_misc.c): a straight segment
// between two sites that passes through a sphere or cylinder is replaced by the two tangent lines and the
// arc between their tangent points. The geometry is solved in a 2D frame: for a sphere the plane through
// its centre and both sites, for a cylinder its cross-section (the height interpolated along the path
// afterwards). A side site picks the side to wrap around; inside the circle it selects MuJoCo's inside
// wrap, solved by Newton's method. Branches decide on values; every output carries the scalar's
// derivatives through the branch taken.
#include "engine/core/mat3.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr double kWrapMinVal = 1e-15;  // mjMINVAL
inline constexpr double kWrapPi = 3.14159265358979323846;

namespace wrap_detail {

// mju_normalize on 2 numbers: a (near) zero vector becomes (1, 0).
template <class S>
SG_INLINE S normalize2(S* v) {
  const S n = sqrt(v[0] * v[0] + v[1] * v[1]);
  if (value(n) < kWrapMinVal) {
    v[0] = S(1.0), v[1] = S(0.0);
    return n;
  }
  v[0] = v[0] / n, v[1] = v[1] / n;
  return n;
}

template <class S>
SG_INLINE S norm2(const S* v) {
  return sqrt(v[0] * v[0] + v[1] * v[1]);
}

// mju_acos and mju_asin clamp their argument to [-1, 1].
template <class S>
SG_INLINE S clamped_acos(const S& x) {
  if (value(x) >= 1.0) return S(0.0);
  if (value(x) <= -1.0) return S(kWrapPi);
  return acos(x);
}
template <class S>
SG_INLINE S clamped_asin(const S& x) {
  if (value(x) >= 1.0) return S(kWrapPi / 2);
  if (value(x) <= -1.0) return S(-kWrapPi / 2);
  return asin(x);
}

// is_intersect: whether the 2D segments p1-p2 and p3-p4 cross (values only: a branch).
template <class S>
SG_INLINE bool segments_cross(const S* p1, const S* p2, const S* p3, const S* p4) {
  const double det = (value(p4[1]) - value(p3[1])) * (value(p2[0]) - value(p1[0])) -
                     (value(p4[0]) - value(p3[0])) * (value(p2[1]) - value(p1[1]));
  if (std::fabs(det) < kWrapMinVal) return false;
  const double a = ((value(p4[0]) - value(p3[0])) * (value(p1[1]) - value(p3[1])) -
                    (value(p4[1]) - value(p3[1])) * (value(p1[0]) - value(p3[0]))) /
                   det;
  const double b = ((value(p2[0]) - value(p1[0])) * (value(p1[1]) - value(p3[1])) -
                    (value(p2[1]) - value(p1[1])) * (value(p1[0]) - value(p3[0]))) /
                   det;
  return a >= 0 && a <= 1 && b >= 0 && b <= 1;
}

// length_circle: the arc from p0 to p1 (both on the circle) on the side `ind` selects.
template <class S>
S arc_length(const S* p0, const S* p1, int ind, const S& rad) {
  S p0n[2] = {p0[0], p0[1]}, p1n[2] = {p1[0], p1[1]};
  normalize2(p0n);
  normalize2(p1n);
  S angle = clamped_acos(p0n[0] * p1n[0] + p0n[1] * p1n[1]);
  const double cross = value(p0[1]) * value(p1[0]) - value(p0[0]) * value(p1[1]);
  if ((cross > 0 && ind) || (cross < 0 && !ind)) angle = 2 * kWrapPi - angle;
  return rad * angle;
}

// wrap_circle: the tangent points pnt[4] of the wrap of d[4] (two 2D points) around the circle of radius
// rad at the origin, on the side of sd (may be null); the arc's length, or -1: no wrap.
template <class S>
S wrap_circle(S* pnt, const S* d, const S* sd, const S& rad) {
  const S sqlen0 = d[0] * d[0] + d[1] * d[1];
  const S sqlen1 = d[2] * d[2] + d[3] * d[3];
  const S sqrad = rad * rad;
  const S dif[2] = {d[2] - d[0], d[3] - d[1]};
  if (value(sqlen0) < value(sqrad) || value(sqlen1) < value(sqrad) || value(rad) < kWrapMinVal)
    return S(-1.0);
  const S dd = dif[0] * dif[0] + dif[1] * dif[1];
  if (value(dd) < kWrapMinVal) return S(-1.0);
  // The segment's point nearest the centre: no wrap when it is outside the circle (or on the side
  // opposite the side site).
  double a = -(value(dif[0]) * value(d[0]) + value(dif[1]) * value(d[1])) / value(dd);
  a = a < 0 ? 0 : (a > 1 ? 1 : a);
  const double near[2] = {a * value(dif[0]) + value(d[0]), a * value(dif[1]) + value(d[1])};
  if (near[0] * near[0] + near[1] * near[1] > value(sqrad) &&
      (!sd || value(sd[0]) * near[0] + value(sd[1]) * near[1] >= 0))
    return S(-1.0);
  // The two tangent solutions and their goodness: closer to the side site, or shorter.
  S sol[2][2][2];
  double good[2];
  const S sqrt0 = sqrt(sqlen0 - sqrad), sqrt1 = sqrt(sqlen1 - sqrad);
  for (int i = 0; i < 2; ++i) {
    const double sgn = i == 0 ? 1.0 : -1.0;
    sol[i][0][0] = (d[0] * sqrad + sgn * rad * d[1] * sqrt0) / sqlen0;
    sol[i][0][1] = (d[1] * sqrad - sgn * rad * d[0] * sqrt0) / sqlen0;
    sol[i][1][0] = (d[2] * sqrad - sgn * rad * d[3] * sqrt1) / sqlen1;
    sol[i][1][1] = (d[3] * sqrad + sgn * rad * d[2] * sqrt1) / sqlen1;
    if (sd) {
      double t[2] = {value(sol[i][0][0]) + value(sol[i][1][0]), value(sol[i][0][1]) + value(sol[i][1][1])};
      const double n = std::sqrt(t[0] * t[0] + t[1] * t[1]);
      if (n < kWrapMinVal) {
        t[0] = 1.0, t[1] = 0.0;
      } else {
        t[0] /= n, t[1] /= n;
      }
      good[i] = t[0] * value(sd[0]) + t[1] * value(sd[1]);
    } else {
      const double t[2] = {value(sol[i][0][0]) - value(sol[i][1][0]),
                           value(sol[i][0][1]) - value(sol[i][1][1])};
      good[i] = -(t[0] * t[0] + t[1] * t[1]);
    }
    if (segments_cross(d, sol[i][0], d + 2, sol[i][1])) good[i] = -10000;
  }
  const int i = good[0] > good[1] ? 0 : 1;
  pnt[0] = sol[i][0][0], pnt[1] = sol[i][0][1], pnt[2] = sol[i][1][0], pnt[3] = sol[i][1][1];
  if (segments_cross(d, pnt, d + 2, pnt + 2)) return S(-1.0);
  return arc_length(sol[i][0], sol[i][1], i, rad);
}

// asin(A z) + asin(B z) - 2 asin(z) + G, the inside wrap's equation in z.
template <class S>
SG_INLINE S inside_equation(const S& z, const S& A, const S& B, const S& G) {
  return clamped_asin(A * z) + clamped_asin(B * z) - 2.0 * clamped_asin(z) + G;
}

// wrap_inside: the single tangent point (pnt[0..1] = pnt[2..3]) of a path from d[0..1] to d[2..3] bent
// around the circle from inside its side; 0 for a wrap (of length 0), -1 for none.
template <class S>
S wrap_inside(S* pnt, const S* d, const S& rad) {
  constexpr int kMaxIter = 20;
  constexpr double kZInit = 1 - 1e-7, kTolerance = 1e-6;
  const S len0 = norm2(d), len1 = norm2(d + 2);
  const S dif[2] = {d[2] - d[0], d[3] - d[1]};
  const S dd = dif[0] * dif[0] + dif[1] * dif[1];
  if (value(len0) <= value(rad) || value(len1) <= value(rad) || value(rad) < kWrapMinVal ||
      value(len0) < kWrapMinVal || value(len1) < kWrapMinVal)
    return S(-1.0);
  if (value(dd) > kWrapMinVal) {  // the segment crosses the circle: no wrap
    const double a = -(value(dif[0]) * value(d[0]) + value(dif[1]) * value(d[1])) / value(dd);
    if (a > 0 && a < 1) {
      const double t[2] = {value(d[0]) + a * value(dif[0]), value(d[1]) + a * value(dif[1])};
      if (std::sqrt(t[0] * t[0] + t[1] * t[1]) <= value(rad)) return S(-1.0);
    }
  }
  // The fallback for a numerical failure: the points' average direction at the radius.
  pnt[0] = 0.5 * (d[0] + d[2]);
  pnt[1] = 0.5 * (d[1] + d[3]);
  normalize2(pnt);
  pnt[0] = pnt[0] * rad, pnt[1] = pnt[1] * rad;
  pnt[2] = pnt[0], pnt[3] = pnt[1];
  const S A = rad / len0, B = rad / len1;
  const S cosG = (len0 * len0 + len1 * len1 - dd) / (2.0 * len0 * len1);
  if (value(cosG) < -1 + kWrapMinVal) return S(-1.0);
  if (value(cosG) > 1 - kWrapMinVal) return S(0.0);
  const S G = clamped_acos(cosG);
  S z = S(kZInit);
  S f = inside_equation(z, A, B, G);
  if (value(f) > 0) return S(0.0);
  int iter = 0;
  for (; iter < kMaxIter && std::fabs(value(f)) > kTolerance; ++iter) {
    const S df = A / max(S(kWrapMinVal), sqrt(1.0 - z * z * A * A)) +
                 B / max(S(kWrapMinVal), sqrt(1.0 - z * z * B * B)) -
                 2.0 / max(S(kWrapMinVal), sqrt(1.0 - z * z));
    if (value(df) > -kWrapMinVal) return S(0.0);
    const S z1 = z - f / df;
    if (value(z1) > value(z)) return S(0.0);
    z = z1;
    f = inside_equation(z, A, B, G);
    if (value(f) > kTolerance) return S(0.0);
  }
  if (iter >= kMaxIter) return S(0.0);
  // The tangent point: from the first or second point's direction, turned by the solution's angle.
  S vec[2];
  S ang;
  if (value(d[0]) * value(d[3]) - value(d[1]) * value(d[2]) > 0) {
    vec[0] = d[0], vec[1] = d[1];
    ang = clamped_asin(z) - clamped_asin(A * z);
  } else {
    vec[0] = d[2], vec[1] = d[3];
    ang = clamped_asin(z) - clamped_asin(B * z);
  }
  normalize2(vec);
  pnt[0] = rad * (cos(ang) * vec[0] - sin(ang) * vec[1]);
  pnt[1] = rad * (sin(ang) * vec[0] + cos(ang) * vec[1]);
  pnt[2] = pnt[0], pnt[3] = pnt[1];
  return S(0.0);
}

// mju_normalize3: a (near) zero vector becomes (1, 0, 0).
template <class S>
SG_INLINE Vec3<S> normalized3(const Vec3<S>& v) {
  const S n = sqrt(dot(v, v));
  if (value(n) < kWrapMinVal) return Vec3<S>{S(1.0), S(0.0), S(0.0)};
  return v * (1.0 / n);
}

// The wrap's 2D frame (axis0, axis1) in the geom's frame: for a sphere p0's direction and the normal of the
// plane through the centre and both points; for a cylinder its x and y.
template <class S>
void wrap_plane(bool cylinder, const Vec3<S>& p0, const Vec3<S>& p1, Vec3<S>* axis) {
  if (cylinder) {
    axis[0] = Vec3<S>{S(1.0), S(0.0), S(0.0)};
    axis[1] = Vec3<S>{S(0.0), S(1.0), S(0.0)};
    return;
  }
  axis[0] = normalized3(p0);
  Vec3<S> normal = cross(p0, p1);
  const S nrm = sqrt(dot(normal, normal));
  if (value(nrm) < kWrapMinVal) {  // p0 and p1 parallel: any normal (MuJoCo's choice)
    int i = 0;
    const double a0 = std::fabs(value(axis[0].x)), a1 = std::fabs(value(axis[0].y)),
                 a2 = std::fabs(value(axis[0].z));
    if (a1 > a0 && a1 > a2) i = 1;
    if (a2 > a0 && a2 > a1) i = 2;
    Vec3<S> other{S(1.0), S(1.0), S(1.0)};
    other[i] = S(0.0);
    normal = normalized3(cross(axis[0], other));
  } else {
    normal = normal * (1.0 / nrm);
  }
  axis[1] = normalized3(cross(normal, axis[0]));
}

}  // namespace wrap_detail

// mju_wrap: the two tangent points (wpnt[0], wpnt[1], world frame) of the tendon segment x0-x1 wrapped
// around the sphere or cylinder of radius `radius` at (xpos, xmat), on the side of `side` (may be null);
// the length of the path on the surface, or -1 when the segment does not wrap.
template <class S>
S tendon_wrap(Vec3<S>* wpnt, const Vec3<S>& x0, const Vec3<S>& x1, const Vec3<S>& xpos, const Mat3<S>& xmat,
              const S& radius, bool cylinder, const Vec3<S>* side) {
  using namespace wrap_detail;
  const Vec3<S> p[2] = {mul_transpose(xmat, x0 - xpos), mul_transpose(xmat, x1 - xpos)};
  if (value(sqrt(dot(p[0], p[0]))) < kWrapMinVal || value(sqrt(dot(p[1], p[1]))) < kWrapMinVal)
    return S(-1.0);
  Vec3<S> axis[2];
  wrap_plane(cylinder, p[0], p[1], axis);
  const S d[4] = {dot(p[0], axis[0]), dot(p[0], axis[1]), dot(p[1], axis[0]), dot(p[1], axis[1])};
  S sd[2] = {S(0.0), S(0.0)};
  if (side) {
    const Vec3<S> s = mul_transpose(xmat, *side - xpos);
    sd[0] = dot(s, axis[0]), sd[1] = dot(s, axis[1]);
    if (value(norm2(sd)) >= value(radius)) {  // outside: onto the circle; inside: (0, 0)
      normalize2(sd);
      sd[0] = sd[0] * radius, sd[1] = sd[1] * radius;
    } else {
      sd[0] = sd[1] = S(0.0);
    }
  }
  S pnt[4];
  S wlen = side && value(sd[0]) == 0 && value(sd[1]) == 0 ? wrap_inside(pnt, d, radius)
                                                          : wrap_circle(pnt, d, side ? sd : nullptr, radius);
  if (value(wlen) < 0) return S(-1.0);
  Vec3<S> res[2];
  for (int i = 0; i < 2; ++i) res[i] = axis[0] * pnt[2 * i] + axis[1] * pnt[2 * i + 1];
  if (cylinder) {  // the heights along the path, and the helix's length
    const S L0 = sqrt((p[0].x - res[0].x) * (p[0].x - res[0].x) + (p[0].y - res[0].y) * (p[0].y - res[0].y));
    const S L1 = sqrt((p[1].x - res[1].x) * (p[1].x - res[1].x) + (p[1].y - res[1].y) * (p[1].y - res[1].y));
    res[0].z = p[0].z + (p[1].z - p[0].z) * L0 / (L0 + wlen + L1);
    res[1].z = p[0].z + (p[1].z - p[0].z) * (L0 + wlen) / (L0 + wlen + L1);
    const S height = res[1].z - res[0].z;
    const S squared = wlen * wlen + height * height;  // 0 for an inside wrap at one height: no sqrt'(0)
    wlen = value(squared) > 0 ? sqrt(squared) : S(0.0);
  }
  wpnt[0] = xmat * res[0] + xpos;
  wpnt[1] = xmat * res[1] + xpos;
  return wlen;
}

}  // namespace sg
