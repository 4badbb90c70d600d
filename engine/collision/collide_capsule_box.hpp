#pragma once
// Capsule (geom 1) against box (geom 2), as MuJoCo 2.2.2 collides them (engine_collision_box.c): the
// capsule's segment point closest to the box is found among the segment's two ends (against the box's
// faces) and the closest points between the segment and the box's 12 edges; a second point along the
// segment is then chosen where the capsule lies along a face or an edge (up to about 45 degrees), so that
// a capsule resting on a box gets two contacts; each point is then a sphere of the capsule's radius against
// the box (collide_sphere_box). The branches are taken on values; the points' segment parameters are
// computed in S, so that the derivatives are those of MuJoCo's map (a second point held at the box's edge
// slides along the segment as the capsule turns).
#include "engine/collision/collide_box.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

namespace capsule_box_detail {

template <class T>
SG_HD inline T absolute(const T& x) {
  return value(x) < 0.0 ? T(-x) : x;
}

template <class T>
SG_HD inline T smaller(const T& a, const T& b) {
  return value(b) < value(a) ? b : a;
}

// The segment in the box's frame: centre p, half axis h (length L), the box's half sizes s.
template <class T>
struct SegmentInBox {
  T p[3], u[3], h[3], s[3];  // u: the unit axis
  T L;
  int axisdir;  // bit k set when h_k > 0: a corner index the segment points towards
};

// The closest point found so far: the segment parameter t in [-1, 1], and what it is closest to: a face
// through a segment end (kind -3 for t = -1, -1 for t = +1; face: the clamped axis, -1 inside the box) or
// an edge (kind = 3 s_edge + s_segment, each 0 at the low end, 1 inside, 2 at the high end; corner: the
// edge's end at the low side or, for s_edge = 2, the high one; edge: its axis; edge_t: the point on it).
template <class T>
struct Closest {
  double dist2;
  T t = T(0.0);
  int kind = -4;  // none yet
  int face = -1, corner = 0, edge = 0;
  T edge_t = T(0.0);
};

template <class T>
SG_HD inline T dot3(const T* a, const T* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// A segment end against the box: the end clamped into the box, kept when it is outside along one axis at
// most (a face's point, not an edge's or corner's: those the edge pass finds).
template <class T>
SG_HD inline void try_ends(const SegmentInBox<T>& g, Closest<T>& c) {
  for (int side = -1; side <= 1; side += 2) {
    T end[3], clamped[3];
    int outside = 0, axis = -1;
    for (int k = 0; k < 3; ++k) {
      end[k] = g.p[k] + g.h[k] * double(side);
      clamped[k] = value(end[k]) < -value(g.s[k])  ? T(-g.s[k])
                   : value(end[k]) > value(g.s[k]) ? g.s[k]
                                                   : end[k];
      if (value(clamped[k]) != value(end[k])) ++outside, axis = k;
    }
    if (outside > 1) continue;
    T d[3] = {clamped[0] - end[0], clamped[1] - end[1], clamped[2] - end[2]};
    const double d2 = value(dot3(d, d));
    if (d2 < c.dist2) c.dist2 = d2, c.t = T(double(side)), c.kind = side - 2, c.face = axis;
  }
}

// Clamps x to [-1, 1]; its state 0, 1 or 2 (low end, inside, high end).
template <class T>
SG_HD inline int clamp_unit(T& x) {
  if (value(x) > 1.0) return x = T(1.0), 2;
  if (value(x) < -1.0) return x = T(-1.0), 0;
  return 1;
}

// The box's edge along axis j through the corner pattern i (bit j clear), against the segment: the closest
// pair of points, the edge's parameter clamped first, then the segment's (and the edge's again).
template <class T>
SG_HD inline void try_edge(const SegmentInBox<T>& g, int j, int i, Closest<T>& c) {
  T mid[3];
  for (int k = 0; k < 3; ++k) mid[k] = g.s[k] * ((i >> k) & 1 ? 1.0 : -1.0);
  mid[j] = T(0.0);
  T dif[3] = {mid[0] - g.p[0], mid[1] - g.p[1], mid[2] - g.p[2]};
  // Points mid + x1 s_j e_j and p + x2 h: minimise |dif + x1 s_j e_j - x2 h|^2.
  const T a = g.s[j] * g.s[j], b = -(g.s[j] * g.h[j]), cc = g.L * g.L;
  const T u = -(g.s[j] * dif[j]), v = dot3(g.h, dif);
  const T det = a * cc - b * b;
  if (value(absolute(det)) < 1e-15) return;  // parallel: the ends or another edge give the distance
  T x1 = (cc * u - b * v) / det, x2 = (a * v - b * u) / det;
  int s1 = 1, s2 = 1;
  if ((s1 = clamp_unit(x1)) != 1) x2 = (v + (s1 == 2 ? -b : b)) / cc;
  if ((s2 = clamp_unit(x2)) != 1) {
    x1 = (u + (s2 == 2 ? -b : b)) / a;
    const int again = clamp_unit(x1);
    if (again != 1) s1 = again;  // an x1 back inside keeps its earlier state (MuJoCo's bookkeeping)
  }
  T d[3] = {dif[0] - x2 * g.h[0], dif[1] - x2 * g.h[1], dif[2] - x2 * g.h[2]};
  d[j] += g.s[j] * x1;
  const double d2 = value(dot3(d, d));
  if (!(d2 < c.dist2 - 1e-15)) return;  // the 1e-15: a segment parallel to a face, as MuJoCo
  const int kind = 3 * s1 + s2;
  c.dist2 = d2, c.t = x2, c.edge_t = x1, c.kind = kind;
  c.corner = i + (1 << j) * (kind / 6);
  c.edge = j;
}

// The second point when a box corner is closest: none if the segment points at or away from the corner;
// else as far along the segment as it stays over the corner's edge (the segment mostly along that edge) or
// over the face it lies on. Returns the offset from the first point's t, or -4 for none.
template <class T>
SG_HD inline T second_at_corner(const SegmentInBox<T>& g, const Closest<T>& c) {
  int rel = g.axisdir ^ c.corner;
  if (rel == 0 || rel == 7) return T(-4.0);
  double mul;
  T toward, away;
  if (rel == 1 || rel == 2 || rel == 4) {
    mul = 1.0, toward = 1.0 - c.t, away = 1.0 + c.t;
  } else {
    mul = -1.0, rel = 7 - rel, toward = 1.0 + c.t, away = 1.0 - c.t;
  }
  const int ax = rel == 1 ? 0 : rel == 2 ? 1 : 2, ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;
  if (value(g.u[ax]) * value(g.u[ax]) > 0.5)  // along the edge: as far as the edge's other corner
    return smaller(toward, T(2.0 * g.s[ax] / absolute(g.h[ax]))) * mul;
  const T second = smaller(away, T(2.0 * g.s[ax1] / absolute(g.h[ax1])));
  return smaller(second, T(2.0 * g.s[ax2] / absolute(g.h[ax2]))) * (-mul);
}

// The second point when the middle of an edge is closest: only if the segment crosses the edge (an X, not
// a T); then along the segment over the face it is flattest against, within the box.
template <class T>
SG_HD inline T second_at_edge(const SegmentInBox<T>& g, const Closest<T>& c) {
  const int ax = c.edge;
  const int rel = (g.axisdir ^ c.corner) & (7 - (1 << ax));
  if (rel != 1 && rel != 2 && rel != 4) return T(-4.0);
  int ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;
  if (value(absolute(g.u[ax1])) > value(absolute(g.u[ax2]))) ax1 = ax2;
  ax2 = 3 - ax - ax1;
  const bool up = (rel & (1 << ax2)) != 0;
  const double mul = up ? 1.0 : -1.0;
  T second = smaller(T(up ? 1.0 - c.t : 1.0 + c.t), T(2.0 * g.s[ax2] / absolute(g.h[ax2])));
  const bool same = ((g.axisdir & (1 << ax)) != 0) == up;
  second = smaller(second, T(g.s[ax] * (same ? 1.0 - c.edge_t : 1.0 + c.edge_t) / absolute(g.h[ax])));
  return second * mul;
}

// The second point when a segment end is closest to a face: towards the other end, as far as it stays over
// the box (none if the end is inside the box).
template <class T>
SG_HD inline T second_at_face(const SegmentInBox<T>& g, const Closest<T>& c) {
  if (c.face == -1) return T(-4.0);
  const double mul = c.kind == -3 ? 1.0 : -1.0;
  T second = T(2.0);
  for (int k = 0; k < 3; ++k) {
    if (k == c.face || value(g.h[k]) == 0.0) continue;  // a zero h_k: MuJoCo's infinity, never smaller
    const T from = g.p[k] - g.h[k] * mul;
    for (int side = -1; side <= 1; side += 2) {
      const T e = (g.s[k] * double(side) - from) / g.h[k] * mul;
      if (value(e) > 0.0 && value(e) < value(second)) second = e;
    }
  }
  return second * mul;
}

}  // namespace capsule_box_detail

template <class S>
SG_HD inline int collide_capsule_box(const Pose<S>& capsule, const S& radius, const S& half_length,
                                     const Pose<S>& box, const Vec3<S>& half, const CollisionOptions& opt,
                                     Contact<S>* out) {
  using namespace capsule_box_detail;
  const Mat3<S> rc = rotation_matrix(capsule), rb = rotation_matrix(box);
  const Vec3<S> axis = rc.col(2);
  SegmentInBox<S> g;
  g.L = half_length;
  {
    const Vec3<S> p = mul_transpose(rb, Vec3<S>(capsule.pos - box.pos)), u = mul_transpose(rb, axis);
    g.axisdir = 0;
    for (int k = 0; k < 3; ++k) {
      g.p[k] = p[k];
      g.u[k] = u[k];
      g.h[k] = u[k] * half_length;
      g.s[k] = half[k];
      if (value(g.h[k]) > 0.0) g.axisdir += 1 << k;
    }
  }
  Closest<S> c;
  c.dist2 =
      opt.margin + 2.0 * (value(radius) + value(half_length) + value(half.x) + value(half.y) + value(half.z));
  try_ends(g, c);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 8; ++i)
      if (!((i >> j) & 1)) try_edge(g, j, i, c);
  if (c.kind == -4) return 0;
  const S second = c.kind < 0        ? second_at_face(g, c)
                   : c.kind / 3 == 1 ? second_at_edge(g, c)
                                     : second_at_corner(g, c);
  const auto sphere_at = [&](const S& t, Contact<S>* slot, int feature) {
    const Pose<S> centre{Vec3<S>(capsule.pos + axis * (half_length * t)), capsule.rot, nullptr};
    const int n = collide_sphere_box(centre, radius, box, half, opt, slot);
    if (n) slot->feature = feature;
    return n;
  };
  int n = sphere_at(c.t, out, 0);
  if (value(second) > -3.0) n += sphere_at(S(c.t + second), out + n, 1);
  return n;
}

}  // namespace sg
