#pragma once
// One ImGui widget for one scene field, chosen by its FieldKind: numbers are dragged (double-click or
// Ctrl+click to type), clamped to the schema's bounds, with the field's help as tooltip. Draws the current
// value; returns the new value when the user changed it.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/scene/field_spec.hpp"

namespace sg::gui {

std::optional<nlohmann::json> draw_field_widget(const scene::FieldSpec& spec, const std::string& label,
                                                const std::string& path, const nlohmann::json& current);

// Drag speed per pixel for a number at value v: fields that cannot go negative (stiffness, kappa, tolerances,
// solref time constants, step sizes) change by 1% of their value per pixel, a logarithmic feel that crosses
// decades in a few hundred pixels; signed fields by 1% of their magnitude, at least 1e-3.
double drag_speed(const scene::FieldSpec& spec, double v);

// Clamps x into the spec's bounds (exclusive bounds move one representable step inside).
double clamp_to_spec(const scene::FieldSpec& spec, double x);

}  // namespace sg::gui
