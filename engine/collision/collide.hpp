#pragma once
// Dispatch by geom type. Either order of a supported pair works: the pair is evaluated in canonical
// order (lower GeomType first, as MuJoCo) and the normals are flipped back so frame[0] always points
// from geom a to geom b. Unsupported pairs (for the options' detector) write nothing; check pair_supported
// when loading a scene.
#include "engine/collision/collide_box.hpp"
#include "engine/collision/collide_box_diffmjx.hpp"
#include "engine/collision/collide_capsule_box.hpp"
#include "engine/collision/collide_convex.hpp"
#include "engine/collision/collide_plane.hpp"
#include "engine/collision/collide_round.hpp"
#include "engine/collision/contact_frame.hpp"
#include "engine/collision/geom_type.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// The DiffMJX detector covers the plane against sphere, box and ellipsoid only: its soft capsule and
// cylinder colliders and its soft body-body pairs differ from the exact ones and are not implemented.
SG_HD inline bool pair_supported(GeomType a, GeomType b, Detector detector = Detector::softgrad) {
  if (b < a) {
    const GeomType t = a;
    a = b;
    b = t;
  }
  // meshes need their hull (collide_mesh.hpp), height fields their elevations (collide_hfield.hpp)
  if (b == GeomType::mesh || b == GeomType::hfield) return false;
  if (detector == Detector::diffmjx)
    return a == GeomType::plane && (b == GeomType::sphere || b == GeomType::box || b == GeomType::ellipsoid);
  if (a == GeomType::plane) return b != GeomType::plane;
  if (convex_pair(a, b)) return true;
  if (a == GeomType::sphere) return b == GeomType::sphere || b == GeomType::capsule || b == GeomType::box;
  if (a == GeomType::box) return b == GeomType::box;
  return a == GeomType::capsule && (b == GeomType::capsule || b == GeomType::box);
}

// A plane geom: its pose z axis is the normal and its position a point on it (MuJoCo).
template <class S>
SG_HD inline Plane<S> plane_from_pose(const Pose<S>& pose) {
  return {pose.pos, rotate(pose.rot, Vec3<S>(S(0.0), S(0.0), S(1.0)))};
}

namespace collide_detail {

// a <= b in GeomType order; sizes are MuJoCo size vectors.
template <class S>
SG_HD inline int collide_ordered(GeomType a, const Pose<S>& pa, const Vec3<S>& sa, GeomType b,
                                 const Pose<S>& pb, const Vec3<S>& sb, const CollisionOptions& opt,
                                 Contact<S>* out) {
  if (a == GeomType::plane) {
    const Plane<S> plane = plane_from_pose(pa);
    switch (b) {
      case GeomType::sphere:
        return collide_plane_sphere(plane, pb, sb.x, opt, out);
      case GeomType::capsule:
        return collide_plane_capsule(plane, pb, sb.x, sb.y, opt, out);
      case GeomType::box:
        if (opt.detector == Detector::diffmjx) return collide_plane_box_diffmjx(plane, pb, sb, opt, out);
        return collide_plane_box(plane, pb, sb, opt, out);
      case GeomType::cylinder:
        return collide_plane_cylinder(plane, pb, sb.x, sb.y, opt, out);
      case GeomType::ellipsoid:
        return collide_plane_ellipsoid(plane, pb, sb, opt, out);
      case GeomType::plane:
      case GeomType::mesh:
      case GeomType::hfield:
        return 0;
    }
    return 0;
  }
  if (a == GeomType::sphere && b == GeomType::sphere)
    return collide_sphere_sphere(pa, sa.x, pb, sb.x, opt, out);
  if (a == GeomType::sphere && b == GeomType::capsule)
    return collide_sphere_capsule(pa, sa.x, pb, sb.x, sb.y, opt, out);
  if (a == GeomType::sphere && b == GeomType::box) return collide_sphere_box(pa, sa.x, pb, sb, opt, out);
  if (a == GeomType::capsule && b == GeomType::capsule)
    return collide_capsule_capsule(pa, sa.x, sa.y, pb, sb.x, sb.y, opt, out);
  if (a == GeomType::capsule && b == GeomType::box)
    return collide_capsule_box(pa, sa.x, sa.y, pb, sb, opt, out);
  if (a == GeomType::box && b == GeomType::box) return collide_box_box(pa, sa, pb, sb, opt, out);
  return 0;
}

}  // namespace collide_detail

// Contacts between geom a and geom b, normals from a to b. Returns the number written to `out`
// (capacity kMaxContactsPerPair); 0 when separated beyond the margin or when the pair is unsupported.
// MPR's pairs run in MuJoCo's type order, which differs from GeomType's (its result depends on the order).
template <class S>
SG_HD inline int collide(GeomType a, const Pose<S>& pose_a, const Vec3<S>& size_a, GeomType b,
                         const Pose<S>& pose_b, const Vec3<S>& size_b, const CollisionOptions& opt,
                         Contact<S>* out) {
  if (!pair_supported(a, b, opt.detector)) return 0;
  const bool convex = convex_pair(a, b);
  const bool swap = convex ? mujoco_geom_type(b) < mujoco_geom_type(a) : b < a;
  if (!swap) {
    if (convex) return collide_convex(a, pose_a, size_a, b, pose_b, size_b, opt, out);
    return collide_detail::collide_ordered(a, pose_a, size_a, b, pose_b, size_b, opt, out);
  }
  const int n = convex ? collide_convex(b, pose_b, size_b, a, pose_a, size_a, opt, out)
                       : collide_detail::collide_ordered(b, pose_b, size_b, a, pose_a, size_a, opt, out);
  for (int i = 0; i < n; ++i)
    make_contact_frame(Vec3<S>(-out[i].frame[0]), smooth_proxies(opt), out[i].frame);
  return n;
}

}  // namespace sg
