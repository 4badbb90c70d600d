#pragma once
// Which scene fields the control panel shows for the edited config: the keys of its model type (particles,
// free bodies or a joint tree), only the active contact model's block, adaptive-only integrator keys for
// adaptive integrators, substeps for fixed-step ones, the tight reference's keys once one is chosen.
#include <string>

#include <nlohmann/json.hpp>

namespace sg::gui {

bool field_shown(const std::string& pattern_path, const nlohmann::json& edited);

}  // namespace sg::gui
