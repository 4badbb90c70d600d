#pragma once
// A mesh of a joint tree (model.tree.meshes): what MuJoCo's compiler makes of an MJCF <mesh> (mesh_vert,
// mesh_face, mesh_graph). The colliders read it through `hull` (engine/collision/convex_mesh.hpp), whose
// pointers address the vectors here; the viewer draws `face`. Built once per scene and never changed or freed
// while a model may point at it (engine/model/tree_mesh_store.hpp), so models stay plain copyable data.
#include <string>
#include <vector>

#include "engine/collision/convex_mesh.hpp"

namespace sg {

inline constexpr int kMaxTreeMeshes = 64;
// Numbers in one of a mesh's lists (vertices, faces, graph): MuJoCo reads STL files of up to 200000
// triangles, 600000 vertices before its compiler merges repeated ones.
inline constexpr int kMaxTreeMeshNumbers = 1800000;

struct TreeMesh {
  std::string name;
  std::vector<double> vert;  // 3 per vertex, the geom frame
  std::vector<int> face;     // 3 vertex indices per triangle (for drawing; may be empty)
  std::vector<int> graph;    // MuJoCo's mesh_graph (empty: none), which hull points into
  ConvexMesh hull;
};

}  // namespace sg
