#pragma once
// Where a scene's meshes (model.tree.meshes) live. A model points at its meshes (TreeGeom::mesh), and copies
// of a model (a sweep's workers, the GUI's runs, the Python module) may outlive the scene they were read
// from; so a mesh is kept for the rest of the process, and the same numbers read again give the same mesh.
#include <string>
#include <vector>

#include "engine/articulated/tree_mesh.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Checks a mesh's numbers (vert: 3 per vertex, at least 4 vertices; face: 3 vertex indices per triangle;
// graph: MuJoCo's mesh_graph or empty) and returns the kept mesh. Throws std::invalid_argument with a message
// at `path` (the mesh's key path) for numbers that do not make a mesh.
const TreeMesh* keep_tree_mesh(const std::string& path, const std::string& name, std::vector<double> vert,
                               std::vector<int> face, std::vector<int> graph);

// The vertices' bounding box about the geom frame's origin (MuJoCo's mesh aabb: the largest |v| per axis),
// which a mesh geom's size holds.
Vec3<double> tree_mesh_aabb(const TreeMesh& mesh);

}  // namespace sg
