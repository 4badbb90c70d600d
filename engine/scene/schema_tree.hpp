#pragma once
// The schema table arranged as a tree of keys, for walking documents level by level.
// Internal to the scene layer.
#include <memory>
#include <string>
#include <vector>

#include "engine/scene/field_spec.hpp"

namespace sg::scene {

struct SchemaNode {
  std::string key;                                    // last path segment ("" for the root)
  const FieldSpec* spec = nullptr;                    // null for plain objects such as "contact"
  std::vector<std::unique_ptr<SchemaNode>> children;  // object keys; for an object_array, its entries' keys

  bool is_object() const { return spec == nullptr; }
  const SchemaNode* child(const std::string& name) const;
  std::vector<std::string> child_keys() const;
};

const SchemaNode& schema_root();

// Concrete prefix + key, dotted ("" + "model" -> "model").
std::string child_path(const std::string& prefix, const std::string& key);

}  // namespace sg::scene
