// differentiable_paths(): every number a gradient can be taken with respect to, as concrete paths.
#include <algorithm>

#include "engine/scene/scene.hpp"
#include "engine/scene/schema_tree.hpp"

namespace sg::scene {
namespace {

// The model the resolved config simulates; anything but "rigid" or "tree" counts as the particle model.
ModelScope model_scope(const nlohmann::json& resolved) {
  const auto type = get_path(resolved, "model.type");
  if (type && *type == "rigid") return ModelScope::rigid;
  if (type && *type == "tree") return ModelScope::tree;
  return ModelScope::particles;
}

void collect(const SchemaNode& schema, const nlohmann::json& node, const std::string& prefix,
             ModelScope scope, std::vector<std::string>& out) {
  if (!node.is_object()) return;
  for (const auto& child : schema.children) {
    const auto it = node.find(child->key);
    if (it == node.end()) continue;
    const std::string path = child_path(prefix, child->key);
    if (scope == ModelScope::tree && path == "model.plane") continue;  // a tree has no ground plane yet
    if (child->is_object()) {
      collect(*child, *it, path, scope, out);
      continue;
    }
    const FieldSpec& spec = *child->spec;
    if (!scope_reads(spec.scope, scope)) continue;  // read only by another model
    if (spec.kind == FieldKind::object_array) {
      if (!it->is_array()) continue;
      for (std::size_t i = 0; i < it->size(); ++i)
        collect(*child, (*it)[i], path + "." + std::to_string(i), scope, out);
    } else if (spec.differentiable) {
      if (spec.kind == FieldKind::vector) {
        if (!it->is_array()) continue;
        std::size_t count = it->size();
        if (spec.gradient_components > 0)
          count = std::min(count, static_cast<std::size_t>(spec.gradient_components));
        for (std::size_t i = 0; i < count; ++i) out.push_back(path + "." + std::to_string(i));
      } else {
        out.push_back(path);
      }
    }
  }
}

}  // namespace

std::vector<std::string> differentiable_paths(const nlohmann::json& resolved) {
  std::vector<std::string> out;
  collect(schema_root(), resolved, "", model_scope(resolved), out);
  return out;
}

}  // namespace sg::scene
