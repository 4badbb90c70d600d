#pragma once
// MuJoCo's geom types as softgrad's collider shapes: the primitives map one to one; meshes, height fields and
// the others have no softgrad shape (nullopt).
#include <optional>

#include "engine/collision/geom_type.hpp"

namespace sg::mjcf {

std::optional<GeomType> softgrad_geom_type(int mj_geom_type);

}  // namespace sg::mjcf
