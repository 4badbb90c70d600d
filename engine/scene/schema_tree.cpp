#include "engine/scene/schema_tree.hpp"

#include <cassert>
#include <unordered_map>

#include "engine/scene/path.hpp"

namespace sg::scene {
namespace {

SchemaNode& child_or_new(SchemaNode& parent, const std::string& key) {
  for (auto& c : parent.children)
    if (c->key == key) return *c;
  auto node = std::make_unique<SchemaNode>();
  node->key = key;
  parent.children.push_back(std::move(node));
  return *parent.children.back();
}

std::unique_ptr<SchemaNode> build_tree() {
  auto root = std::make_unique<SchemaNode>();
  for (const FieldSpec& spec : scene_fields()) {
    const auto segments = split_path(spec.path, nullptr);
    assert(segments && !segments->empty());
    SchemaNode* node = root.get();
    for (std::size_t i = 0; i + 1 < segments->size(); ++i) {
      // "*" steps into an object_array's entries, whose keys are the array node's children.
      if ((*segments)[i] == "*") {
        assert(node->spec && node->spec->kind == FieldKind::object_array);
        continue;
      }
      node = &child_or_new(*node, (*segments)[i]);
    }
    SchemaNode& leaf = child_or_new(*node, segments->back());
    leaf.spec = &spec;
  }
  return root;
}

}  // namespace

const SchemaNode* SchemaNode::child(const std::string& name) const {
  for (const auto& c : children)
    if (c->key == name) return c.get();
  return nullptr;
}

std::vector<std::string> SchemaNode::child_keys() const {
  std::vector<std::string> keys;
  for (const auto& c : children) keys.push_back(c->key);
  return keys;
}

const SchemaNode& schema_root() {
  static const std::unique_ptr<SchemaNode> root = build_tree();
  return *root;
}

std::string child_path(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

const FieldSpec* find_field(const std::string& concrete_or_pattern_path) {
  static const std::unordered_map<std::string, const FieldSpec*> by_pattern = [] {
    std::unordered_map<std::string, const FieldSpec*> map;
    for (const auto& spec : scene_fields()) map[spec.path] = &spec;
    return map;
  }();
  const auto segments = split_path(concrete_or_pattern_path, nullptr);
  if (!segments) return nullptr;
  std::vector<std::string> pattern = *segments;
  for (auto& s : pattern)
    if (is_index_segment(s)) s = "*";
  if (const auto it = by_pattern.find(join_path(pattern)); it != by_pattern.end()) return it->second;
  // A vector component names its vector.
  if (pattern.size() > 1 && pattern.back() == "*") {
    pattern.pop_back();
    if (const auto it = by_pattern.find(join_path(pattern));
        it != by_pattern.end() && it->second->kind == FieldKind::vector)
      return it->second;
  }
  return nullptr;
}

}  // namespace sg::scene
