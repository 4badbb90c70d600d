#pragma once
// Support functions of the convex primitives, as MuJoCo 2.2.2's mjccd_support (engine_collision_convex.c)
// gives them to libccd: the point of the geom farthest along a unit direction, the geom grown by half the
// pair's margin. MPR (mpr.hpp) sees the geoms only through these, so they follow MuJoCo's arithmetic: the
// direction into the geom's frame (R^T d), the point there, back to the world (R p + pos).
#include "engine/collision/convex_mesh.hpp"
#include "engine/collision/geom_type.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// One geom as MPR sees it: its type, MuJoCo size vector, frame and the margin it is grown by (the pair's
// margin; each geom takes half of it).
template <class S>
struct ConvexGeom {
  GeomType type = GeomType::sphere;
  Vec3<S> size{};
  Vec3<S> pos{};
  Mat3<S> rot{};
  double margin = 0.0;
  const ConvexMesh* mesh = nullptr;  // a mesh geom's hull (size is then its bounding box)
};

template <class S>
SG_HD inline ConvexGeom<S> convex_geom(GeomType type, const Pose<S>& pose, const Vec3<S>& size,
                                       double margin) {
  return {type, size, pose.pos, rotation_matrix(pose), margin};
}

// R^T v in mju_rotVecMatT's order: a world vector in the frame whose axes are R's columns.
template <class S>
SG_HD inline Vec3<S> to_local_frame(const Mat3<S>& R, const Vec3<S>& v) {
  return Vec3<S>(R(0, 0) * v.x + R(1, 0) * v.y + R(2, 0) * v.z, R(0, 1) * v.x + R(1, 1) * v.y + R(2, 1) * v.z,
                 R(0, 2) * v.x + R(1, 2) * v.y + R(2, 2) * v.z);
}

namespace convex_detail {

inline constexpr double kMinVal = 1e-15;  // mjMINVAL

// mju_normalize3: +x for a vector shorter than mjMINVAL.
template <class S>
SG_HD inline Vec3<S> normalize3(const Vec3<S>& v) {
  const S n = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (value(n) < kMinVal) return Vec3<S>(S(1.0), S(0.0), S(0.0));
  const S inv = S(1.0) / n;
  return v * inv;
}

// mju_sign: 0 at 0, so a direction in a box's face plane picks the face's centre line.
template <class S>
SG_HD inline double sign_of(const S& x) {
  const double v = value(x);
  return v < 0.0 ? -1.0 : (v > 0.0 ? 1.0 : 0.0);
}

// The support point in the geom's own frame (d: the unit direction there).
template <class S>
SG_HD inline Vec3<S> local_support(const ConvexGeom<S>& g, const Vec3<S>& d) {
  const Vec3<S>& s = g.size;
  switch (g.type) {
    case GeomType::sphere:
      return d * s.x;
    case GeomType::capsule: {
      Vec3<S> r = d * s.x;
      r.z += sign_of(d.z) * s.y;
      return r;
    }
    case GeomType::ellipsoid: {
      // the support point of the unit sphere along d scaled by the sizes, scaled back
      const Vec3<S> r = normalize3(Vec3<S>(d.x * s.x, d.y * s.y, d.z * s.z));
      return Vec3<S>(r.x * s.x, r.y * s.y, r.z * s.z);
    }
    case GeomType::cylinder: {
      const S rho = sqrt(d.x * d.x + d.y * d.y);
      Vec3<S> r;
      if (value(rho) > kMinVal) {
        r.x = d.x / rho * s.x;
        r.y = d.y / rho * s.x;
      }
      r.z = sign_of(d.z) * s.y;
      return r;
    }
    case GeomType::box:
      return Vec3<S>(sign_of(d.x) * s.x, sign_of(d.y) * s.y, sign_of(d.z) * s.z);
    case GeomType::mesh:
      return g.mesh ? mesh_vertex<S>(*g.mesh, mesh_support_vertex(*g.mesh, d)) : Vec3<S>{};
    case GeomType::plane:
    case GeomType::hfield:  // never MPR's geom: collide_hfield.hpp gives MPR its prisms
      break;
  }
  return Vec3<S>{};
}

}  // namespace convex_detail

// The support point of g along the world direction dir (unit length), in the world frame.
template <class S>
SG_HD inline Vec3<S> convex_support(const ConvexGeom<S>& g, const Vec3<S>& dir) {
  const Vec3<S> d = to_local_frame(g.rot, dir);
  Vec3<S> p = convex_detail::local_support(g, d);
  p += d * g.margin / 2.0;
  return g.rot * p + g.pos;
}

}  // namespace sg
