#include "mjcf/geom_type_map.hpp"

#include <mujoco/mujoco.h>

namespace sg::mjcf {

std::optional<GeomType> softgrad_geom_type(int mj_geom_type) {
  switch (mj_geom_type) {
    case mjGEOM_PLANE:
      return GeomType::plane;
    case mjGEOM_SPHERE:
      return GeomType::sphere;
    case mjGEOM_CAPSULE:
      return GeomType::capsule;
    case mjGEOM_ELLIPSOID:
      return GeomType::ellipsoid;
    case mjGEOM_CYLINDER:
      return GeomType::cylinder;
    case mjGEOM_BOX:
      return GeomType::box;
    default:
      return std::nullopt;
  }
}

}  // namespace sg::mjcf
