#pragma once
// MuJoCo's geom types as softgrad's collider shapes: the primitives map one to one; meshes, height fields and
// the others have no softgrad shape (nullopt).
#include <mujoco/mujoco.h>

#include <optional>
#include <string>

#include "engine/collision/geom_type.hpp"

namespace sg::mjcf {

std::optional<GeomType> softgrad_geom_type(int mj_geom_type);

// Why the options' convex-collider settings cannot be followed (MPR runs MuJoCo's default tolerance and
// iterations, one contact per pair: no multiccd), or empty.
std::string convex_collider_options(const mjOption& o);

}  // namespace sg::mjcf
