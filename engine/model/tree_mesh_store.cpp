#include "engine/model/tree_mesh_store.hpp"

#include <cmath>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace sg {
namespace {

std::invalid_argument bad(const std::string& path, const std::string& why) {
  return std::invalid_argument(path + ": " + why);
}

void check_vertices(const std::string& path, const std::vector<double>& vert) {
  if (vert.size() % 3 != 0)
    throw bad(path + ".vertices", "3 numbers per vertex, not " + std::to_string(vert.size()));
  if (vert.size() < 12) throw bad(path + ".vertices", "at least 4 vertices (MuJoCo's rule)");
  for (double v : vert)
    if (!std::isfinite(v)) throw bad(path + ".vertices", "not a finite number");
}

void check_faces(const std::string& path, const std::vector<int>& face, int nvert) {
  if (face.size() % 3 != 0) throw bad(path + ".faces", "3 vertex indices per triangle");
  for (std::size_t i = 0; i < face.size(); ++i)
    if (face[i] < 0 || face[i] >= nvert)
      throw bad(path + ".faces." + std::to_string(i),
                "vertex " + std::to_string(face[i]) + " of " + std::to_string(nvert));
}

// MuJoCo's mesh_graph: numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert],
// edge_localid[numvert + 3 numface] (each vertex's neighbours, -1 ended), face_globalid[3 numface].
void check_graph(const std::string& at, const std::vector<int>& g, int nvert) {
  if (g.empty()) return;
  const std::string path = at + ".graph";
  if (g.size() < 2 || g[0] < 4 || g[0] > nvert || g[1] < 0)
    throw bad(path, "starts with the hull's vertex count (4 to the mesh's) and face count");
  const long hv = g[0], hf = g[1], nedge = hv + 3 * hf;
  if (static_cast<long>(g.size()) != 2 + 2 * hv + nedge + 3 * hf)
    throw bad(path, std::to_string(g.size()) + " numbers where the counts make " +
                        std::to_string(2 + 2 * hv + nedge + 3 * hf));
  const int* edgeadr = g.data() + 2;
  const int* globalid = edgeadr + hv;
  const int* local = globalid + hv;
  for (long i = 0; i < hv; ++i) {
    if (globalid[i] < 0 || globalid[i] >= nvert) throw bad(path, "a hull vertex outside the mesh");
    if (edgeadr[i] < 0 || edgeadr[i] >= nedge) throw bad(path, "a neighbour list outside the edges");
    long e = edgeadr[i];
    while (e < nedge && local[e] >= 0) {
      if (local[e] >= hv) throw bad(path, "a neighbour outside the hull");
      ++e;
    }
    if (e == nedge) throw bad(path, "a neighbour list without its closing -1");
  }
}

void point_hull(TreeMesh& m) {
  m.hull.nvert = static_cast<int>(m.vert.size() / 3);
  m.hull.vert = m.vert.data();
  if (m.graph.empty()) return;
  m.hull.hull_nvert = m.graph[0];
  m.hull.vert_edgeadr = m.graph.data() + 2;
  m.hull.vert_globalid = m.hull.vert_edgeadr + m.graph[0];
  m.hull.edge_localid = m.hull.vert_globalid + m.graph[0];
}

}  // namespace

const TreeMesh* keep_tree_mesh(const std::string& path, const std::string& name, std::vector<double> vert,
                               std::vector<int> face, std::vector<int> graph) {
  check_vertices(path, vert);
  const int nvert = static_cast<int>(vert.size() / 3);
  check_faces(path, face, nvert);
  check_graph(path, graph, nvert);
  static std::mutex lock;
  static std::deque<std::unique_ptr<TreeMesh>> kept;
  const std::lock_guard<std::mutex> hold(lock);
  for (const auto& m : kept)
    if (m->name == name && m->vert == vert && m->face == face && m->graph == graph) return m.get();
  auto m = std::make_unique<TreeMesh>();
  m->name = name, m->vert = std::move(vert), m->face = std::move(face), m->graph = std::move(graph);
  point_hull(*m);
  const Vec3<double> box = tree_mesh_aabb(*m);
  m->hull.rbound = std::sqrt(dot(box, box));  // as MuJoCo's compiler: the aabb's length
  kept.push_back(std::move(m));
  return kept.back().get();
}

Vec3<double> tree_mesh_aabb(const TreeMesh& mesh) {
  double box[3] = {0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < mesh.vert.size(); ++i)
    box[i % 3] = std::fmax(box[i % 3], std::fabs(mesh.vert[i]));
  return {box[0], box[1], box[2]};
}

}  // namespace sg
