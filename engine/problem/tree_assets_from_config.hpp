#pragma once
// The shapes a tree's geoms name: model.tree.meshes and model.tree.hfields, read, checked and kept for the
// process (engine/model/tree_mesh_store.hpp, tree_hfield_store.hpp); a mesh or hfield geom finds its own by
// name.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/articulated/constraint_model.hpp"

namespace sg {

struct TreeAssets {
  std::vector<const TreeMesh*> meshes;
  std::vector<const TreeHField*> hfields;
};

// model.tree.meshes and model.tree.hfields of the tree's keys. Throws std::invalid_argument naming the key
// path of numbers that make no mesh or field, or of a name given twice.
TreeAssets read_tree_assets(const nlohmann::json& tree);

// A mesh geom's mesh and a hfield geom's field, by name (keys `mesh`, `hfield` of the geom at `path`); the
// geom's size becomes what MuJoCo's compiler makes it (the mesh's aabb; the field's x, y half sizes and the
// mean of its top and base). Throws for a name that is missing, unknown or on a geom of another type.
void set_geom_assets(const nlohmann::json& j, const std::string& path, const TreeAssets& assets,
                     TreeGeom<double>& g);

}  // namespace sg
