#pragma once
// One ImGui widget for one scene field, chosen by its FieldKind: clamped to the schema's bounds, with the
// field's help as tooltip. Draws the current value; returns the new value when the user changed it.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/scene/field_spec.hpp"

namespace sg::gui {

std::optional<nlohmann::json> draw_field_widget(const scene::FieldSpec& spec, const std::string& label,
                                                const std::string& path, const nlohmann::json& current);

// Clamps x into the spec's bounds (exclusive bounds move one representable step inside).
double clamp_to_spec(const scene::FieldSpec& spec, double x);

}  // namespace sg::gui
