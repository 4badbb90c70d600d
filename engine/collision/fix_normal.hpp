#pragma once
// MuJoCo 2.2.2's mjc_fixNormal (engine_collision_convex.c): MPR's normal is only as good as its tolerance,
// so for the round geoms (sphere, capsule, ellipsoid, a cylinder's side) the normal is recomputed from the
// shape at the contact position; with both geoms round it is the normalised difference of the two.
#include "engine/collision/convex_support.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

namespace fix_normal_detail {

using convex_detail::kMinVal;
using convex_detail::normalize3;
inline constexpr int kMaxIter = 30;
inline constexpr double kTolerance = 1e-6;

// mjc_ellipsoidInside, for a point inside the ellipsoid (sizes s): the normal where the ray from the point
// along the current normal leaves the surface, iterated. False if the first step fails.
template <class S>
SG_HD inline bool ellipsoid_normal_inside(Vec3<S>* nrm, const Vec3<S>& pos, const Vec3<S>& s) {
  const S inv[3] = {S(1.0) / (s.x * s.x), S(1.0) / (s.y * s.y), S(1.0) / (s.z * s.z)};
  const S C = pos.x * pos.x * inv[0] + pos.y * pos.y * inv[1] + pos.z * pos.z * inv[2] - 1.0;
  if (value(C) > 0.0) return false;
  *nrm = normalize3(*nrm);
  for (int iter = 0; iter < kMaxIter; ++iter) {
    const Vec3<S>& n = *nrm;
    const S A = n.x * n.x * inv[0] + n.y * n.y * inv[1] + n.z * n.z * inv[2];
    const S B = pos.x * n.x * inv[0] + pos.y * n.y * inv[1] + pos.z * n.z * inv[2];
    const S det = B * B - A * C;
    if (value(det) < kMinVal || value(A) < kMinVal) return iter > 0;
    const S x = (-B + sqrt(det)) / A;
    if (value(x) < 0.0) return iter > 0;
    const Vec3<S> pnt = pos + n * x;
    const Vec3<S> next = normalize3(Vec3<S>(pnt.x * inv[0], pnt.y * inv[1], pnt.z * inv[2]));
    const Vec3<S> step = n - next;
    const double change = value(sqrt(step.x * step.x + step.y * step.y + step.z * step.z));
    *nrm = next;
    if (change < kTolerance) break;
  }
  return true;
}

// mjc_ellipsoidOutside, for a point outside: the normal at the nearest surface point, by Newton on the
// Lagrange multiplier of the diagonal QCQP.
template <class S>
SG_HD inline bool ellipsoid_normal_outside(Vec3<S>* nrm, const Vec3<S>& pos, const Vec3<S>& s) {
  const S S2[3] = {s.x * s.x, s.y * s.y, s.z * s.z};
  const S PS2[3] = {pos.x * pos.x * S2[0], pos.y * pos.y * S2[1], pos.z * pos.z * S2[2]};
  S la(0.0);
  for (int iter = 0; iter < kMaxIter; ++iter) {
    const S R[3] = {S(1.0) / (S2[0] + la), S(1.0) / (S2[1] + la), S(1.0) / (S2[2] + la)};
    const S val = PS2[0] * R[0] * R[0] + PS2[1] * R[1] * R[1] + PS2[2] * R[2] * R[2] - 1.0;
    if (value(val) < kTolerance) break;
    const S deriv =
        -2.0 * (PS2[0] * R[0] * R[0] * R[0] + PS2[1] * R[1] * R[1] * R[1] + PS2[2] * R[2] * R[2] * R[2]);
    if (value(deriv) > -kMinVal) break;
    const S delta = -val / deriv;
    if (value(delta) < kTolerance) break;
    la += delta;
  }
  *nrm = normalize3(Vec3<S>(pos.x / (S2[0] + la), pos.y / (S2[1] + la), pos.z / (S2[2] + la)));
  return true;
}

SG_HD inline bool round_type(GeomType t) {
  return t == GeomType::sphere || t == GeomType::capsule || t == GeomType::ellipsoid ||
         t == GeomType::cylinder;
}

// The outward normal of round geom g at the point `pos` (local frame), starting from `nrm` (local); false
// where the shape gives none (a cylinder's flat end, a degenerate ellipsoid).
template <class S>
SG_HD inline bool local_normal(const ConvexGeom<S>& g, const Vec3<S>& pos, Vec3<S>* nrm) {
  const Vec3<S>& size = g.size;
  switch (g.type) {
    case GeomType::sphere:
      *nrm = pos;
      return true;
    case GeomType::capsule:
      if (value(pos.z) < -value(size.y))
        nrm->z = pos.z + size.y;  // bottom cap
      else if (value(pos.z) > value(size.y))
        nrm->z = pos.z - size.y;  // top cap
      else
        nrm->z = S(0.0);  // side
      nrm->x = pos.x;
      nrm->y = pos.y;
      return true;
    case GeomType::ellipsoid: {
      if (value(size.x) < kMinVal || value(size.y) < kMinVal || value(size.z) < kMinVal) return false;
      const S dst = pos.x * pos.x / (size.x * size.x) + pos.y * pos.y / (size.y * size.y) +
                    pos.z * pos.z / (size.z * size.z);
      return value(dst) <= 1.0 ? ellipsoid_normal_inside(nrm, pos, size)
                               : ellipsoid_normal_outside(nrm, pos, size);
    }
    case GeomType::cylinder: {
      const double z = value(pos.z) < 0.0 ? -value(pos.z) : value(pos.z);
      if (z > 0.95 * value(size.y)) return false;  // within 5% of a flat end
      const double flat = value(size.y) - z;
      const double rho = value(sqrt(pos.x * pos.x + pos.y * pos.y));
      const double round = value(size.x) - rho;
      // the side only where the point is 4x closer to it than to the flat end
      if ((flat < 0.0 ? -flat : flat) < 0.25 * (round < 0.0 ? -round : round)) return false;
      *nrm = Vec3<S>(pos.x, pos.y, S(0.0));
      return true;
    }
    default:
      return false;
  }
}

// Geom g's outward normal at the world point p, from the world normal n; false if it gives none.
template <class S>
SG_HD inline bool world_normal(const ConvexGeom<S>& g, const Vec3<S>& p, const Vec3<S>& n, Vec3<S>* out) {
  if (!round_type(g.type)) return false;
  Vec3<S> nrm = to_local_frame(g.rot, n);
  if (!local_normal(g, to_local_frame(g.rot, Vec3<S>(p - g.pos)), &nrm)) return false;
  *out = g.rot * normalize3(nrm);
  return true;
}

}  // namespace fix_normal_detail

// The contact normal (from g1 to g2, world frame) at contact position pos, fixed where g1 or g2 is round.
template <class S>
SG_HD inline Vec3<S> fix_contact_normal(const ConvexGeom<S>& g1, const ConvexGeom<S>& g2, const Vec3<S>& pos,
                                        const Vec3<S>& normal) {
  using namespace fix_normal_detail;
  Vec3<S> n1, n2;
  const bool fixed1 = world_normal(g1, pos, normal, &n1);
  const bool fixed2 = world_normal(g2, pos, Vec3<S>(-normal), &n2);
  if (fixed1 && fixed2) return normalize3(Vec3<S>(n1 - n2));
  if (fixed1) return n1;
  if (fixed2) return -n2;
  return normal;
}

}  // namespace sg
