#include "gui/panels/field_widget.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sg::gui {

namespace {

using nlohmann::json;
using scene::FieldKind;

void tooltip(const scene::FieldSpec& spec) {
  if (!spec.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", spec.help.c_str());
}

double as_double(const json& j, double fallback) {
  return j.is_number() ? j.get<double>() : fallback;
}

// A drag with the schema's bounds where they are finite (ImGui clamps while dragging, clamp_to_spec after).
bool drag_double(const scene::FieldSpec& spec, const char* id, double* v, int components = 1) {
  const double lo = std::isfinite(spec.min) ? spec.min : 0.0, hi = std::isfinite(spec.max) ? spec.max : 0.0;
  const bool bounded = std::isfinite(spec.min) && std::isfinite(spec.max);
  const float speed = static_cast<float>(drag_speed(spec, v[0]));
  return ImGui::DragScalarN(id, ImGuiDataType_Double, v, components, speed, bounded ? &lo : nullptr,
                            bounded ? &hi : nullptr, components > 1 ? "%.4g" : "%.6g");
}

std::optional<json> number_widget(const scene::FieldSpec& spec, const char* id, const json& current) {
  double v = as_double(current, 0.0);
  if (!drag_double(spec, id, &v)) return std::nullopt;
  return json(clamp_to_spec(spec, v));
}

std::optional<json> integer_widget(const scene::FieldSpec& spec, const char* id, const json& current) {
  std::int64_t v = current.is_number() ? current.get<std::int64_t>() : 0;
  // Counts (points, steps, substeps) span decades too: 1% per pixel, at least a fifth of a unit.
  const float speed = static_cast<float>(std::max(0.2, 0.01 * std::fabs(static_cast<double>(v))));
  if (!ImGui::DragScalar(id, ImGuiDataType_S64, &v, speed, nullptr, nullptr, "%lld")) return std::nullopt;
  return json(static_cast<std::int64_t>(std::llround(clamp_to_spec(spec, static_cast<double>(v)))));
}

std::optional<json> choice_widget(const scene::FieldSpec& spec, const char* id, const json& current) {
  const std::string now = current.is_string() ? current.get<std::string>() : std::string();
  std::optional<json> picked;
  if (ImGui::BeginCombo(id, now.c_str())) {
    for (const std::string& choice : spec.choices) {
      if (ImGui::Selectable(choice.c_str(), choice == now) && choice != now) picked = json(choice);
    }
    ImGui::EndCombo();
  }
  return picked;
}

std::optional<json> number_or_inf_widget(const scene::FieldSpec& spec, const char* id, const json& current) {
  bool inf = current.is_string() || (current.is_number() && std::isinf(current.get<double>()));
  // The checkbox is the field's default infinity: "-inf" for a lower bound, "inf" otherwise.
  const bool negative = spec.default_value.is_string() && spec.default_value.get<std::string>() == "-inf";
  const char* word = negative ? "-inf" : "inf";
  std::optional<json> changed;
  ImGui::PushID(id);
  if (ImGui::Checkbox(word, &inf))
    changed = inf ? json(word) : json(clamp_to_spec(spec, negative ? 0.0 : 100.0));
  tooltip(spec);
  if (!inf) {
    ImGui::SameLine();
    double v = as_double(current, 100.0);
    ImGui::SetNextItemWidth(-1.0f);
    if (drag_double(spec, "##value", &v)) changed = json(clamp_to_spec(spec, v));
  }
  ImGui::PopID();
  return changed;
}

// A list of any length (a control's knots): five numbers a row, the label above.
std::optional<json> number_list_widget(const scene::FieldSpec& spec, const std::string& path,
                                       const json& current) {
  std::vector<double> v;
  if (current.is_array())
    for (const json& x : current) v.push_back(as_double(x, 0.0));
  if (v.empty()) ImGui::TextDisabled("(none)");
  bool changed = false;
  constexpr int kPerRow = 5;
  ImGui::PushItemWidth(-FLT_MIN);
  for (std::size_t at = 0; at < v.size(); at += kPerRow) {
    const int n = static_cast<int>(std::min<std::size_t>(kPerRow, v.size() - at));
    const std::string id = "##" + path + "." + std::to_string(at);
    changed = drag_double(spec, id.c_str(), v.data() + at, n) || changed;
  }
  ImGui::PopItemWidth();
  if (!changed) return std::nullopt;
  for (double& x : v) x = clamp_to_spec(spec, x);
  return json(v);
}

std::optional<json> vector_widget(const scene::FieldSpec& spec, const char* id, const json& current) {
  std::vector<double> v(static_cast<std::size_t>(std::max(spec.length, 1)), 0.0);
  if (current.is_array()) {
    for (std::size_t i = 0; i < v.size() && i < current.size(); ++i) v[i] = as_double(current[i], 0.0);
  }
  if (!drag_double(spec, id, v.data(), static_cast<int>(v.size()))) return std::nullopt;
  for (double& x : v) x = clamp_to_spec(spec, x);
  return json(v);
}

}  // namespace

double drag_speed(const scene::FieldSpec& spec, double v) {
  const double magnitude = std::isfinite(v) ? std::fabs(v) : 0.0;
  if (spec.min >= 0.0) {
    const double floor = spec.min > 0.0 ? spec.min : 1e-9;  // a positive field at 0 still moves
    return 0.01 * std::max(magnitude, floor);
  }
  return std::max(0.01 * magnitude, 1e-3);
}

double clamp_to_spec(const scene::FieldSpec& spec, double x) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(x)) return std::isfinite(spec.min) ? spec.min : 0.0;
  double lo = spec.min, hi = spec.max;
  if (spec.min_exclusive) lo = std::nextafter(lo, inf);
  if (spec.max_exclusive) hi = std::nextafter(hi, -inf);
  return std::clamp(x, lo, std::max(lo, hi));
}

std::optional<json> draw_field_widget(const scene::FieldSpec& spec, const std::string& label,
                                      const std::string& path, const json& current) {
  const std::string id = label + "##" + path;
  std::optional<json> changed;
  switch (spec.kind) {
    case FieldKind::number:
      changed = number_widget(spec, id.c_str(), current);
      break;
    case FieldKind::integer:
      changed = integer_widget(spec, id.c_str(), current);
      break;
    case FieldKind::boolean: {
      bool v = current.is_boolean() && current.get<bool>();
      if (ImGui::Checkbox(id.c_str(), &v)) changed = json(v);
      break;
    }
    case FieldKind::choice:
      changed = choice_widget(spec, id.c_str(), current);
      break;
    case FieldKind::number_or_inf:
      ImGui::TextUnformatted(label.c_str());
      tooltip(spec);
      ImGui::SameLine();
      changed = number_or_inf_widget(spec, id.c_str(), current);
      return changed;
    case FieldKind::vector:
      if (spec.max_length > 0) {
        ImGui::TextUnformatted(label.c_str());
        tooltip(spec);
        changed = number_list_widget(spec, path, current);
        break;
      }
      if (spec.length > 3) {  // five numbers (solimp) do not fit half a row: the label above, the row below
        ImGui::TextUnformatted(label.c_str());
        tooltip(spec);
        ImGui::PushItemWidth(-FLT_MIN);
        changed = vector_widget(spec, ("##" + path).c_str(), current);
        ImGui::PopItemWidth();
        break;
      }
      changed = vector_widget(spec, id.c_str(), current);
      break;
    case FieldKind::text:
    case FieldKind::object_array:
      ImGui::TextDisabled("%s: %s", label.c_str(), current.dump().c_str());
      break;
  }
  tooltip(spec);
  return changed;
}

}  // namespace sg::gui
