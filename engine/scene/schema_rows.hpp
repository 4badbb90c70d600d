#pragma once
// Builders for the rows of the schema table (schema_table.cpp, schema_rigid_rows.cpp), so that each row
// reads as kind, path, default, range, gradient and help. Internal to the scene layer.
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/scene/field_spec.hpp"

namespace sg::scene::rows {

using nlohmann::json;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

struct Range {
  double min = -kInf, max = kInf;
  bool min_exclusive = false, max_exclusive = false;
};
constexpr Range any() {
  return {};
}
constexpr Range above(double a) {
  return {a, kInf, true, false};
}  // (a, inf)
constexpr Range at_least(double a) {
  return {a, kInf, false, false};
}  // [a, inf)
constexpr Range closed(double a, double b) {
  return {a, b, false, false};
}  // [a, b]
constexpr Range open(double a, double b) {
  return {a, b, true, true};
}  // (a, b)
constexpr Range left_open(double a, double b) {
  return {a, b, true, false};
}  // (a, b]

enum Gradient : bool { fixed = false, diff = true };

inline FieldSpec row(std::string path, FieldKind kind, Range range, json default_value, Gradient gradient,
                     std::string help) {
  return FieldSpec{std::move(path),
                   kind,
                   range.min,
                   range.max,
                   range.min_exclusive,
                   range.max_exclusive,
                   {},
                   0,
                   std::move(default_value),
                   gradient,
                   std::move(help),
                   ModelScope::all,
                   0,
                   0};
}
inline FieldSpec number(std::string path, double def, Range range, Gradient gradient, std::string help) {
  return row(std::move(path), FieldKind::number, range, def, gradient, std::move(help));
}
inline FieldSpec integer(std::string path, long long def, Range range, std::string help) {
  return row(std::move(path), FieldKind::integer, range, def, fixed, std::move(help));
}
// An integer restricted to a few listed values (e.g. MuJoCo's condim 1 or 3).
inline FieldSpec integer_of(std::string path, long long def, std::vector<long long> allowed,
                            std::string help) {
  FieldSpec spec = row(std::move(path), FieldKind::integer,
                       closed(static_cast<double>(allowed.front()), static_cast<double>(allowed.back())), def,
                       fixed, std::move(help));
  for (long long v : allowed) spec.choices.push_back(std::to_string(v));
  return spec;
}
inline FieldSpec boolean(std::string path, bool def, std::string help) {
  return row(std::move(path), FieldKind::boolean, any(), def, fixed, std::move(help));
}
inline FieldSpec text(std::string path, std::string def, std::string help) {
  return row(std::move(path), FieldKind::text, any(), std::move(def), fixed, std::move(help));
}
inline FieldSpec choice(std::string path, std::vector<std::string> choices, std::string def,
                        std::string help) {
  FieldSpec spec = row(std::move(path), FieldKind::choice, any(), std::move(def), fixed, std::move(help));
  spec.choices = std::move(choices);
  return spec;
}
inline FieldSpec vector(std::string path, std::vector<double> def, Range range, Gradient gradient,
                        std::string help) {
  const int length = static_cast<int>(def.size());
  FieldSpec spec = row(std::move(path), FieldKind::vector, range, json(def), gradient, std::move(help));
  spec.length = length;
  return spec;
}
inline FieldSpec number_or_inf(std::string path, json def, Range range, Gradient gradient, std::string help) {
  return row(std::move(path), FieldKind::number_or_inf, range, std::move(def), gradient, std::move(help));
}
// The default array starts as `default_count` empty objects; fill_array_defaults() resolves them later.
inline FieldSpec object_array(std::string path, double min_count, double max_count, std::string help,
                              std::size_t default_count = 1) {
  json entries = json::array();
  for (std::size_t i = 0; i < default_count; ++i) entries.push_back(json::object());
  return row(std::move(path), FieldKind::object_array, closed(min_count, max_count), std::move(entries),
             fixed, std::move(help));
}

// A vector of 0 to max_length numbers (a control sequence's knots), default empty.
inline FieldSpec number_list(std::string path, int max_length, Range range, Gradient gradient,
                             std::string help) {
  FieldSpec spec = row(std::move(path), FieldKind::vector, range, json::array(), gradient, std::move(help));
  spec.length = 0;
  spec.max_length = max_length;
  return spec;
}

// Only `scope`'s differentiable_paths() list the field.
inline FieldSpec only(ModelScope scope, FieldSpec spec) {
  spec.scope = scope;
  return spec;
}
// Only the first `n` components of a differentiable vector carry a gradient.
inline FieldSpec gradient_in_first(int n, FieldSpec spec) {
  spec.gradient_components = n;
  return spec;
}

// MuJoCo contact parameters of a geom (friction, solref, solimp, condim, margin) under `prefix`
// ("model.plane", "model.bodies.*"); rigid-only. Defined in schema_rigid_rows.cpp.
std::vector<FieldSpec> geom_contact_rows(const std::string& prefix);
// model.bodies, its entries and their applied forces. Defined in schema_rigid_rows.cpp.
std::vector<FieldSpec> rigid_body_rows();
// model.tree.bodies, their joints. Defined in schema_tree_rows.cpp.
std::vector<FieldSpec> tree_body_rows();
// control: sequences of knots for a tree's actuators. Defined in schema_control_rows.cpp.
std::vector<FieldSpec> control_rows();
// mpc: the planners of softgrad mpc. Defined in schema_mpc_rows.cpp.
std::vector<FieldSpec> mpc_rows();

}  // namespace sg::scene::rows
