#pragma once
// Mesh geoms, collided as MuJoCo 2.2.2 collides them: as their convex hull (ConvexMesh). A plane against a
// mesh is mjc_PlaneConvex: the hull's deepest vertex, then up to two more of its hull neighbours within the
// margin (all vertices without a hull graph), each at least 0.3 rbound from the first contact. Any other
// geom against a mesh, and mesh against mesh, is mjc_Convex: one contact from MPR (collide_convex.hpp).
// Only the joint trees have meshes; the free bodies' dispatch (collide.hpp) refuses them.
#include "engine/collision/collide_convex.hpp"
#include "engine/collision/contact_frame.hpp"
#include "engine/collision/convex_mesh.hpp"
#include "engine/collision/convex_support.hpp"
#include "engine/collision/geom_type.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Whether collide_mesh takes the pair: a mesh against anything but a plane pair, with the exact detector
// (softgrad's; its smooth proxies have none for meshes, so meshes stay exact at any softness).
SG_HD inline bool mesh_pair_supported(GeomType a, GeomType b, Detector detector) {
  if (a != GeomType::mesh && b != GeomType::mesh) return false;
  return detector == Detector::softgrad;
}

namespace mesh_detail {

inline constexpr int kMaxPlaneMesh = 3;          // maxplanemesh: contacts per plane-mesh pair
inline constexpr double kPlaneMeshSpread = 0.3;  // tolplanemesh: extra contacts this many rbounds apart

template <class S>
SG_HD inline void write_contact(const S& dist, const Vec3<S>& point, const Vec3<S>& normal, int feature,
                                const CollisionOptions& opt, Contact<S>* out) {
  out->feature = feature;
  out->dist = dist;
  out->pos = point - normal * (dist * 0.5);
  make_contact_frame(normal, smooth_proxies(opt), out->frame);
}

// addplanemesh: vertex v of the mesh as a contact unless it is within the spread of the first one.
template <class S>
SG_HD inline int add_vertex(const ConvexGeom<S>& g, int v, const Vec3<S>& plane_pos, const Vec3<S>& normal,
                            double rbound, const CollisionOptions& opt, Contact<S>* first, Contact<S>* out) {
  const Vec3<S> pnt = g.rot * mesh_vertex<S>(*g.mesh, v) + g.pos;
  if (value(norm(pnt - first->pos)) < kPlaneMeshSpread * rbound) return 0;
  write_contact(S(dot(normal, pnt - plane_pos)), pnt, normal, v, opt, out);
  return 1;
}

// mjc_PlaneConvex for a mesh at one margin.
template <class S>
SG_HD inline int plane_mesh(const Pose<S>& plane, const ConvexGeom<S>& g, double rbound, double margin,
                            const CollisionOptions& opt, Contact<S>* out) {
  const Vec3<S> normal = rotation_matrix(plane).col(2);
  const Vec3<S> local = to_local_frame(g.rot, Vec3<S>(-normal));
  int hull = -1;
  const int deepest = mesh_support_vertex(*g.mesh, local, &hull);
  const Vec3<S> vec = g.rot * mesh_vertex<S>(*g.mesh, deepest) + g.pos;
  const S dist = dot(normal, vec - plane.pos);
  if (value(dist) > margin) return 0;
  write_contact(dist, vec, normal, deepest, opt, out);
  int count = 1;
  const ConvexMesh& m = *g.mesh;
  if (deepest < 0) return count;
  const double threshold = value(dot(normal, g.pos - plane.pos)) - margin;
  const auto below = [&](int v) { return convex_mesh_detail::along(m, v, local) > threshold; };
  if (m.hull_nvert == 0) {
    for (int i = 0; i < m.nvert && count < kMaxPlaneMesh; ++i)
      if (below(i) && i != hull) count += add_vertex(g, i, plane.pos, normal, rbound, opt, out, out + count);
    return count;
  }
  for (int e = m.vert_edgeadr[hull]; m.edge_localid[e] >= 0 && count < kMaxPlaneMesh; ++e) {
    const int v = m.vert_globalid[m.edge_localid[e]];
    if (below(v)) count += add_vertex(g, v, plane.pos, normal, rbound, opt, out, out + count);
  }
  return count;
}

// Geom 1 before geom 2 in MuJoCo's type order (the mesh last).
template <class S>
SG_HD inline int collide_mesh_ordered(const ConvexGeom<S>& g1, const ConvexGeom<S>& g2,
                                      const CollisionOptions& opt, Contact<S>* out) {
  if (g1.type != GeomType::plane) return collide_convex_geoms(g1, g2, opt, out);
  const Pose<S> plane{g1.pos, Quat<S>{}, &g1.rot};
  const double rbound = g2.mesh->rbound;  // from the mesh, not the size: a swept size changes nothing
  const bool band = opt.pair_margin >= 0.0 && opt.pair_margin < opt.margin;
  const int found = plane_mesh(plane, g2, rbound, band ? opt.pair_margin : opt.margin, opt, out);
  if (found || !band) return found;
  return plane_mesh(plane, g2, rbound, opt.margin, opt, out);
}

}  // namespace mesh_detail

// Contacts between geom a and geom b (one of them a mesh, its hull in mesh_a or mesh_b), normals from a to b.
template <class S>
SG_HD inline int collide_mesh(GeomType a, const Pose<S>& pa, const Vec3<S>& sa, const ConvexMesh* mesh_a,
                              GeomType b, const Pose<S>& pb, const Vec3<S>& sb, const ConvexMesh* mesh_b,
                              const CollisionOptions& opt, Contact<S>* out) {
  if (!mesh_pair_supported(a, b, opt.detector)) return 0;
  ConvexGeom<S> ga = convex_geom(a, pa, sa, 0.0), gb = convex_geom(b, pb, sb, 0.0);
  ga.mesh = mesh_a, gb.mesh = mesh_b;
  if ((a == GeomType::mesh && !mesh_a) || (b == GeomType::mesh && !mesh_b)) return 0;
  if (mujoco_geom_type(a) <= mujoco_geom_type(b)) return mesh_detail::collide_mesh_ordered(ga, gb, opt, out);
  const int n = mesh_detail::collide_mesh_ordered(gb, ga, opt, out);
  for (int i = 0; i < n; ++i)
    make_contact_frame(Vec3<S>(-out[i].frame[0]), smooth_proxies(opt), out[i].frame);
  return n;
}

}  // namespace sg
