#pragma once
// Sites and tendons on a TreeModel, as MuJoCo 2.2.2's mjModel describes them (site_*, tendon_*, wrap_*):
// a fixed tendon is a linear combination of joint coordinates; a spatial tendon is a path of sites, with a
// sphere or cylinder geom between two of them to wrap around (optionally on the side of a side site). The
// wrap geoms are copied here (body, frame in the body, radius) so that the tendon stage needs nothing from
// the constraint model. A separate struct, as the actuators are: models without tendons are unchanged.
#include "engine/articulated/tree_model.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr int kMaxSites = 64;
inline constexpr int kMaxTendons = 32;
inline constexpr int kMaxWrapObjects = 128;  // path entries of all tendons
inline constexpr int kMaxWrapGeoms = 32;

template <class S>
struct TreeSite {
  int body = 0;  // tree body (0: the world)
  Vec3<S> pos{};
  Quat<S> quat{};  // its frame in the body's (a slider-crank's slider site slides along the frame's z axis)
};

// A sphere or cylinder (radius size[0], along its z axis) that a spatial tendon wraps around: a copy of the
// constraint model's geom `source`, refreshed from it by each run (tree_sync_wrap_geoms), so that a seeded or
// swept geom size or position reaches the tendon.
template <class S>
struct TreeWrapGeom {
  int source = -1;
  bool cylinder = false;
  int body = 0;
  Vec3<S> pos{};
  Quat<S> quat{};
  S radius{};
};

// One entry of a tendon's path (MuJoCo's wrap_type, wrap_objid, wrap_prm): a joint with its coefficient
// (fixed tendons), a site, a wrap geom with its side site (-1: none), or a pulley whose divisor (in coef)
// divides the lengths of the path's branches after it.
enum class WrapKind : int { kJoint, kSite, kGeom, kPulley };

template <class S>
struct TreeWrap {
  WrapKind kind = WrapKind::kSite;
  int id = 0;         // joint, site or wrap geom index
  int sidesite = -1;  // kGeom only
  S coef = S(1.0);    // kJoint: the coefficient; kPulley: the divisor
};

template <class S>
struct TreeTendon {
  bool spatial = true;
  int adr = 0, num = 0;  // its entries in TreeTendonModel::wrap
  S stiffness{}, damping{}, lengthspring{};
};

template <class S>
struct TreeTendonModel {
  int nsite = 0, ntendon = 0, nwrap = 0, ngeom = 0;
  TreeSite<S> site[kMaxSites];
  TreeTendon<S> tendon[kMaxTendons];
  TreeWrap<S> wrap[kMaxWrapObjects];
  TreeWrapGeom<S> geom[kMaxWrapGeoms];
};

// The same sites and tendons over another scalar, values only.
template <class T, class S>
void tree_tendon_convert(const TreeTendonModel<S>& in, TreeTendonModel<T>& out) {
  out.nsite = in.nsite, out.ntendon = in.ntendon, out.nwrap = in.nwrap, out.ngeom = in.ngeom;
  for (int i = 0; i < in.nsite; ++i) {
    const TreeSite<S>& a = in.site[i];
    out.site[i].body = a.body;
    for (int k = 0; k < 3; ++k) out.site[i].pos[k] = T(value(a.pos[k]));
    out.site[i].quat =
        Quat<T>{T(value(a.quat.w)), T(value(a.quat.x)), T(value(a.quat.y)), T(value(a.quat.z))};
  }
  for (int i = 0; i < in.ntendon; ++i) {
    const TreeTendon<S>& a = in.tendon[i];
    out.tendon[i] = TreeTendon<T>{
        a.spatial, a.adr, a.num, T(value(a.stiffness)), T(value(a.damping)), T(value(a.lengthspring))};
  }
  for (int i = 0; i < in.nwrap; ++i) {
    const TreeWrap<S>& a = in.wrap[i];
    out.wrap[i] = TreeWrap<T>{a.kind, a.id, a.sidesite, T(value(a.coef))};
  }
  for (int i = 0; i < in.ngeom; ++i) {
    const TreeWrapGeom<S>& a = in.geom[i];
    TreeWrapGeom<T>& b = out.geom[i];
    b.source = a.source, b.cylinder = a.cylinder, b.body = a.body, b.radius = T(value(a.radius));
    for (int k = 0; k < 3; ++k) b.pos[k] = T(value(a.pos[k]));
    b.quat = Quat<T>{T(value(a.quat.w)), T(value(a.quat.x)), T(value(a.quat.y)), T(value(a.quat.z))};
  }
}

}  // namespace sg
