#pragma once
// Turns each object_array row's default (a list of empty objects) into fully resolved entries.
#include <vector>

#include "engine/scene/field_spec.hpp"

namespace sg::scene {

void fill_array_defaults(std::vector<FieldSpec>& table);

}  // namespace sg::scene
