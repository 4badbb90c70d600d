#include "mjcf/geom_type_map.hpp"

#include <mujoco/mujoco.h>

#include "engine/collision/shapes.hpp"

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

std::string convex_collider_options(const mjOption& o) {
  const sg::MprSettings mpr;
  if (o.mpr_tolerance != mpr.tolerance || o.mpr_iterations != mpr.max_iterations)
    return "option mpr_tolerance and mpr_iterations: softgrad's convex collider (MPR, an ellipsoid or a "
           "cylinder against another solid) runs MuJoCo's defaults, 1e-06 and 50";
  if (o.enableflags & mjENBL_MULTICCD)
    return "option flag multiccd: not supported (the convex collider gives one contact per pair)";
  return "";
}

}  // namespace sg::mjcf
