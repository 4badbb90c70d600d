#pragma once
// Plane against each primitive. The plane is geom 1, so every contact normal is the plane normal.
// See docs/collision.md for what each function reports in the exact and the smooth mode.
#include "engine/collision/emit_contact.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// One contact at the sphere's lowest point. No case distinctions: exact and smooth agree.
template <class S>
SG_HD inline int collide_plane_sphere(const Plane<S>& plane, const Vec3<S>& center, const S& radius,
                                      const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S>& n = plane.normal;
  const S dist = dot(center - plane.point, n) - radius;
  return emit_contact(dist, center - n * radius, n, opt, out);
}

template <class S>
SG_HD inline int collide_plane_sphere(const Plane<S>& plane, const Pose<S>& pose, const S& radius,
                                      const CollisionOptions& opt, Contact<S>* out) {
  return collide_plane_sphere(plane, pose.pos, radius, opt, out);
}

// The two end spheres (+z end first), as MuJoCo: 2 contacts when lying, 1 when upright.
template <class S>
SG_HD inline int collide_plane_capsule(const Plane<S>& plane, const Pose<S>& pose, const S& radius,
                                       const S& half_length, const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S> seg = rotate(pose.rot, Vec3<S>(S(0.0), S(0.0), half_length));
  int n = collide_plane_sphere(plane, pose.pos + seg, radius, opt, out);
  const int plus_end = n;
  n += collide_plane_sphere(plane, pose.pos - seg, radius, opt, out + n);
  if (n > plus_end) out[plus_end].feature = 1;  // the -z end
  return n;
}

// Corner i of a box with half sizes `half`: bit 0, 1, 2 of i choose +x, +y, +z.
template <class S>
SG_HD inline Vec3<S> box_corner(const Vec3<S>& half, int i) {
  return {(i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z};
}

// Corners of the box. Exact: among corners inside the margin and not above the centre (MuJoCo's
// filter), the up to 4 deepest, deepest first (index order on ties). Smooth: every corner inside the
// margin, in index order; each corner's distance is smooth in the pose, so dropping the selection
// removes the only case distinction (the contact set then changes only at the margin).
// The selection runs on values, with the same operations for every scalar type (so dual and plain runs make
// the same decisions) and cheaply: each corner's depth is a signed sum of three products. Only the selected
// corners are computed in S, and the contacts share the plane's frame.
template <class S>
SG_HD inline int collide_plane_box(const Plane<S>& plane, const Pose<S>& pose, const Vec3<S>& half,
                                   const CollisionOptions& opt, Contact<S>* out) {
  const bool smooth = smooth_proxies(opt);
  const Mat3<S> rot = rotation_matrix(pose);
  const S dist0 = dot(pose.pos - plane.point, plane.normal);
  // Corner i lies at (R^T n) . corner_i along the normal: the signed sum of the three products below.
  double along[3];
  for (int c = 0; c < 3; ++c) {
    const double w = value(rot.m[0][c]) * value(plane.normal.x) + value(rot.m[1][c]) * value(plane.normal.y) +
                     value(rot.m[2][c]) * value(plane.normal.z);
    along[c] = w * value(half[c]);
  }
  const double dist0_v = value(dist0);
  double dist[8];
  int order[8], index[8];
  int count = 0;
  for (int i = 0; i < 8; ++i) {
    const double ldist = ((i & 1) ? along[0] : -along[0]) + ((i & 2) ? along[1] : -along[1]) +
                         ((i & 4) ? along[2] : -along[2]);
    if (dist0_v + ldist > opt.margin) continue;
    if (!smooth && ldist > 0.0) continue;
    dist[count] = dist0_v + ldist;
    index[count] = i;
    order[count] = count;
    ++count;
  }
  if (!smooth) {
    // Stable insertion sort by depth, keep the deepest 4.
    for (int i = 1; i < count; ++i) {
      const int k = order[i];
      int j = i - 1;
      while (j >= 0 && dist[order[j]] > dist[k]) {
        order[j + 1] = order[j];
        --j;
      }
      order[j + 1] = k;
    }
    if (count > 4) count = 4;
  }
  if (count == 0) return 0;
  Vec3<S> frame[3];
  make_contact_frame(plane.normal, smooth, frame);
  for (int i = 0; i < count; ++i) {
    const Vec3<S> offset = rot * box_corner(half, index[order[i]]);
    const S d = dist0 + dot(plane.normal, offset);
    Contact<S>& c = out[i];
    c.feature = index[order[i]];
    c.dist = d;
    c.pos = pose.pos + offset - plane.normal * (d * 0.5);
    for (int k = 0; k < 3; ++k) c.frame[k] = frame[k];
  }
  return count;
}

// Cylinder rim points. Exact (MuJoCo's algorithm): the deepest rim point of the cap nearer the plane
// (none at all if that one is outside the margin), the matching rim point of the far cap, and the two
// other corners of an equilateral triangle inscribed in the near cap's rim (support when standing).
// Smooth: no "nearer cap" decision (both caps get a rim point and a triangle, each kept if inside the
// margin), and the downhill direction in the cap plane is normalised after adding (softness/r) times
// the cylinder x axis (MuJoCo's fallback when upright), which moves the normalisation singularity away
// from the upright pose.
template <class S>
SG_HD inline int collide_plane_cylinder(const Plane<S>& plane, const Pose<S>& pose, const S& radius,
                                        const S& half_length, const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S>& n = plane.normal;
  const Mat3<S> rot = rotation_matrix(pose);
  Vec3<S> axis = rot.col(2);
  const Vec3<S> xaxis = rot.col(0);
  const S dist0 = dot(pose.pos - plane.point, n);
  S prj = dot(n, axis);
  const double kHalfSqrt3 = 0.86602540378443864676;

  if (!smooth_proxies(opt)) {
    // Features follow the caps, not near and far: 0 and 1 the rim points of the +z and -z caps, 2 and 3 the
    // triangle on the +z cap, 4 and 5 on the -z cap. As the axis passes horizontal the near cap changes
    // while each cap's rim point moves on continuously, and the contact must keep its name (events and the
    // located modes follow contacts by name). The order of the contacts stays MuJoCo's: near rim first.
    int near_cap = 0;
    if (prj > 0.0) {  // point the axis towards the plane
      axis = -axis;
      prj = -prj;
      near_cap = 1;
    }
    const Vec3<S> downhill = axis * prj - n;  // -normal with its axial part removed
    Vec3<S> vec = xaxis * radius;
    if (value(norm2(downhill)) >= 1e-30) vec = downhill * (radius / norm(downhill));
    const S prjvec = dot(vec, n);
    const Vec3<S> cap = axis * half_length;
    const S hprj = prj * half_length;
    const S d_near = dist0 + hprj + prjvec;
    if (d_near > opt.margin) return 0;
    int written = emit_contact(d_near, pose.pos + vec + cap, n, opt, out, near_cap);
    written +=
        emit_contact(S(dist0 - hprj + prjvec), pose.pos + vec - cap, n, opt, out + written, 1 - near_cap);
    const S d_tri = dist0 + hprj - prjvec * 0.5;
    if (d_tri <= opt.margin) {
      const Vec3<S> side = cross(vec, axis) * kHalfSqrt3;  // |vec x axis| = radius
      const Vec3<S> base = pose.pos + cap - vec * 0.5;
      written += emit_contact(d_tri, base + side, n, opt, out + written, 2 + 2 * near_cap);
      written += emit_contact(d_tri, base - side, n, opt, out + written, 3 + 2 * near_cap);
    }
    return written;
  }

  const Vec3<S> downhill = axis * prj - n + xaxis * (proxy_softness(opt) / radius);
  // At the one singular tilt (downhill = 0) fall back to the x axis instead of dividing by zero.
  const Vec3<S> vec = value(norm2(downhill)) > 1e-30 ? Vec3<S>(downhill * (radius / norm(downhill)))
                                                     : Vec3<S>(xaxis * radius);
  const S prjvec = dot(vec, n);
  const Vec3<S> side = cross(vec, axis) * kHalfSqrt3;
  int written = 0;
  for (int c = 0; c < 2; ++c) {  // rim points of the +z and the -z cap
    const double sgn = c == 0 ? 1.0 : -1.0;
    written += emit_contact(S(dist0 + sgn * prj * half_length + prjvec),
                            pose.pos + vec + axis * (sgn * half_length), n, opt, out + written, c);
  }
  for (int c = 0; c < 2; ++c) {  // triangle corners of each cap
    const double sgn = c == 0 ? 1.0 : -1.0;
    const S d_tri = dist0 + sgn * prj * half_length - prjvec * 0.5;
    const Vec3<S> base = pose.pos + axis * (sgn * half_length) - vec * 0.5;
    written += emit_contact(d_tri, base + side, n, opt, out + written, 2 + 2 * c);
    written += emit_contact(d_tri, base - side, n, opt, out + written, 3 + 2 * c);
  }
  return written;
}

// The support point of the ellipsoid along -normal: in local coordinates with m = R^T n,
// p = -(size^2 .* m) / |size .* m|, depth below the centre |size .* m|. Smooth as it stands.
template <class S>
SG_HD inline int collide_plane_ellipsoid(const Plane<S>& plane, const Pose<S>& pose, const Vec3<S>& semi_axes,
                                         const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S>& n = plane.normal;
  const Mat3<S> rot = rotation_matrix(pose);
  const Vec3<S> m = mul_transpose(rot, n);
  const Vec3<S> k(semi_axes.x * m.x, semi_axes.y * m.y, semi_axes.z * m.z);
  const S kn = norm(k);
  const Vec3<S> local(-semi_axes.x * k.x / kn, -semi_axes.y * k.y / kn, -semi_axes.z * k.z / kn);
  const S dist = dot(pose.pos - plane.point, n) - kn;
  return emit_contact(dist, pose.pos + rot * local, n, opt, out);
}

}  // namespace sg
