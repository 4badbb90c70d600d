#include "engine/scene/config_diff.hpp"

#include <cstdio>
#include <utility>

#include "engine/scene/readable_path.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

// Switches whose generic name ("enabled (cfd contact)") reads worse than the short one researchers use.
std::string name_of(const std::string& path) {
  static const std::pair<const char*, const char*> names[] = {
      {"contact.cfd.enabled", "CFD"},
      {"contact.cfd.straight_through", "straight-through"},
      {"model.plane.enabled", "plane"},
  };
  for (const auto& [from, to] : names)
    if (path == from) return to;
  return readable_path(path);
}

std::string number_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

std::string value_text(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  if (v.is_number()) return number_text(v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + value_text(v[i]);
    return out + "]";
  }
  return v.dump();
}

bool is_number_array(const json& v) {
  if (!v.is_array()) return false;
  for (const json& e : v)
    if (!e.is_number()) return false;
  return true;
}

void collect(const json& a, const json* b, const std::string& path, std::vector<std::string>& out) {
  if (path == "description" || path == "optimize" || path == "mpc") return;
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      const json* other = b && b->is_object() && b->contains(it.key()) ? &(*b)[it.key()] : nullptr;
      collect(it.value(), other, path.empty() ? it.key() : path + "." + it.key(), out);
    }
    return;
  }
  if (a.is_array() && !is_number_array(a)) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      const json* other = b && b->is_array() && i < b->size() ? &(*b)[i] : nullptr;
      collect(a[i], other, path + "." + std::to_string(i), out);
    }
    return;
  }
  if (b && *b == a) return;
  // Numbers that differ only in their JSON type (1 vs 1.0) are the same setting.
  if (b && a.is_number() && b->is_number() && a.get<double>() == b->get<double>()) return;
  out.push_back(path == "name" ? "scene " + value_text(a) : name_of(path) + " " + value_text(a));
}

}  // namespace

std::vector<std::string> describe_differences(const json& a, const json& b) {
  std::vector<std::string> out;
  collect(a, &b, "", out);
  return out;
}

bool same_sweep_settings(const json& a, const json& b) {
  json x = a, y = b;
  for (json* j : {&x, &y})
    if (j->is_object()) {
      j->erase("description");
      j->erase("optimize");
      j->erase("mpc");  // the planners' settings (softgrad mpc, the MPC tab) do not change a sweep
    }
  return x == y;
}

std::string difference_label(const json& a, const json& b, std::size_t max_items) {
  const std::vector<std::string> items = describe_differences(a, b);
  if (items.empty()) return "same settings";
  std::string label;
  for (std::size_t i = 0; i < items.size() && i < max_items; ++i) label += (i ? ", " : "") + items[i];
  if (items.size() > max_items) label += ", +" + std::to_string(items.size() - max_items) + " more";
  return label;
}

}  // namespace sg::scene
