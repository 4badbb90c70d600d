#pragma once
// Reads model.tree of a resolved, validated scene (model.type "tree") into a JointTreeModel<double>.
#include <nlohmann/json.hpp>

#include "engine/model/joint_tree_model.hpp"

namespace sg {

// Throws std::invalid_argument naming the key for what the scene rules do not catch (capacity).
JointTreeModel<double> read_tree(const nlohmann::json& config);

}  // namespace sg
