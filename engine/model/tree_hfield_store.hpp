#pragma once
// Where a scene's height fields (model.tree.hfields) live: as meshes (tree_mesh_store.hpp), a model points
// at them (TreeGeom::hfield) and its copies may outlive the scene, so a field is kept for the rest of the
// process, and the same numbers read again give the same field.
#include <string>
#include <vector>

#include "engine/articulated/tree_hfield.hpp"

namespace sg {

// Checks a field's numbers (nrow, ncol at least 2; size: 4 positive numbers; data: nrow * ncol elevations in
// [0, 1]) and returns the kept field. Throws std::invalid_argument with a message at `path` (the field's key
// path) for numbers that do not make a field.
const TreeHField* keep_tree_hfield(const std::string& path, const std::string& name, int nrow, int ncol,
                                   const std::vector<double>& size, std::vector<double> data);

}  // namespace sg
