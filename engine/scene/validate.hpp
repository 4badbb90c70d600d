#pragma once
// Walks a document against the schema tree: reports unknown keys and bad values, fills defaults.
// Internal to the scene layer.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/issue.hpp"
#include "engine/scene/schema_tree.hpp"

namespace sg::scene {

// `node` must be an object; it is resolved in place. `prefix` is its concrete dotted path.
void resolve_object(nlohmann::json& node, const SchemaNode& schema, const std::string& prefix,
                    std::vector<Issue>& errors);

// "unknown key (did you mean ...)" for `key` found at the level described by `schema`.
std::string unknown_key_message(const std::string& key, const SchemaNode& schema, const std::string& prefix);

}  // namespace sg::scene
