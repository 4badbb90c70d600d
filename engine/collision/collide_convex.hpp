#pragma once
// The pairs MuJoCo 2.2.2 has no primitive collider for (mjCOLLISIONFUNC's mjc_Convex entries among the
// primitives: an ellipsoid or a cylinder against a sphere, capsule, ellipsoid, cylinder or box), collided as
// mjc_Convex does without the multiccd flag: one contact from MPR (mpr.hpp), its normal fixed for round
// geoms (fix_normal.hpp). MPR stops at a tolerance (MuJoCo's 1e-6 m), so the depth is that accurate, and its
// derivative is that of the final portal. The smooth detector has no proxy for these pairs: they stay exact.
#include "engine/collision/contact_frame.hpp"
#include "engine/collision/convex_support.hpp"
#include "engine/collision/fix_normal.hpp"
#include "engine/collision/mpr.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// mjtGeom's numbering, which orders a pair (the lower type is geom 1).
SG_HD inline int mujoco_geom_type(GeomType t) {
  switch (t) {
    case GeomType::plane:
      return 0;
    case GeomType::hfield:
      return 1;
    case GeomType::sphere:
      return 2;
    case GeomType::capsule:
      return 3;
    case GeomType::ellipsoid:
      return 4;
    case GeomType::cylinder:
      return 5;
    case GeomType::box:
      return 6;
    case GeomType::mesh:
      return 7;
  }
  return 7;
}

// Whether MuJoCo collides the pair with mjc_Convex.
SG_HD inline bool convex_pair(GeomType a, GeomType b) {
  if (a == GeomType::plane || b == GeomType::plane) return false;
  return a == GeomType::ellipsoid || b == GeomType::ellipsoid || a == GeomType::cylinder ||
         b == GeomType::cylinder;
}

namespace convex_detail {

// One MPR contact with both geoms grown by half of `margin` each: mjc_MPRIteration.
template <class S>
SG_HD inline int mpr_contact(const ConvexGeom<S>& g1, const ConvexGeom<S>& g2, double margin,
                             const CollisionOptions& opt, Contact<S>* out) {
  MprResult<S> r;
  if (!mpr_penetration(g1, g2, opt.mpr, &r) || mpr_detail::is_origin(r.dir)) return 0;
  out->feature = 0;
  out->dist = margin - r.depth;
  out->pos = r.pos;
  make_contact_frame(fix_contact_normal(g1, g2, r.pos, r.dir), smooth_proxies(opt), out->frame);
  return 1;
}

}  // namespace convex_detail

// mjc_Convex on geom 1 and geom 2 in MuJoCo's order (mujoco_geom_type(a) <= mujoco_geom_type(b)): at most one
// contact, normal from geom 1 to geom 2. With a look-ahead band (opt.pair_margin below opt.margin) the pair
// is first collided at its own margin, MuJoCo's result; only if that finds nothing, grown by the band. A band
// contact (CFD's law) is never deeper than the own margin, where MPR's tolerance could put it. The geoms'
// margins are set here.
template <class S>
SG_HD inline int collide_convex_geoms(ConvexGeom<S> g1, ConvexGeom<S> g2, const CollisionOptions& opt,
                                      Contact<S>* out) {
  const bool band = opt.pair_margin >= 0.0 && opt.pair_margin < opt.margin;
  const double own = band ? opt.pair_margin : opt.margin;
  g1.margin = g2.margin = own;
  const int found = convex_detail::mpr_contact(g1, g2, own, opt, out);
  if (found || !band) return found;
  g1.margin = g2.margin = opt.margin;
  if (!convex_detail::mpr_contact(g1, g2, opt.margin, opt, out)) return 0;
  if (value(out->dist) < own) out->dist = S(own);
  return 1;
}

template <class S>
SG_HD inline int collide_convex(GeomType a, const Pose<S>& pa, const Vec3<S>& sa, GeomType b,
                                const Pose<S>& pb, const Vec3<S>& sb, const CollisionOptions& opt,
                                Contact<S>* out) {
  return collide_convex_geoms(convex_geom(a, pa, sa, 0.0), convex_geom(b, pb, sb, 0.0), opt, out);
}

}  // namespace sg
