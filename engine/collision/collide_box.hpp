#pragma once
// Boxes against other solids: sphere-box (the sphere centre clamped into the box) and box-box (the separating
// axis test over the 15 candidate axes, then the reference face clipped against the incident face, or the
// closest points of two edges). docs/collision.md, "Box pairs", says why it is built this way and how it
// compares with MuJoCo 2.2.2's box colliders.
#include "engine/collision/clip_face.hpp"
#include "engine/collision/emit_contact.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/collision/smooth_ops.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Sphere (geom 1) against box (geom 2): the box point nearest the sphere centre (the centre clamped into
// the box, axis by axis; smooth mode softens each clamp with softness / half size), then the sphere's
// distance to it. A centre inside the box leaves through the nearest face (hard in both modes, as the
// coincident centres of two spheres).
template <class S>
SG_HD inline int collide_sphere_box(const Pose<S>& sphere, const S& radius, const Pose<S>& box,
                                    const Vec3<S>& half, const CollisionOptions& opt, Contact<S>* out) {
  const Mat3<S> rot = rotation_matrix(box);
  const Vec3<S> centre = mul_transpose(rot, Vec3<S>(sphere.pos - box.pos));
  Vec3<S> nearest;
  bool inside = true;
  for (int k = 0; k < 3; ++k) {
    nearest[k] =
        smooth_clamp(centre[k], -value(half[k]), value(half[k]), proxy_softness(opt) / value(half[k]));
    if (value(centre[k]) < -value(half[k]) || value(centre[k]) > value(half[k])) inside = false;
  }
  const Vec3<S> gap = nearest - centre;
  if (!inside && value(norm2(gap)) > 1e-30) {
    const S len = norm(gap);
    const Vec3<S> normal = rot * Vec3<S>(gap / len);
    return emit_contact(S(len - radius), Vec3<S>(box.pos + rot * nearest), normal, opt, out);
  }
  // Inside: the face the centre is nearest to; the normal points from the sphere into the box, against it.
  int face = 0;
  double best = 1e300;
  for (int k = 0; k < 3; ++k) {
    const double room = value(half[k]) - (value(centre[k]) < 0.0 ? -value(centre[k]) : value(centre[k]));
    if (room < best) best = room, face = k;
  }
  const double side = value(centre[face]) < 0.0 ? -1.0 : 1.0;
  Vec3<S> on_face = centre;
  on_face[face] = half[face] * side;
  Vec3<S> local_normal;
  local_normal[face] = S(-side);
  const S depth = half[face] - centre[face] * side;  // how far inside the centre is
  const int n = emit_contact(S(-depth - radius), Vec3<S>(box.pos + rot * on_face),
                             Vec3<S>(rot * local_normal), opt, out);
  if (n && opt.mujoco_sphere_in_box) out->dist = -radius;
  return n;
}

namespace box_detail {

// A box in the world: centre, axes (the rotation's columns) and half sizes.
template <class S>
struct OrientedBox {
  Vec3<S> centre;
  Vec3<S> axis[3];
  Vec3<S> half;
};

template <class S>
SG_HD inline OrientedBox<S> oriented(const Pose<S>& pose, const Vec3<S>& half) {
  const Mat3<S> rot = rotation_matrix(pose);
  return {pose.pos, {rot.col(0), rot.col(1), rot.col(2)}, half};
}

SG_HD inline double abs_value(double x) {
  return x < 0.0 ? -x : x;
}

template <class S>
SG_HD inline Vec3<double> values(const Vec3<S>& v) {
  return {value(v.x), value(v.y), value(v.z)};
}

// The box's extent along a direction u (values): sum of h_m |a_m . u|.
template <class S>
SG_HD inline double radius_along(const OrientedBox<S>& b, const Vec3<double>& u) {
  double r = 0.0;
  for (int m = 0; m < 3; ++m) r += value(b.half[m]) * abs_value(dot(values(b.axis[m]), u));
  return r;
}

// The winning axis of the separating axis test: a face of box 1 or 2 (index = axis 0-2), or the cross product
// of edge directions i (box 1) and j (box 2). sep is the separation along it (negative: overlap).
enum class AxisKind { face1, face2, edges };
struct SatAxis {
  AxisKind kind;
  int i, j;
  double sep;
};

// The best of the 9 edge-pair axes (parallel edges skipped: the face axes cover them).
template <class S>
SG_HD inline SatAxis best_edge_axis(const OrientedBox<S>& b1, const OrientedBox<S>& b2) {
  const Vec3<double> d = values(Vec3<S>(b2.centre - b1.centre));
  SatAxis best{AxisKind::edges, -1, -1, -1e300};  // i = -1: every edge pair parallel (aligned boxes)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3<double> c = cross(values(b1.axis[i]), values(b2.axis[j]));
      const double len = norm(c);
      if (len < 1e-6) continue;
      const Vec3<double> u = c / len;
      const double sep = abs_value(dot(d, u)) - radius_along(b1, u) - radius_along(b2, u);
      if (sep > best.sep) best = {AxisKind::edges, i, j, sep};
    }
  return best;
}

// Faces win ties: box 2's face only if clearly better than box 1's, an edge pair only if its separation beats
// the best face's by 5% of the overlap. Stable choices keep the contacts' names from flickering between
// equivalent descriptions of one contact (two equal boxes face to face, a box lying on another).
template <class S>
SG_HD inline SatAxis separating_axis(const OrientedBox<S>& b1, const OrientedBox<S>& b2, double scale) {
  const Vec3<double> d = values(Vec3<S>(b2.centre - b1.centre));
  SatAxis face{AxisKind::face1, 0, 0, -1e300};
  for (int k = 0; k < 3; ++k) {
    const Vec3<double> u = values(b1.axis[k]);
    const double sep = abs_value(dot(d, u)) - value(b1.half[k]) - radius_along(b2, u);
    if (sep > face.sep) face = {AxisKind::face1, k, 0, sep};
  }
  SatAxis face2{AxisKind::face2, 0, 0, -1e300};
  for (int k = 0; k < 3; ++k) {
    const Vec3<double> u = values(b2.axis[k]);
    const double sep = abs_value(dot(d, u)) - radius_along(b1, u) - value(b2.half[k]);
    if (sep > face2.sep) face2 = {AxisKind::face2, k, 0, sep};
  }
  if (face2.sep > face.sep + 1e-9 * scale) face = face2;
  const SatAxis edges = best_edge_axis(b1, b2);
  return edges.sep > face.sep + 0.05 * abs_value(face.sep) + 1e-9 * scale ? edges : face;
}

// Index of the box corner with sign bits (bit m set: +half along axis m).
SG_HD inline int corner_index(const int* sign) {
  return (sign[0] > 0 ? 1 : 0) | (sign[1] > 0 ? 2 : 0) | (sign[2] > 0 ? 4 : 0);
}

// Index 0-11 of the box edge along axis m through corner c (the edge's other two sign bits).
SG_HD inline int edge_index(int m, int c) {
  const int m1 = (m + 1) % 3, m2 = (m + 2) % 3;
  return 4 * m + ((c >> m1) & 1) + 2 * ((c >> m2) & 1);
}

// Corner c of a box as a point, and in the reference face's frame (u, v, height above the face).
template <class S>
SG_HD inline Vec3<S> box_corner_point(const OrientedBox<S>& b, int c) {
  Vec3<S> p = b.centre;
  for (int m = 0; m < 3; ++m) p += b.axis[m] * (b.half[m] * ((c >> m) & 1 ? 1.0 : -1.0));
  return p;
}

// Face contact: ref's face along axis k, on the side facing inc (normal n), against inc's nearest feature:
// its axes nearly perpendicular to n (|a . n| < 0.5, as MuJoCo) span it, two a face, one an edge, none a
// corner. A box meeting the face with an edge thus touches along that edge alone, whichever of the edge's
// faces is nearer to parallel. The feature is clipped by the reference face; every clipped point within the
// margin is a contact. flip: ref is geom 2 (the normal then points the other way). Feature numbers: 64 x (the
// reference face, + 6 when ref is box 2) + the clip tag.
template <class S>
SG_HD inline int face_contacts(const OrientedBox<S>& ref, int k, const OrientedBox<S>& inc, bool flip,
                               const CollisionOptions& opt, double scale, Contact<S>* out) {
  const double toward = value(dot(Vec3<S>(inc.centre - ref.centre), ref.axis[k])) < 0.0 ? -1.0 : 1.0;
  const Vec3<S> n = ref.axis[k] * toward;
  const Vec3<S> face_centre = ref.centre + n * ref.half[k];
  const int ku = (k + 1) % 3, kv = (k + 2) % 3;
  // The corner deepest along -n, and the axes spanning the feature.
  int deepest = 0, free_axes[2], free_count = 0;
  for (int m = 0; m < 3; ++m) {
    const double c = value(dot(inc.axis[m], n));
    if (c < 0.0) deepest |= 1 << m;
    if (abs_value(c) < 0.5 && free_count < 2) free_axes[free_count++] = m;
  }
  // The feature's corners in cyclic order, each with the edge to the next: 4 (a face), 2 (an edge) or 1.
  ClipVertex<S> poly[kClipMax];
  int count = 1 << free_count;
  const int cycle[4] = {0, 1, 3, 2};  // Gray order: consecutive corners differ in one free axis
  for (int q = 0; q < count; ++q) {
    const int bits = count == 4 ? cycle[q] : q;
    int c = deepest;
    for (int f = 0; f < free_count; ++f)
      if ((bits >> f) & 1) c ^= 1 << free_axes[f];
    const Vec3<S> rel = box_corner_point(inc, c) - face_centre;
    poly[q] = {dot(rel, ref.axis[ku]), dot(rel, ref.axis[kv]), dot(rel, n), c, 0};
  }
  for (int q = 0; q < count; ++q) {
    const int next = poly[(q + 1) % count].tag;
    const int diff = poly[q].tag ^ next;
    poly[q].line = diff ? edge_index(diff == 1 ? 0 : (diff == 2 ? 1 : 2), poly[q].tag) : 0;
  }
  const double tol = 1e-9 * scale;
  if (count == 2) {
    count = clip_segment_to_rectangle(poly, ref.half[ku], ref.half[kv], tol);
  } else if (count == 4) {
    count = clip_to_rectangle(poly, 4, ref.half[ku], ref.half[kv], tol);
  } else if (clip_detail::outside(poly[0], 0, value(ref.half[ku]), value(ref.half[kv]), tol) > 0.0 ||
             clip_detail::outside(poly[0], 1, value(ref.half[ku]), value(ref.half[kv]), tol) > 0.0 ||
             clip_detail::outside(poly[0], 2, value(ref.half[ku]), value(ref.half[kv]), tol) > 0.0 ||
             clip_detail::outside(poly[0], 3, value(ref.half[ku]), value(ref.half[kv]), tol) > 0.0) {
    count = 0;
  }
  const int face_number = 2 * k + (toward > 0.0 ? 0 : 1) + (flip ? 6 : 0);
  const Vec3<S> normal = flip ? Vec3<S>(-n) : n;
  int written = 0;
  for (int q = 0; q < count && written < kMaxContactsPerPair; ++q) {
    const ClipVertex<S>& c = poly[q];
    if (value(c.depth) > opt.margin) continue;
    Contact<S>& con = out[written++];
    con.dist = c.depth;
    // Midway between the incident point and its foot on the reference face.
    con.pos = face_centre + ref.axis[ku] * c.u + ref.axis[kv] * c.v + n * (c.depth * 0.5);
    con.feature = 64 * face_number + c.tag;
    make_contact_frame(normal, false, con.frame);
  }
  return written;
}

// Edge contact: the edge of box 1 along axis i farthest towards box 2 and the edge of box 2 along j farthest
// towards box 1; one contact between their closest points, normal their cross product (from 1 to 2).
template <class S>
SG_HD inline int edge_contact(const OrientedBox<S>& b1, int i, const OrientedBox<S>& b2, int j,
                              const CollisionOptions& opt, Contact<S>* out) {
  Vec3<S> axis = cross(b1.axis[i], b2.axis[j]);
  axis = axis / norm(axis);
  if (value(dot(Vec3<S>(b2.centre - b1.centre), axis)) < 0.0) axis = -axis;
  int s1[3], s2[3];
  Vec3<S> p1 = b1.centre, p2 = b2.centre;
  for (int m = 0; m < 3; ++m) {
    s1[m] = value(dot(b1.axis[m], axis)) > 0.0 ? 1 : -1;
    s2[m] = value(dot(b2.axis[m], axis)) > 0.0 ? -1 : 1;
    if (m != i) p1 += b1.axis[m] * (b1.half[m] * double(s1[m]));
    if (m != j) p2 += b2.axis[m] * (b2.half[m] * double(s2[m]));
  }
  // Closest points of p1 + t1 u and p2 + t2 v, each clamped to its edge.
  const Vec3<S>& u = b1.axis[i];
  const Vec3<S>& v = b2.axis[j];
  const Vec3<S> w = p1 - p2;
  const S b = dot(u, v), du = dot(u, w), dv = dot(v, w);
  S t1 = (b * dv - du) / (1.0 - b * b);
  t1 = clamp(t1, -value(b1.half[i]), value(b1.half[i]));
  const S t2 = clamp(S(dv + b * t1), -value(b2.half[j]), value(b2.half[j]));
  t1 = clamp(S(b * t2 - du), -value(b1.half[i]), value(b1.half[i]));
  const Vec3<S> q1 = p1 + u * t1;
  const Vec3<S> q2 = p2 + v * t2;
  const S dist = dot(Vec3<S>(q2 - q1), axis);
  if (value(dist) > opt.margin) return 0;
  out->dist = dist;
  out->pos = (q1 + q2) * 0.5;
  out->feature = 1024 + 12 * edge_index(i, corner_index(s1)) + edge_index(j, corner_index(s2));
  make_contact_frame(axis, false, out->frame);
  return 1;
}

}  // namespace box_detail

// Box (geom 1) against box (geom 2), exact in every mode (no smooth proxy: scenes with collision.softness > 0
// refuse the pair). Up to 8 contacts, all with the separating axis as normal.
template <class S>
SG_HD inline int collide_box_box(const Pose<S>& pose1, const Vec3<S>& half1, const Pose<S>& pose2,
                                 const Vec3<S>& half2, const CollisionOptions& opt, Contact<S>* out) {
  using namespace box_detail;
  const OrientedBox<S> b1 = oriented(pose1, half1), b2 = oriented(pose2, half2);
  double scale = 0.0;  // the larger box's largest half size: the length the tie tolerances scale with
  for (int k = 0; k < 3; ++k) {
    if (value(half1[k]) > scale) scale = value(half1[k]);
    if (value(half2[k]) > scale) scale = value(half2[k]);
  }
  const SatAxis axis = separating_axis(b1, b2, scale);
  if (axis.sep > opt.margin) return 0;
  if (axis.kind == AxisKind::edges) return edge_contact(b1, axis.i, b2, axis.j, opt, out);
  const int n = axis.kind == AxisKind::face1 ? face_contacts(b1, axis.i, b2, false, opt, scale, out)
                                             : face_contacts(b2, axis.i, b1, true, opt, scale, out);
  if (n > 0) return n;
  // The nearest feature missed the face (a corner beyond it): the boxes meet edge to edge, which the face's
  // 5% preference had outvoted.
  const SatAxis edges = best_edge_axis(b1, b2);
  return edges.i >= 0 && edges.sep <= opt.margin ? edge_contact(b1, edges.i, b2, edges.j, opt, out) : 0;
}

}  // namespace sg
