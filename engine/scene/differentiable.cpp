// differentiable_paths(): every number a gradient can be taken with respect to, as concrete paths.
#include "engine/scene/scene.hpp"
#include "engine/scene/schema_tree.hpp"

namespace sg::scene {
namespace {

void collect(const SchemaNode& schema, const nlohmann::json& node, const std::string& prefix,
             std::vector<std::string>& out) {
  if (!node.is_object()) return;
  for (const auto& child : schema.children) {
    const auto it = node.find(child->key);
    if (it == node.end()) continue;
    const std::string path = child_path(prefix, child->key);
    if (child->is_object()) {
      collect(*child, *it, path, out);
    } else if (child->spec->kind == FieldKind::object_array) {
      if (!it->is_array()) continue;
      for (std::size_t i = 0; i < it->size(); ++i)
        collect(*child, (*it)[i], path + "." + std::to_string(i), out);
    } else if (child->spec->differentiable) {
      if (child->spec->kind == FieldKind::vector) {
        if (!it->is_array()) continue;
        for (std::size_t i = 0; i < it->size(); ++i) out.push_back(path + "." + std::to_string(i));
      } else {
        out.push_back(path);
      }
    }
  }
}

}  // namespace

std::vector<std::string> differentiable_paths(const nlohmann::json& resolved) {
  std::vector<std::string> out;
  collect(schema_root(), resolved, "", out);
  return out;
}

}  // namespace sg::scene
