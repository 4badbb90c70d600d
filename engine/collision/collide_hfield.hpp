#pragma once
// Height fields, collided as MuJoCo 2.2.2 collides them (mjc_ConvexHField, engine_collision_convex.c): the
// other geom is moved into the field's frame, its support points along the axes bound the cells it may
// touch, and each triangle of those cells, as a prism from the base up to the surface raised by the margin,
// is collided with it by MPR: one contact per triangle that overlaps, at most 50 (mjMAXCONPAIR). The normals
// are fixed for round geoms as mjc_Convex's are. Any geom but a plane or another height field; the smooth
// detector has no proxy for them, so they stay exact at any softness.
#include <cmath>

#include "engine/collision/collide_convex.hpp"
#include "engine/collision/contact_frame.hpp"
#include "engine/collision/convex_support.hpp"
#include "engine/collision/fix_normal.hpp"
#include "engine/collision/geom_type.hpp"
#include "engine/collision/height_field.hpp"
#include "engine/collision/mpr.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr int kMaxHFieldContacts = 50;  // mjMAXCONPAIR

// Whether collide_hfield takes the pair: a height field against anything but a plane or a height field, with
// the exact detector.
SG_HD inline bool hfield_pair_supported(GeomType a, GeomType b, Detector detector) {
  if (a != GeomType::hfield && b != GeomType::hfield) return false;
  if (a == GeomType::plane || b == GeomType::plane || a == b) return false;
  return detector == Detector::softgrad;
}

// One triangle of the field as a prism: v[0..2] its corners at the base, v[3..5] on the surface (raised by
// the margin), in the field's frame. MPR reads it through mpr_shape_support and mpr_shape_center.
struct HFieldPrism {
  double v[6][3] = {};
};

// prism_support: the best vertex along dir among the base's (dir pointing down) or the top's.
template <class S>
SG_HD inline Vec3<S> mpr_shape_support(const HFieldPrism& p, const Vec3<S>& dir) {
  const double d[3] = {value(dir.x), value(dir.y), value(dir.z)};
  const auto along = [&](int i) { return p.v[i][0] * d[0] + p.v[i][1] * d[1] + p.v[i][2] * d[2]; };
  const int start = d[2] < 0.0 ? 0 : 3;
  int best = start;
  double top = along(start);
  for (int i = start + 1; i < start + 3; ++i)
    if (const double t = along(i); t > top) best = i, top = t;
  return Vec3<S>(S(p.v[best][0]), S(p.v[best][1]), S(p.v[best][2]));
}

// prism_center: the mean of the six vertices, summed in order, then scaled.
template <class S>
SG_HD inline Vec3<S> mpr_shape_center(const HFieldPrism& p) {
  double c[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 3; ++k) c[k] += p.v[i][k];
  return Vec3<S>(S(c[0] * (1.0 / 6.0)), S(c[1] * (1.0 / 6.0)), S(c[2] * (1.0 / 6.0)));
}

namespace hfield_detail {

// addVert: shift the prism's last two vertices down and put (x, y) last, on the surface at height z.
SG_HD inline void add_vertex(HFieldPrism* p, double x, double y, double z) {
  for (int k = 0; k < 3; ++k) {
    p->v[0][k] = p->v[1][k], p->v[1][k] = p->v[2][k];
    p->v[3][k] = p->v[4][k], p->v[4][k] = p->v[5][k];
  }
  p->v[2][0] = p->v[5][0] = x;
  p->v[2][1] = p->v[5][1] = y;
  p->v[5][2] = z;
}

// The other geom's extent in the field's frame along the axes: MuJoCo's support points, margin left out.
struct Extent {
  double lo[3], hi[3];
};

template <class S>
SG_HD inline Extent extent(const ConvexGeom<S>& local) {
  Extent e{};
  for (int k = 0; k < 3; ++k) {
    Vec3<S> axis{};
    axis[k] = S(1.0);
    e.hi[k] = value(convex_support(local, axis)[k]);
    axis[k] = S(-1.0);
    e.lo[k] = value(convex_support(local, axis)[k]);
  }
  return e;
}

// The bounding-sphere tests against the field's box: false where the geom cannot reach it.
template <class S>
SG_HD inline bool sphere_reaches(const HeightField& h, const Vec3<S>& pos, double rbound, double margin) {
  for (int k = 0; k < 2; ++k) {
    const double p = value(pos[k]);
    if (h.size[k] < p - rbound - margin || -h.size[k] > p + rbound + margin) return false;
  }
  const double z = value(pos.z);
  return !(h.size[2] < z - rbound - margin) && !(-h.size[3] > z + rbound + margin);
}

SG_HD inline bool box_reaches(const HeightField& h, const Extent& e, double margin) {
  return !(e.lo[0] - margin > h.size[0] || e.hi[0] + margin < -h.size[0] || e.lo[1] - margin > h.size[1] ||
           e.hi[1] + margin < -h.size[1] || e.lo[2] - margin > h.size[2] || e.hi[2] + margin < -h.size[3]);
}

// The grid index of coordinate x on an axis of half size `half` with n points, rounded down or up.
SG_HD inline int grid_floor(double x, double half, int n) {
  return static_cast<int>(::floor((x + half) / (2 * half) * (n - 1)));
}
SG_HD inline int grid_ceil(double x, double half, int n) {
  return static_cast<int>(::ceil((x + half) / (2 * half) * (n - 1)));
}
SG_HD inline int clamp_index(int i, int lo, int hi) {
  return i < lo ? lo : (i > hi ? hi : i);
}

// The field's frame and the other geom, in the world (`world`) and in the field's frame (`local`).
template <class S>
struct Frames {
  Vec3<S> pos1;
  Mat3<S> mat1;
  ConvexGeom<S> world, local;
};

// One prism's MPR contact, in the world: dist -depth (the prism's top and the geom are both grown by the
// margin already, MuJoCo's convention), the normal fixed for a round geom. False where they do not overlap.
template <class S>
SG_HD inline bool prism_contact(const HFieldPrism& prism, const Frames<S>& f, int feature,
                                const CollisionOptions& opt, Contact<S>* out) {
  MprResult<S> r;
  if (!mpr_penetration(prism, f.local, opt.mpr, &r) || mpr_detail::is_origin(r.dir)) return false;
  const Vec3<S> normal = f.mat1 * r.dir;
  out->feature = feature;
  out->dist = -r.depth;
  out->pos = f.mat1 * r.pos + f.pos1;
  ConvexGeom<S> field{};
  field.type = GeomType::hfield, field.pos = f.pos1, field.rot = f.mat1;
  make_contact_frame(fix_contact_normal(field, f.world, out->pos, normal), smooth_proxies(opt), out->frame);
  return true;
}

// mjc_ConvexHField at one margin: up to `capacity` contacts, normals from the field to the geom.
template <class S>
SG_HD inline int collide_at(const HeightField& h, Frames<S> f, double rbound, double margin,
                            const CollisionOptions& opt, Contact<S>* out, int capacity) {
  f.local.margin = 0.0;
  if (!sphere_reaches(h, f.local.pos, rbound, margin)) return 0;
  const Extent e = extent(f.local);
  if (!box_reaches(h, e, margin)) return 0;
  const int cmin = clamp_index(grid_floor(e.lo[0], h.size[0], h.ncol), 0, h.ncol - 1);
  const int cmax = clamp_index(grid_ceil(e.hi[0], h.size[0], h.ncol), 0, h.ncol - 1);
  const int rmin = clamp_index(grid_floor(e.lo[1], h.size[1], h.nrow), 0, h.nrow - 1);
  const int rmax = clamp_index(grid_ceil(e.hi[1], h.size[1], h.nrow), 0, h.nrow - 1);
  f.local.margin = margin;
  const double dx = (2.0 * h.size[0]) / (h.ncol - 1), dy = (2.0 * h.size[1]) / (h.nrow - 1);
  const int dr[2] = {1, 0};  // each column adds its upper point, then its lower one: a triangle strip
  HFieldPrism prism;
  prism.v[0][2] = prism.v[1][2] = prism.v[2][2] = -h.size[3];
  int count = 0;
  for (int r = rmin; r < rmax; ++r) {
    int nvert = 0;
    for (int c = cmin; c <= cmax; ++c)
      for (int i = 0; i < 2; ++i) {
        const int row = r + dr[i];
        add_vertex(&prism, dx * c - h.size[0], dy * row - h.size[1], hfield_height(h, row, c) + margin);
        if (++nvert <= 2) continue;
        if (prism.v[3][2] < e.lo[2] && prism.v[4][2] < e.lo[2] && prism.v[5][2] < e.lo[2]) continue;
        if (!prism_contact(prism, f, (r * h.ncol + c) * 2 + i, opt, out + count)) continue;
        if (++count >= capacity) return count;
      }
  }
  return count;
}

}  // namespace hfield_detail

// Contacts between height field h (frame pa) and geom b (frame pb, sizes sb, its hull mesh_b if a mesh;
// rbound_b its MuJoCo bounding radius), normals from the field to the geom; at most `capacity`. With a
// look-ahead band (opt.pair_margin below opt.margin) the pair is collided at its own margin first, MuJoCo's
// result, and only if that finds nothing with the band, no contact deeper than the own margin.
template <class S>
SG_HD inline int collide_hfield(const Pose<S>& pa, const HeightField& h, GeomType b, const Pose<S>& pb,
                                const Vec3<S>& sb, const ConvexMesh* mesh_b, double rbound_b,
                                const CollisionOptions& opt, Contact<S>* out, int capacity) {
  if (!hfield_pair_supported(GeomType::hfield, b, opt.detector) || !h.data) return 0;
  if (b == GeomType::mesh && !mesh_b) return 0;
  hfield_detail::Frames<S> f;
  f.pos1 = pa.pos;
  f.mat1 = rotation_matrix(pa);
  f.world = convex_geom(b, pb, sb, 0.0);
  f.world.mesh = mesh_b;
  f.local = f.world;
  f.local.pos = to_local_frame(f.mat1, Vec3<S>(pb.pos - pa.pos));
  f.local.rot = Mat3<S>::from_columns(to_local_frame(f.mat1, f.world.rot.col(0)),
                                      to_local_frame(f.mat1, f.world.rot.col(1)),
                                      to_local_frame(f.mat1, f.world.rot.col(2)));
  const int cap = capacity < kMaxHFieldContacts ? capacity : kMaxHFieldContacts;
  const bool band = opt.pair_margin >= 0.0 && opt.pair_margin < opt.margin;
  const double own = band ? opt.pair_margin : opt.margin;
  const int found = hfield_detail::collide_at(h, f, rbound_b, own, opt, out, cap);
  if (found || !band) return found;
  const int n = hfield_detail::collide_at(h, f, rbound_b, opt.margin, opt, out, cap);
  for (int i = 0; i < n; ++i)
    if (value(out[i].dist) < own) out[i].dist = S(own);
  return n;
}

}  // namespace sg
