#pragma once
// Pairs of round shapes: sphere-sphere, sphere-capsule and capsule-capsule. All reduce to one
// sphere-sphere test between the closest points of the two core segments (a sphere is a segment of
// length 0). The clamps that keep the closest points on the segments are the case distinctions the
// smooth mode softens (smooth_clamp with the softness converted to segment units, softness/half_length).
#include "engine/collision/emit_contact.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/collision/smooth_ops.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Spheres at c1 (geom 1) and c2 (geom 2). If the centres coincide the normal is `fallback` (MuJoCo
// uses the cross product of the two z axes there), or +x when that is zero too.
template <class S>
SG_HD inline int sphere_sphere_contact(const Vec3<S>& c1, const S& r1, const Vec3<S>& c2, const S& r2,
                                       const Vec3<S>& fallback, const CollisionOptions& opt,
                                       Contact<S>* out) {
  const Vec3<S> d = c2 - c1;
  const S len2 = norm2(d);
  Vec3<S> n;
  S len;
  if (value(len2) > 1e-30) {
    len = sqrt(len2);
    n = d / len;
  } else {
    len = S(0.0);
    const S f2 = norm2(fallback);
    n = value(f2) > 1e-30 ? fallback / sqrt(f2) : Vec3<S>(S(1.0), S(0.0), S(0.0));
  }
  const S dist = len - r1 - r2;
  // emit_contact measures from the deepest point of geom 2: c1 + n (r1 + dist) = c2 - n r2.
  return emit_contact(dist, Vec3<S>(c1 + n * (r1 + dist)), n, opt, out);
}

template <class S>
SG_HD inline int collide_sphere_sphere(const Pose<S>& pose1, const S& r1, const Pose<S>& pose2, const S& r2,
                                       const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S> fallback = cross(rotate(pose1.rot, Vec3<S>(S(0.0), S(0.0), S(1.0))),
                                 rotate(pose2.rot, Vec3<S>(S(0.0), S(0.0), S(1.0))));
  return sphere_sphere_contact(pose1.pos, r1, pose2.pos, r2, fallback, opt, out);
}

// Sphere (geom 1) against capsule (geom 2): the capsule point nearest the sphere centre, clamped to the
// segment, then a sphere-sphere test.
template <class S>
SG_HD inline int collide_sphere_capsule(const Pose<S>& sphere, const S& r1, const Pose<S>& capsule,
                                        const S& r2, const S& half_length, const CollisionOptions& opt,
                                        Contact<S>* out) {
  const Vec3<S> z2 = rotate(capsule.rot, Vec3<S>(S(0.0), S(0.0), S(1.0)));
  const S x = dot(z2, sphere.pos - capsule.pos) / half_length;
  const S xc = smooth_clamp(x, -1.0, 1.0, proxy_softness(opt) / value(half_length));
  const Vec3<S> fallback = cross(rotate(sphere.rot, Vec3<S>(S(0.0), S(0.0), S(1.0))), z2);
  return sphere_sphere_contact(sphere.pos, r1, Vec3<S>(capsule.pos + z2 * (half_length * xc)), r2, fallback,
                               opt, out);
}

namespace collide_detail {

// Exact parallel-axes case, as MuJoCo: both ends of segment 1 against segment 2, then (if fewer than
// two contacts) both ends of segment 2 against segment 1.
template <class S>
SG_HD inline int parallel_capsules(const Vec3<S>& p1, const Vec3<S>& a1, const S& r1, const Vec3<S>& p2,
                                   const Vec3<S>& a2, const S& r2, const S& ma, const S& mb, const S& mc,
                                   const S& u, const S& v, const Vec3<S>& fallback,
                                   const CollisionOptions& opt, Contact<S>* out) {
  int n = 0;
  for (int e = 0; e < 2; ++e) {
    const double x1 = e == 0 ? 1.0 : -1.0;
    const S x2 = clamp(S((v - mb * x1) / mc), -1.0, 1.0);
    if (sphere_sphere_contact(Vec3<S>(p1 + a1 * x1), r1, Vec3<S>(p2 + a2 * x2), r2, fallback, opt, out + n))
      out[n++].feature = e;
  }
  for (int e = 0; e < 2 && n < 2; ++e) {
    const double x2 = e == 0 ? 1.0 : -1.0;
    const S x1 = clamp(S((u - mb * x2) / ma), -1.0, 1.0);
    if (sphere_sphere_contact(Vec3<S>(p1 + a1 * x1), r1, Vec3<S>(p2 + a2 * x2), r2, fallback, opt, out + n))
      out[n++].feature = 2 + e;
  }
  return n;
}

}  // namespace collide_detail

// Capsule against capsule: closest points of the two segments p_i + a_i x_i, x_i in [-1, 1]
// (a_i = axis_i * half_length_i). Normal equations [ma mb; mb mc] [x1; x2] = [u; v]; the constrained
// minimum is found by clamp x1, best x2 for it (clamped), best x1 for that (clamped), which is exact
// for this convex problem. Exact mode treats near-parallel axes (det < 1e-10 ma mc) as MuJoCo does (up
// to 2 contacts). Smooth mode softens the clamps and regularises the unconstrained x1 so that it goes
// continuously to 0 (the segment midpoint) as the axes become parallel; it always reports one contact.
template <class S>
SG_HD inline int collide_capsule_capsule(const Pose<S>& pose1, const S& r1, const S& half1,
                                         const Pose<S>& pose2, const S& r2, const S& half2,
                                         const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S> z1 = rotate(pose1.rot, Vec3<S>(S(0.0), S(0.0), S(1.0)));
  const Vec3<S> z2 = rotate(pose2.rot, Vec3<S>(S(0.0), S(0.0), S(1.0)));
  const Vec3<S> a1 = z1 * half1;
  const Vec3<S> a2 = z2 * half2;
  const Vec3<S> dif = pose1.pos - pose2.pos;
  const S ma = dot(a1, a1);
  const S mb = -dot(a1, a2);
  const S mc = dot(a2, a2);
  const S u = -dot(a1, dif);
  const S v = dot(a2, dif);
  const S det = ma * mc - mb * mb;
  const Vec3<S> fallback = cross(z1, z2);
  const bool smooth = smooth_proxies(opt);

  if (!smooth && value(det) < 1e-10 * value(ma * mc))
    return collide_detail::parallel_capsules(pose1.pos, a1, r1, pose2.pos, a2, r2, ma, mb, mc, u, v, fallback,
                                             opt, out);

  const double s1 = proxy_softness(opt) / value(half1);
  const double s2 = proxy_softness(opt) / value(half2);
  const S num = mc * u - mb * v;
  S x1;
  if (smooth) {
    // Tikhonov-style: equals num/det when det >> eps ma mc, tends to 0 when the axes are parallel.
    const double eps = sq(proxy_softness(opt) / value(half1 + half2));
    x1 = num * det / (det * det + sq(S(eps * ma * mc)));
  } else {
    x1 = num / det;
  }
  x1 = smooth_clamp(x1, -1.0, 1.0, s1);
  const S x2 = smooth_clamp(S((v - mb * x1) / mc), -1.0, 1.0, s2);
  x1 = smooth_clamp(S((u - mb * x2) / ma), -1.0, 1.0, s1);
  return sphere_sphere_contact(Vec3<S>(pose1.pos + a1 * x1), r1, Vec3<S>(pose2.pos + a2 * x2), r2, fallback,
                               opt, out);
}

}  // namespace sg
