#pragma once
// Minkowski Portal Refinement (XenoCollide) as libccd 2.1 runs it in ccdMPRPenetration, the convex
// collider MuJoCo 2.2.2's mjc_Convex calls: the same phases (portal discovery, refinement, penetration),
// the same tests with libccd's tolerance (DBL_EPSILON), the same vertex bookkeeping, so a pair touches where
// MuJoCo finds it touching and its depth, direction and position agree to rounding. Written here rather than
// linked: it must run on every scalar (doubles, duals, the tape, CUDA), and libccd works on doubles.
// Branches decide on values; derivatives flow through the final portal's support points.
#include "engine/collision/convex_support.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Depth along dir (unit, from geom 1 towards geom 2 in MuJoCo's sense) and the contact position.
// path: a hash of every branch MPR took (phase, vertex replacements, iterations). Two poses with the same
// path lie on one smooth piece of MPR's result: its derivative there is the piece's (tests compare AD with FD
// on it).
template <class S>
struct MprResult {
  S depth{};
  Vec3<S> dir{};
  Vec3<S> pos{};
  unsigned long long path = 0;
};

// MuJoCo's mjccd_support and mjccd_center for a primitive or mesh: the geom's support, its frame's origin.
template <class S>
SG_HD inline Vec3<S> mpr_shape_support(const ConvexGeom<S>& g, const Vec3<S>& dir) {
  return convex_support(g, dir);
}
template <class S>
SG_HD inline Vec3<S> mpr_shape_center(const ConvexGeom<S>& g) {
  return g.pos;
}

namespace mpr_detail {

inline constexpr double kEps = 2.220446049250313080847e-16;  // CCD_EPS: DBL_EPSILON
// libccd's own loops of portal discovery and refinement have no limit; these stop a degenerate pair that
// never settles (it reports no contact) instead of hanging the step.
inline constexpr int kMaxPortalSteps = 1000;

// One branch taken, folded into a path hash (FNV-1a).
SG_HD inline void record(unsigned long long* path, int branch) {
  *path = (*path ^ static_cast<unsigned long long>(branch + 1)) * 1099511628211ull;
}

SG_HD inline bool is_zero(double v) {
  return (v < 0.0 ? -v : v) < kEps;
}

// ccdEq: equal within kEps absolutely or relatively.
SG_HD inline bool eq(double a, double b) {
  const double ab = a - b < 0.0 ? b - a : a - b;
  if (ab < kEps) return true;
  const double fa = a < 0.0 ? -a : a, fb = b < 0.0 ? -b : b;
  return fb > fa ? ab < kEps * fb : ab < kEps * fa;
}

template <class S>
SG_HD inline bool is_origin(const Vec3<S>& v) {
  return eq(value(v.x), 0.0) && eq(value(v.y), 0.0) && eq(value(v.z), 0.0);
}

// ccdVec3Normalize: no guard, its callers never pass a zero vector.
template <class S>
SG_HD inline Vec3<S> normalized(const Vec3<S>& v) {
  const S k = S(1.0) / sqrt(norm2(v));
  return v * k;
}

// A vertex of the Minkowski difference: v = v1 - v2, with the geoms' own support points kept for findPos.
template <class S>
struct Vertex {
  Vec3<S> v, v1, v2;
};

// The pair as MPR sees it: geom 1 any convex shape with mpr_shape_support and mpr_shape_center overloads (a
// primitive or mesh here, a height field's prism in collide_hfield.hpp), geom 2 a primitive or mesh.
template <class S, class A>
struct Geoms {
  const A& g1;
  const ConvexGeom<S>& g2;

  SG_HD Vertex<S> support(const Vec3<S>& dir) const {
    Vertex<S> p;
    p.v1 = mpr_shape_support(g1, dir);
    p.v2 = convex_support(g2, Vec3<S>(-dir));
    p.v = p.v1 - p.v2;
    return p;
  }
  SG_HD Vec3<S> center1() const { return mpr_shape_center<S>(g1); }
};

template <class S>
SG_HD inline bool outside(const Vertex<S>& p, const Vec3<S>& dir) {
  const double d = value(dot(p.v, dir));
  return is_zero(d) || d < 0.0;
}

// discoverPortal: 0 a portal through which the origin ray passes, 1 the origin on v1 (touching), 2 the
// origin on the segment v0-v1, -1 no contact.
template <class S, class G>
SG_HD inline int discover_portal(const G& geoms, Vertex<S>* p, unsigned long long* path) {
  p[0].v1 = geoms.center1();
  p[0].v2 = geoms.g2.pos;
  p[0].v = p[0].v1 - p[0].v2;
  if (is_origin(p[0].v)) p[0].v.x += kEps * 10.0;  // centres coincide: move the portal's centre a little

  Vec3<S> dir = normalized(Vec3<S>(-p[0].v));
  p[1] = geoms.support(dir);
  if (outside(p[1], dir)) return -1;

  dir = cross(p[0].v, p[1].v);
  if (is_zero(value(norm2(dir)))) return is_origin(p[1].v) ? 1 : 2;
  dir = normalized(dir);
  p[2] = geoms.support(dir);
  if (outside(p[2], dir)) return -1;

  dir = normalized(cross(Vec3<S>(p[1].v - p[0].v), Vec3<S>(p[2].v - p[0].v)));
  if (value(dot(dir, p[0].v)) > 0.0) {  // face the portal away from the origin
    const Vertex<S> t = p[1];
    p[1] = p[2];
    p[2] = t;
    dir = -dir;
  }
  for (int step = 0; step < kMaxPortalSteps; ++step) {
    p[3] = geoms.support(dir);
    if (outside(p[3], dir)) return -1;
    bool replaced = false;
    double d = value(dot(cross(p[1].v, p[3].v), p[0].v));
    if (d < 0.0 && !is_zero(d)) {  // the origin is outside (v1, v0, v3): v3 replaces v2
      p[2] = p[3];
      replaced = true;
      record(path, 2);
    } else {
      d = value(dot(cross(p[3].v, p[2].v), p[0].v));
      if (d < 0.0 && !is_zero(d)) {  // outside (v3, v0, v2): v3 replaces v1
        p[1] = p[3];
        replaced = true;
        record(path, 1);
      }
    }
    if (!replaced) return 0;
    dir = normalized(cross(Vec3<S>(p[1].v - p[0].v), Vec3<S>(p[2].v - p[0].v)));
  }
  return -1;
}

// portalDir: the normal of the portal face (v1, v2, v3), away from v0.
template <class S>
SG_HD inline Vec3<S> portal_dir(const Vertex<S>* p) {
  return normalized(cross(Vec3<S>(p[2].v - p[1].v), Vec3<S>(p[3].v - p[1].v)));
}

// portalReachTolerance: v4 lies within the tolerance of the portal's plane.
template <class S>
SG_HD inline bool reached_tolerance(const Vertex<S>* p, const Vertex<S>& v4, const Vec3<S>& dir,
                                    double tolerance) {
  const double dv1 = value(dot(p[1].v, dir)), dv2 = value(dot(p[2].v, dir)), dv3 = value(dot(p[3].v, dir));
  const double dv4 = value(dot(v4.v, dir));
  double d = dv4 - dv1;
  const double d2 = dv4 - dv2, d3 = dv4 - dv3;
  d = d < d2 ? d : d2;
  d = d < d3 ? d : d3;
  return eq(d, tolerance) || d < tolerance;
}

// expandPortal: v4 replaces the vertex whose face it sees the origin through.
template <class S>
SG_HD inline void expand_portal(Vertex<S>* p, const Vertex<S>& v4, unsigned long long* path) {
  const Vec3<S> v4v0 = cross(v4.v, p[0].v);
  int replaced;
  if (value(dot(p[1].v, v4v0)) > 0.0)
    replaced = value(dot(p[2].v, v4v0)) > 0.0 ? 1 : 3;
  else
    replaced = value(dot(p[3].v, v4v0)) > 0.0 ? 2 : 1;
  p[replaced] = v4;
  record(path, 10 + replaced);
}

// refinePortal: 0 the origin is inside the portal's tetrahedron, -1 no contact.
template <class S, class G>
SG_HD inline int refine_portal(const G& geoms, Vertex<S>* p, double tolerance, unsigned long long* path) {
  for (int step = 0; step < kMaxPortalSteps; ++step) {
    const Vec3<S> dir = portal_dir(p);
    const double d1 = value(dot(dir, p[1].v));
    if (is_zero(d1) || d1 > 0.0) return 0;
    const Vertex<S> v4 = geoms.support(dir);
    const double d4 = value(dot(v4.v, dir));
    if (!(is_zero(d4) || d4 > 0.0) || reached_tolerance(p, v4, dir, tolerance)) return -1;
    expand_portal(p, v4, path);
  }
  return -1;
}

// __ccdVec3PointSegmentDist2 with P at the origin: squared distance to segment (x0, b), its witness.
template <class S>
SG_HD inline S origin_segment_dist2(const Vec3<S>& x0, const Vec3<S>& b, Vec3<S>* witness) {
  const Vec3<S> d = b - x0;
  S t = -dot(x0, d);
  t = t / norm2(d);
  const double tv = value(t);
  if (tv < 0.0 || is_zero(tv)) {
    *witness = x0;
  } else if (tv > 1.0 || eq(tv, 1.0)) {
    *witness = b;
  } else {
    *witness = d * t;
    *witness += x0;
  }
  return norm2(*witness);
}

// ccdVec3PointTriDist2 with P at the origin: squared distance to triangle (x0, B, C), its witness.
template <class S>
SG_HD inline S origin_triangle_dist2(const Vec3<S>& x0, const Vec3<S>& B, const Vec3<S>& C,
                                     Vec3<S>* witness) {
  const Vec3<S> d1 = B - x0, d2 = C - x0;
  const S v = dot(d1, d1), w = dot(d2, d2), p = dot(x0, d1), q = dot(x0, d2), r = dot(d1, d2);
  const S det = w * v - r * r;
  S s(-1.0), t(-1.0);
  if (!is_zero(value(det))) {  // a triangle of (nearly) no area takes the edges below
    s = (q * r - w * p) / det;
    t = (-s * r - q) / w;
  }
  const double sv = value(s), tv = value(t), st = value(t + s);
  if ((is_zero(sv) || sv > 0.0) && (eq(sv, 1.0) || sv < 1.0) && (is_zero(tv) || tv > 0.0) &&
      (eq(tv, 1.0) || tv < 1.0) && (eq(st, 1.0) || st < 1.0)) {
    *witness = x0;
    *witness += d1 * s;
    *witness += d2 * t;
    return norm2(*witness);
  }
  S dist = origin_segment_dist2(x0, B, witness);
  Vec3<S> other;
  S dist2 = origin_segment_dist2(x0, C, &other);
  if (value(dist2) < value(dist)) dist = dist2, *witness = other;
  dist2 = origin_segment_dist2(B, C, &other);
  if (value(dist2) < value(dist)) dist = dist2, *witness = other;
  return dist;
}

// findPos: the origin's barycentric coordinates in the portal's tetrahedron (or, when they degenerate, in
// its face), applied to both geoms' support points; the contact is midway between the two.
template <class S>
SG_HD inline Vec3<S> contact_position(const Vertex<S>* p) {
  const Vec3<S> dir = portal_dir(p);
  S b[4] = {dot(cross(p[1].v, p[2].v), p[3].v), dot(cross(p[3].v, p[2].v), p[0].v),
            dot(cross(p[0].v, p[1].v), p[3].v), dot(cross(p[2].v, p[1].v), p[0].v)};
  S sum = b[0] + b[1] + b[2] + b[3];
  if (is_zero(value(sum)) || value(sum) < 0.0) {
    b[0] = S(0.0);
    b[1] = dot(cross(p[2].v, p[3].v), dir);
    b[2] = dot(cross(p[3].v, p[1].v), dir);
    b[3] = dot(cross(p[1].v, p[2].v), dir);
    sum = b[1] + b[2] + b[3];
  }
  const S inv = S(1.0) / sum;
  Vec3<S> p1 = p[0].v1 * b[0], p2 = p[0].v2 * b[0];
  for (int i = 1; i < 4; ++i) {
    p1 += p[i].v1 * b[i];
    p2 += p[i].v2 * b[i];
  }
  p1 = p1 * inv;
  p2 = p2 * inv;
  return (p1 + p2) * 0.5;
}

// findPenetr: refine towards the surface until the tolerance or the iteration limit, then the depth is the
// origin's distance to the portal's face.
template <class S, class G>
SG_HD inline void penetration(const G& geoms, Vertex<S>* p, const MprSettings& settings, MprResult<S>* out) {
  for (int iterations = 0;; ++iterations) {
    const Vec3<S> dir = portal_dir(p);
    const Vertex<S> v4 = geoms.support(dir);
    if (reached_tolerance(p, v4, dir, settings.tolerance) || iterations > settings.max_iterations) {
      Vec3<S> witness;
      const S depth2 = origin_triangle_dist2(p[1].v, p[2].v, p[3].v, &witness);
      // A depth of (nearly) 0 is a touching contact: no direction. (No sqrt of an exact 0: its derivative.)
      out->depth = value(depth2) > 0.0 ? S(sqrt(depth2)) : S(0.0);
      out->dir = is_zero(value(out->depth)) ? Vec3<S>{} : normalized(witness);
      out->pos = contact_position(p);
      return;
    }
    expand_portal(p, v4, &out->path);
  }
}

}  // namespace mpr_detail

// ccdMPRPenetration on geoms g1 and g2 (MuJoCo's order): true with *out filled where they overlap (each
// grown by half its margin), false otherwise. A touching contact comes with a zero direction (MuJoCo drops
// it).
template <class S, class A>
SG_HD inline bool mpr_penetration(const A& g1, const ConvexGeom<S>& g2, const MprSettings& settings,
                                  MprResult<S>* out) {
  using namespace mpr_detail;
  const Geoms<S, A> geoms{g1, g2};
  Vertex<S> p[4];
  out->path = 0;
  const int found = discover_portal(geoms, p, &out->path);
  record(&out->path, 100 + found);
  if (found < 0) return false;
  if (found == 1 || found == 2) {  // the origin on v1, or on the segment v0-v1
    out->pos = (p[1].v1 + p[1].v2) * 0.5;
    if (found == 1) {
      out->depth = S(0.0);
      out->dir = Vec3<S>{};
    } else {
      out->depth = sqrt(norm2(p[1].v));
      out->dir = normalized(p[1].v);
    }
    return true;
  }
  if (refine_portal(geoms, p, settings.tolerance, &out->path) < 0) return false;
  penetration(geoms, p, settings, out);
  return true;
}

}  // namespace sg
