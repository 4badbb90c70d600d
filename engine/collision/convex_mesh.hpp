#pragma once
// A mesh geom as the colliders see it: MuJoCo 2.2.2 collides a mesh as its convex hull, through the hull's
// support function (mjccd_support's mjGEOM_MESH case, engine_collision_convex.c). The vertices are in the
// geom's frame, as MuJoCo's compiler leaves them (centred at the mesh's centre of volume, turned to its
// principal axes: mesh_vert, single precision widened to double). The hull graph (mesh_graph) lets the
// support walk uphill from vertex to neighbour; without one every vertex is tried, as MuJoCo does for a mesh
// compiled without a hull. Both pick the same vertex as MuJoCo, ties included. Plain pointers into data the
// model owns for the whole run (engine/model/tree_meshes.hpp), so that the step allocates nothing.
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

struct ConvexMesh {
  int nvert = 0;
  const double* vert = nullptr;  // 3 nvert: the vertices in the geom frame
  double rbound = 0.0;           // MuJoCo's geom_rbound: the length of the vertices' aabb
  // MuJoCo's mesh_graph without its two counts: hull_nvert hull vertices, each one's first entry in
  // edge_localid (vert_edgeadr), its index in vert (vert_globalid), and per hull vertex its neighbours' hull
  // indices ending with -1 (edge_localid). hull_nvert 0: no graph.
  int hull_nvert = 0;
  const int* vert_edgeadr = nullptr;
  const int* vert_globalid = nullptr;
  const int* edge_localid = nullptr;
};

namespace convex_mesh_detail {

template <class S>
SG_HD inline double along(const ConvexMesh& m, int v, const Vec3<S>& d) {
  const double* p = m.vert + 3 * v;
  return value(d.x) * p[0] + value(d.y) * p[1] + value(d.z) * p[2];
}

}  // namespace convex_mesh_detail

// The index in m.vert of the vertex farthest along the local direction d; *hull_index gets its hull index
// (MuJoCo's meshindex: the vertex's own index without a graph).
template <class S>
SG_HD inline int mesh_support_vertex(const ConvexMesh& m, const Vec3<S>& d, int* hull_index = nullptr) {
  using convex_mesh_detail::along;
  if (m.hull_nvert == 0) {
    int best = -1;
    double top = -1e10;
    for (int i = 0; i < m.nvert; ++i) {
      const double v = along(m, i, d);
      if (v > top) top = v, best = i;
    }
    if (hull_index) *hull_index = best;
    return best;
  }
  // hill-climb: each move strictly raises the value, so the walk ends
  int best = 0;
  double top = along(m, m.vert_globalid[0], d);
  for (bool moved = true; moved;) {
    moved = false;
    for (int e = m.vert_edgeadr[best]; m.edge_localid[e] >= 0; ++e) {
      const int next = m.edge_localid[e];
      const double v = along(m, m.vert_globalid[next], d);
      if (v > top) top = v, best = next, moved = true;
    }
  }
  if (hull_index) *hull_index = best;
  return m.vert_globalid[best];
}

// Vertex v in the geom frame, as the scalar type.
template <class S>
SG_HD inline Vec3<S> mesh_vertex(const ConvexMesh& m, int v) {
  if (v < 0) return Vec3<S>{};  // an empty mesh: MuJoCo's "could not find support vertex" gives the origin
  const double* p = m.vert + 3 * v;
  return Vec3<S>(S(p[0]), S(p[1]), S(p[2]));
}

}  // namespace sg
