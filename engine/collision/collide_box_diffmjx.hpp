#pragma once
// Plane against box as DiffMJX ran it (collision.mode "diffmjx"): the MJX fork's plane-convex manifold
// with its case distinctions replaced by softjax operators (softjax_ops.hpp), softness s = opt.softness.
// With s comparable to the box (DiffMJX: 0.1 m on a 0.1 m cube), the contacts are blends of the lowest
// corners, inside the box and 1-6 mm short of touching; see docs/collision.md, "DiffMJX's soft box".
#include "engine/collision/emit_contact.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/collision/softjax_ops.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

namespace diffmjx_detail {

// sum_j w_j v_j
template <class S>
SG_HD inline Vec3<S> blend(const S (&w)[8], const Vec3<S> (&v)[8]) {
  Vec3<S> r;
  for (int j = 0; j < 8; ++j) r += v[j] * w[j];
  return r;
}

// The fork's four manifold weights a, b, c, d over the corners (offsets v from the centre, penetration
// depths depth). Each is a soft argmax of the hard manifold's criterion plus the mask: a is the deepest
// corner, b the farthest from a, c the farthest from the line ab, d the farthest from the lines ac and bc.
template <class S>
SG_HD inline void manifold_weights(const Vec3<S>& n, const Vec3<S> (&v)[8], const S (&depth)[8], double s,
                                   S (&w)[4][8]) {
  // Corners within 1 mm of the (soft) deepest one; the -1e6 mask keeps the others out of every argmax.
  const S thresh = softjax::relu(S(softjax::max(depth, s) - 1e-3), s);
  S mask[8], x[8];
  for (int j = 0; j < 8; ++j) mask[j] = -1e6 * (1.0 - softjax::greater_equal(depth[j], thresh, s));
  softjax::argmax(mask, s, w[0]);
  const Vec3<S> a = blend(w[0], v);
  for (int j = 0; j < 8; ++j) x[j] = norm2(Vec3<S>(a - v[j])) + mask[j];
  softjax::argmax(x, s, w[1]);
  const Vec3<S> b = blend(w[1], v);
  const Vec3<S> ab = cross(n, Vec3<S>(a - b));
  for (int j = 0; j < 8; ++j) x[j] = softjax::abs(dot(Vec3<S>(a - v[j]), ab), s) + mask[j];
  softjax::argmax(x, s, w[2]);
  const Vec3<S> c = blend(w[2], v);
  const Vec3<S> ac = cross(n, Vec3<S>(a - c)), bc = cross(n, Vec3<S>(b - c));
  for (int j = 0; j < 8; ++j)
    x[j] = softjax::abs(dot(Vec3<S>(b - v[j]), bc), s) + mask[j] +
           softjax::abs(dot(Vec3<S>(a - v[j]), ac), s) + mask[j];
  softjax::argmax(x, s, w[3]);
}

}  // namespace diffmjx_detail

// Four contacts, features 0-3 (a, b, c, d), never deduplicated: at blend k, dist = -sum w_kj depth_j and
// the position sum w_kj corner_j moved by -dist/2 along the normal. The frame is the exact one
// (MuJoCo's make_frame), as in the fork. Each is reported if within the margin.
template <class S>
SG_HD inline int collide_plane_box_diffmjx(const Plane<S>& plane, const Pose<S>& pose, const Vec3<S>& half,
                                           const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S>& n = plane.normal;
  const Mat3<S> rot = rotation_matrix(pose);
  Vec3<S> offset[8];
  S depth[8];  // the fork's support: (plane point - corner) . n, > 0 below the plane
  for (int j = 0; j < 8; ++j) {
    offset[j] =
        rot * Vec3<S>((j & 1) ? half.x : -half.x, (j & 2) ? half.y : -half.y, (j & 4) ? half.z : -half.z);
    depth[j] = -dot(Vec3<S>(pose.pos + offset[j] - plane.point), n);
  }
  S w[4][8];
  diffmjx_detail::manifold_weights(n, offset, depth, opt.softness, w);
  int written = 0;
  for (int k = 0; k < 4; ++k) {
    S dist(0.0);
    for (int j = 0; j < 8; ++j) dist -= w[k][j] * depth[j];
    written +=
        emit_contact(dist, Vec3<S>(pose.pos + diffmjx_detail::blend(w[k], offset)), n, opt, out + written, k);
  }
  return written;
}

}  // namespace sg
