#include "engine/scene/validate.hpp"

#include <cmath>
#include <optional>

#include "engine/scene/check_field.hpp"
#include "engine/scene/describe.hpp"
#include "engine/scene/suggest.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

json default_for(const SchemaNode& node) {
  if (!node.is_object()) return node.spec->default_value;
  json object = json::object();
  std::vector<Issue> none;
  resolve_object(object, node, "", none);
  return object;
}

// A key that is valid elsewhere in the schema, for keys written at the wrong level.
std::optional<std::string> same_key_elsewhere(const std::string& key) {
  for (const auto& spec : scene_fields()) {
    const auto dot = spec.path.rfind('.');
    if (dot != std::string::npos && spec.path.compare(dot + 1, std::string::npos, key) == 0) return spec.path;
  }
  return std::nullopt;
}

void resolve_array(json& value, const SchemaNode& node, const std::string& path, std::vector<Issue>& errors) {
  const FieldSpec& spec = *node.spec;
  if (!value.is_array()) {
    errors.push_back({path, expected_got(spec, describe_value(value))});
    value = spec.default_value;
    return;
  }
  const double count = static_cast<double>(value.size());
  if (!within_bounds(spec, count)) {
    errors.push_back({path, expected_got(spec, std::to_string(value.size()) + " entries")});
    // Entries past the limit are not checked one by one (100,000 particles would give 100,000 messages).
    if (std::isfinite(spec.max) && count > spec.max)
      value.erase(value.begin() + static_cast<long>(spec.max), value.end());
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string entry_path = path + "." + std::to_string(i);
    if (!value[i].is_object()) {
      errors.push_back({entry_path, "expected an object, got " + describe_value(value[i])});
      value[i] = json::object();
    }
    resolve_object(value[i], node, entry_path, errors);
  }
}

void resolve_value(json& value, const SchemaNode& node, const std::string& path, std::vector<Issue>& errors) {
  if (node.is_object()) {
    if (!value.is_object()) {
      errors.push_back({path, "expected an object, got " + describe_value(value)});
      value = json::object();
    }
    resolve_object(value, node, path, errors);
  } else if (node.spec->kind == FieldKind::object_array) {
    resolve_array(value, node, path, errors);
  } else {
    check_field(*node.spec, value, path, errors);
  }
}

}  // namespace

std::string unknown_key_message(const std::string& key, const SchemaNode& schema, const std::string& prefix) {
  if (const auto close = closest_match(key, schema.child_keys()))
    return "unknown key (did you mean \"" + child_path(prefix, *close) + "\"?)";
  if (const auto elsewhere = same_key_elsewhere(key))
    return "unknown key (did you mean \"" + *elsewhere + "\"?)";
  std::string valid;
  for (const auto& k : schema.child_keys()) valid += (valid.empty() ? "" : ", ") + k;
  return "unknown key (valid keys here: " + valid + ")";
}

void resolve_object(json& node, const SchemaNode& schema, const std::string& prefix,
                    std::vector<Issue>& errors) {
  std::vector<std::string> unknown;
  for (const auto& item : node.items())
    if (!schema.child(item.key())) unknown.push_back(item.key());
  // Suggestions (an edit-distance search over the schema) only for the problems that are printed (the first
  // 20, LoadResult::format_errors): a file of 300,000 unknown keys was 3 s of suggestions nobody saw.
  constexpr std::size_t kSuggestedProblems = 64;
  for (const auto& key : unknown) {
    errors.push_back({child_path(prefix, key), errors.size() < kSuggestedProblems
                                                   ? unknown_key_message(key, schema, prefix)
                                                   : std::string("unknown key")});
    node.erase(key);
  }
  for (const auto& child : schema.children) {
    const std::string path = child_path(prefix, child->key);
    const auto it = node.find(child->key);
    if (it == node.end()) {
      node[child->key] = default_for(*child);
    } else {
      resolve_value(*it, *child, path, errors);
    }
  }
}

}  // namespace sg::scene
