#pragma once
// mj_collision for a joint tree (MuJoCo 2.2.2 engine_collision_driver.c): the explicit pairs (<contact>
// <pair>) with their own parameters, then every other geom pair that passes MuJoCo's filter, through
// softgrad's narrow phase (engine/collision/collide.hpp), its contacts with the pair's combined parameters
// (mj_collideGeoms). The broad phase only prunes pairs the bounding spheres reject anyway, so all pairs are
// tried here; contacts come out in this order rather than MuJoCo's body-pair order, which merges the explicit
// pairs in by body pair (compare them by geom pair).
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/geom_kinematics.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/collision/collide.hpp"
#include "engine/collision/collide_hfield.hpp"
#include "engine/collision/collide_mesh.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

namespace tree_collision_detail {

inline constexpr double kMinMu = 1e-5;  // mjMINMU: friction never reaches zero
inline constexpr double kMinVal = 1e-15;

template <class S>
S larger(const S& a, const S& b) {
  return value(a) < value(b) ? b : a;
}
template <class S>
S smaller(const S& a, const S& b) {
  return value(b) < value(a) ? b : a;
}

}  // namespace tree_collision_detail

// Whether the bodies of two geoms are an excluded pair (MuJoCo's exclude_signature, on body ids).
template <class S>
bool tree_bodies_excluded(const TreeConstraintModel<S>& cm, int body1, int body2) {
  const int lo = body1 < body2 ? body1 : body2, hi = body1 < body2 ? body2 : body1;
  for (int e = 0; e < cm.nexclude; ++e)
    if (cm.exclude[e][0] == lo && cm.exclude[e][1] == hi) return true;
  return false;
}

// mj_contactFilter: compatible contype / conaffinity, not welded to one body, and (filterparent) not a
// body and its parent, both measured on the bodies they are welded to; and mj_collision's excluded body
// pairs.
template <class S>
bool tree_geoms_filtered(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, int g1, int g2) {
  const TreeGeom<S>& a = cm.geom[g1];
  const TreeGeom<S>& b = cm.geom[g2];
  if (tree_bodies_excluded(cm, a.body, b.body)) return true;
  if (!(a.contype & b.conaffinity) && !(b.contype & a.conaffinity)) return true;
  const int w1 = tree_weld_id(m, a.body), w2 = tree_weld_id(m, b.body);
  if (w1 == w2) return true;
  if (cm.opt.filterparent && w1 > 0 && w2 > 0) {
    const int p1 = tree_weld_id(m, m.body[w1].parent), p2 = tree_weld_id(m, m.body[w2].parent);
    if (w1 == p2 || w2 == p1) return true;
  }
  return false;
}

// Which pairs opt.collision lets mj_collision test: the explicit ones (all, predefined), the filter's (all,
// dynamic).
template <class S>
bool tree_collides_explicit_pairs(const TreeConstraintModel<S>& cm) {
  return cm.opt.collision != TreeCollisionSet::dynamic;
}
template <class S>
bool tree_collides_filtered_pairs(const TreeConstraintModel<S>& cm) {
  return cm.opt.collision != TreeCollisionSet::predefined;
}

// Whether geoms g1 and g2 (either order) are an explicit pair that collides: the filter's pairs skip them
// (mj_collision's merge, under collision "all"), their contacts come from the pair.
template <class S>
bool tree_explicit_pair(const TreeConstraintModel<S>& cm, int g1, int g2) {
  if (!tree_collides_explicit_pairs(cm)) return false;
  for (int p = 0; p < cm.npair; ++p)
    if ((cm.pair[p].geom1 == g1 && cm.pair[p].geom2 == g2) ||
        (cm.pair[p].geom1 == g2 && cm.pair[p].geom2 == g1))
      return true;
  return false;
}

// Whether the narrow phase collides the pair: the primitives' colliders and, on trees, meshes and height
// fields.
inline bool tree_pair_supported(GeomType a, GeomType b, Detector detector) {
  return pair_supported(a, b, detector) || mesh_pair_supported(a, b, detector) ||
         hfield_pair_supported(a, b, detector);
}

// Pairs MuJoCo has no collider for either (mjCOLLISIONFUNC's empty entries): plane-plane, and a height field
// against a plane or a height field. They are never collided and never refused.
inline bool tree_pair_without_collider(GeomType a, GeomType b) {
  const bool flat_a = a == GeomType::plane || a == GeomType::hfield;
  const bool flat_b = b == GeomType::plane || b == GeomType::hfield;
  return flat_a && flat_b;
}

// The first pair that passes the filter, or is an explicit pair, but that softgrad's narrow phase does not
// handle (its index in *g1, *g2), or false if every such pair is supported. Plane-plane pairs have no
// collider in MuJoCo either.
template <class S>
bool tree_unsupported_pair(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, int* g1, int* g2) {
  for (int p = 0; p < (tree_collides_explicit_pairs(cm) ? cm.npair : 0); ++p) {
    const int a = cm.pair[p].geom1, b = cm.pair[p].geom2;
    const GeomType ta = cm.geom[a].type, tb = cm.geom[b].type;
    if (tree_pair_without_collider(ta, tb) || tree_pair_supported(ta, tb, cm.opt.detector)) continue;
    *g1 = a, *g2 = b;
    return true;
  }
  for (int i = 0; i < (tree_collides_filtered_pairs(cm) ? cm.ngeom : 0); ++i)
    for (int j = i + 1; j < cm.ngeom; ++j) {
      const GeomType a = cm.geom[i].type, b = cm.geom[j].type;
      if (tree_pair_without_collider(a, b)) continue;
      if (tree_geoms_filtered(m, cm, i, j) || tree_pair_supported(a, b, cm.opt.detector)) continue;
      *g1 = i, *g2 = j;
      return true;
    }
  return false;
}

// mj_collideGeoms' parameter mixing: priority wins, else condim and friction by maximum, solref and solimp
// by the solmix weights (solref by minimum when either is in the direct, negative format).
template <class S>
void tree_mix_contact_params(const TreeGeom<S>& a, const TreeGeom<S>& b, TreeContact<S>& c) {
  using namespace tree_collision_detail;
  S friction[3];
  if (a.priority != b.priority) {
    const TreeGeom<S>& p = a.priority > b.priority ? a : b;
    c.dim = p.condim;
    for (int i = 0; i < 3; ++i) friction[i] = p.friction[i];
    for (int i = 0; i < 2; ++i) c.solref[i] = p.solref[i];
    for (int i = 0; i < 5; ++i) c.solimp[i] = p.solimp[i];
  } else {
    c.dim = a.condim > b.condim ? a.condim : b.condim;
    for (int i = 0; i < 3; ++i) friction[i] = larger(a.friction[i], b.friction[i]);
    const bool wa = value(a.solmix) >= kMinVal, wb = value(b.solmix) >= kMinVal;
    const S mix = wa && wb ? S(a.solmix / (a.solmix + b.solmix)) : S(wa ? 1.0 : (wb ? 0.0 : 0.5));
    const bool standard = value(a.solref[0]) > 0.0 && value(b.solref[0]) > 0.0;
    for (int i = 0; i < 2; ++i)
      c.solref[i] =
          standard ? S(mix * a.solref[i] + (1.0 - mix) * b.solref[i]) : smaller(a.solref[i], b.solref[i]);
    for (int i = 0; i < 5; ++i) c.solimp[i] = a.solimp[i] * mix + b.solimp[i] * (1.0 - mix);
  }
  // 5-d friction: two tangential, one torsional, two rolling; each at least mjMINMU.
  const S five[5] = {friction[0], friction[0], friction[1], friction[2], friction[2]};
  for (int i = 0; i < 5; ++i) c.friction[i] = larger(five[i], S(kMinMu));
}

// An explicit pair's own parameters (mj_collideGeoms with a pair): its condim, 5-d friction (each at least
// mjMINMU), solref and solimp.
template <class S>
void tree_pair_contact_params(const TreePair<S>& p, TreeContact<S>& c) {
  c.dim = p.condim;
  for (int i = 0; i < 5; ++i)
    c.friction[i] = tree_collision_detail::larger(p.friction[i], S(tree_collision_detail::kMinMu));
  for (int i = 0; i < 2; ++i) c.solref[i] = p.solref[i];
  for (int i = 0; i < 5; ++i) c.solimp[i] = p.solimp[i];
}

// Bounding-sphere rejection before the narrow phase (mj_collideGeoms): centres farther apart than the radii
// and the margin, or a geom entirely above a plane by more than its radius and the margin.
// A filter, so on values: no derivative work (or tape nodes) for the many pairs it rejects.
template <class S>
bool tree_bounds_separated(const TreeConstraintModel<S>& cm, const TreeConstraintData<S>& cd, int g1, int g2,
                           double margin) {
  const auto at = [&](int g) {
    return Vec3<double>(value(cd.geom_xpos[g].x), value(cd.geom_xpos[g].y), value(cd.geom_xpos[g].z));
  };
  const double r1 = value(cm.geom[g1].rbound), r2 = value(cm.geom[g2].rbound);
  if (r1 > 0.0 && r2 > 0.0 && norm(at(g1) - at(g2)) > r1 + r2 + margin) return true;
  auto above = [&](int plane, int other, double r) {
    const Mat3<S>& R = cd.geom_xmat[plane];
    const Vec3<double> n(value(R.m[0][2]), value(R.m[1][2]), value(R.m[2][2]));
    return r > 0.0 && dot(at(other) - at(plane), n) > margin + r;
  };
  if (cm.geom[g1].type == GeomType::plane && above(g1, g2, r2)) return true;
  if (cm.geom[g2].type == GeomType::plane && above(g2, g1, r1)) return true;
  return false;
}

// Box-box may report one point twice; MuJoCo keeps the last of equal positions.
template <class S>
int tree_drop_repeated(Contact<S>* con, int num) {
  int kept = 0;
  for (int i = 0; i < num; ++i) {
    bool repeated = false;
    for (int j = i + 1; j < num && !repeated; ++j)
      repeated = value(con[i].pos.x) == value(con[j].pos.x) && value(con[i].pos.y) == value(con[j].pos.y) &&
                 value(con[i].pos.z) == value(con[j].pos.z);
    if (!repeated) con[kept++] = con[i];
  }
  return kept;
}

// MuJoCo's plane-capsule contacts seed the tangent frame with the capsule's axis (mjc_PlaneCapsule) rather
// than mju_makeFrame's fixed (0, 1, 0): the pyramid's edges turn with the capsule.
template <class S>
void tree_align_frame(const Vec3<S>& seed, Vec3<S>* frame) {
  Vec3<S> t = seed - frame[0] * dot(frame[0], seed);
  const S n = norm(t);
  t = value(n) < 1e-15 ? Vec3<S>(S(1.0), S(0.0), S(0.0)) : Vec3<S>(t / n);
  frame[1] = t;
  frame[2] = cross(frame[0], t);
}

// The narrow phase of one pair at the geoms' current frames: contacts within its margin plus the band.
template <class S>
int tree_narrow_phase(const TreeConstraintModel<S>& cm, const TreeConstraintData<S>& cd, int g1, int g2,
                      double margin, double band, Contact<S>* con, int capacity) {
  const TreeGeom<S>& a = cm.geom[g1];
  const TreeGeom<S>& b = cm.geom[g2];
  CollisionOptions opt;
  opt.margin = margin + band;
  opt.pair_margin = margin;
  opt.softness = cm.opt.collision_softness;
  opt.detector = cm.opt.detector;
  opt.mujoco_sphere_in_box = true;
  const Pose<S> pa{cd.geom_xpos[g1], cd.geom_xquat[g1], &cd.geom_xmat[g1]};
  const Pose<S> pb{cd.geom_xpos[g2], cd.geom_xquat[g2], &cd.geom_xmat[g2]};
  if (a.type == GeomType::hfield && a.hfield)  // MuJoCo's order puts the field first
    return collide_hfield(pa, a.hfield->field, b.type, pb, b.size, b.mesh ? &b.mesh->hull : nullptr,
                          value(b.rbound), opt, con, capacity);
  if (a.type == GeomType::hfield || b.type == GeomType::hfield) return 0;  // a field without its grid
  if (a.type == GeomType::mesh || b.type == GeomType::mesh)
    return collide_mesh(a.type, pa, a.size, a.mesh ? &a.mesh->hull : nullptr, b.type, pb, b.size,
                        b.mesh ? &b.mesh->hull : nullptr, opt, con);
  const int num = collide(a.type, pa, a.size, b.type, pb, b.size, opt, con);
  return a.type == GeomType::box && b.type == GeomType::box ? tree_drop_repeated(con, num) : num;
}

// The contacts of one pair that passed the bounds test (tree_collide_pair), found in `con` (room for
// `capacity`) and appended to cd.contact with their parameters.
template <class S>
void tree_pair_contacts(const TreeConstraintModel<S>& cm, const TreeData<S>& d, TreeConstraintData<S>& cd,
                        int g1, int g2, bool* taped, double band, const TreePair<S>* explicit_pair,
                        const S& margin, const S& gap, Contact<S>* con, int capacity) {
  const TreeGeom<S>& a = cm.geom[g1];
  const TreeGeom<S>& b = cm.geom[g2];
  int num;
  {
    const TapePause<S> values(true);
    num = tree_narrow_phase(cm, cd, g1, g2, value(margin), band, con, capacity);
  }
  if (num == 0) return;
  if constexpr (is_reverse_v<S>) {
    for (int g : {g1, g2})
      if (!taped[g]) tree_geom_frame(cm, d, cd, g), taped[g] = true;
    num = tree_narrow_phase(cm, cd, g1, g2, value(margin), band, con, capacity);
  } else {
    (void)d, (void)taped;
  }
  for (int i = 0; i < num; ++i) {
    if (cd.ncon >= kMaxTreeContacts) {
      cd.overflow = true;
      return;
    }
    TreeContact<S>& c = cd.contact[cd.ncon++];
    c = TreeContact<S>{};
    c.geom1 = g1, c.geom2 = g2;
    c.feature = con[i].feature;
    c.dist = con[i].dist;
    c.pos = con[i].pos;
    for (int k = 0; k < 3; ++k) c.frame[k] = con[i].frame[k];
    if (a.type == GeomType::plane && b.type == GeomType::capsule)
      tree_align_frame(cd.geom_xmat[g2].col(2), c.frame);
    if (explicit_pair)
      tree_pair_contact_params(*explicit_pair, c);
    else
      tree_mix_contact_params(a, b, c);
    c.includemargin = margin - gap;
    c.exclude = !(value(c.dist) < value(c.includemargin));  // inside the gap: detected, but no rows
  }
}

// One geom pair (g1 before g2 in MuJoCo's type order): narrow phase, then the contacts with their pair
// parameters appended to cd.contact. On a tape the narrow phase first runs on values: only a pair that
// touches is recorded, after its geoms' frames are (once per evaluation: `taped`, tree_geom_kinematics).
// band: how far beyond the pair's margin contacts are reported (a frozen contact mode's look-ahead; such
// contacts are excluded from MuJoCo's rows). explicit_pair: the <pair> whose margin, gap and parameters the
// contacts take, else the geoms' (combined). A height field's pair gets room for MuJoCo's 50 contacts, the
// others for 8 (the buffer is filled with zeros on every call: no larger than needed).
template <class S>
void tree_collide_pair(const TreeConstraintModel<S>& cm, const TreeData<S>& d, TreeConstraintData<S>& cd,
                       int g1, int g2, bool* taped, double band = 0.0,
                       const TreePair<S>* explicit_pair = nullptr) {
  const TreeGeom<S>& a = cm.geom[g1];
  const TreeGeom<S>& b = cm.geom[g2];
  const S margin = explicit_pair ? explicit_pair->margin : tree_collision_detail::larger(a.margin, b.margin);
  const S gap = explicit_pair ? explicit_pair->gap : tree_collision_detail::larger(a.gap, b.gap);
  if (tree_bounds_separated(cm, cd, g1, g2, value(margin) + band)) return;
  if (a.type == GeomType::hfield) {
    Contact<S> con[kMaxHFieldContacts];
    tree_pair_contacts(cm, d, cd, g1, g2, taped, band, explicit_pair, margin, gap, con, kMaxHFieldContacts);
  } else {
    Contact<S> con[kMaxContactsPerPair];
    tree_pair_contacts(cm, d, cd, g1, g2, taped, band, explicit_pair, margin, gap, con, kMaxContactsPerPair);
  }
}

// Whether filtered pair i < j runs as (j, i) in MuJoCo's order: the lower mjtGeom type first, and two geoms
// of one type by geom id, which is by body (the world's geoms first, where the tree lists them last) and then
// by their order on it. MPR's result depends on that order, so the equal-type pairs it collides (ellipsoids,
// cylinders, meshes) follow it; the other colliders' are symmetric and keep the tree's order.
template <class S>
bool tree_pair_swapped(const TreeConstraintModel<S>& cm, int i, int j) {
  const GeomType a = cm.geom[i].type, b = cm.geom[j].type;
  if (a != b) return mujoco_geom_type(b) < mujoco_geom_type(a);
  const bool mpr = a == GeomType::ellipsoid || a == GeomType::cylinder || a == GeomType::mesh;
  return mpr && cm.geom[j].body < cm.geom[i].body;
}

// The explicit pairs, then every other pair MuJoCo's filter lets through (as opt.collision has them), whether
// or not the options switch contacts on (hard contact collects its own): cd.geom_* must be current
// (tree_geom_kinematics of the kinematics in d). band: see tree_collide_pair.
template <class S>
void tree_collide_geoms(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                        TreeConstraintData<S>& cd, double band = 0.0) {
  cd.ncon = 0;
  cd.overflow = false;
  bool taped[kMaxTreeGeoms] = {};
  const int npair = tree_collides_explicit_pairs(cm) ? cm.npair : 0;
  for (int p = 0; p < npair; ++p) {  // in MuJoCo's type order; equal types as the pair names them
    const TreePair<S>& pair = cm.pair[p];
    const bool swap = mujoco_geom_type(cm.geom[pair.geom2].type) < mujoco_geom_type(cm.geom[pair.geom1].type);
    tree_collide_pair(cm, d, cd, swap ? pair.geom2 : pair.geom1, swap ? pair.geom1 : pair.geom2, taped, band,
                      &pair);
  }
  if (!tree_collides_filtered_pairs(cm)) return;
  for (int i = 0; i < cm.ngeom; ++i)
    for (int j = i + 1; j < cm.ngeom; ++j) {
      if (tree_geoms_filtered(m, cm, i, j) || tree_explicit_pair(cm, i, j)) continue;
      const bool swap = tree_pair_swapped(cm, i, j);
      tree_collide_pair(cm, d, cd, swap ? j : i, swap ? i : j, taped, band);
    }
}

// mj_collision: MuJoCo's contacts when the options switch them on, else none.
template <class S>
void tree_collision(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                    TreeConstraintData<S>& cd, double band = 0.0) {
  cd.ncon = 0;
  cd.overflow = false;
  if (cm.opt.contact) tree_collide_geoms(m, cm, d, cd, band);
}

// How far beyond its margin a Contacts From Distance stage collects contacts: the CFD width.
template <class S>
double tree_cfd_band(const TreeConstraintModel<S>& cm) {
  const double width = value(cm.cfd.solimp[2]);
  return width > 0.0 ? width : 0.0;
}

// Contacts From Distance's laws for the contacts tree_collision reported out to tree_cfd_band: rows for
// every contact closer than its margin plus the width (the separated ones with the CFD spline's
// impedance), none for the others.
template <class S>
void tree_cfd_laws(const TreeConstraintModel<S>& cm, TreeConstraintData<S>& cd) {
  const double width = tree_cfd_band(cm);
  for (int i = 0; i < cd.ncon; ++i) {
    TreeContact<S>& c = cd.contact[i];
    c.exclude = !law_at(value(c.dist) - value(c.includemargin), true, width, &c.law);
  }
}

// The contacts of one mj_forward: MuJoCo's (cfd false), or those of a Contacts From Distance stage.
template <class S>
void tree_collide(const TreeModel<S>& m, const TreeConstraintModel<S>& cm, const TreeData<S>& d,
                  TreeConstraintData<S>& cd, bool cfd) {
  tree_collision(m, cm, d, cd, cfd ? tree_cfd_band(cm) : 0.0);
  if (cfd) tree_cfd_laws(cm, cd);
}

}  // namespace sg
