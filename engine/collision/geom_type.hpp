#pragma once
// The primitive shapes softgrad collides, with MuJoCo's size conventions (docs/collision.md):
//   plane     pose z axis is the normal, pose position a point on it (size unused)
//   sphere    [r]
//   capsule   [r, half_length]  segment along local z
//   box       [hx, hy, hz]      half sizes
//   cylinder  [r, half_length]  along local z
//   ellipsoid [a, b, c]         semi-axes
//   mesh      [hx, hy, hz]      the vertices' bounding box about the geom frame (MuJoCo's aabb); the shape
//                               is a ConvexMesh (convex_mesh.hpp), collided as its convex hull
//   hfield    [hx, hy, (top + base) / 2] a height field's half sizes (MuJoCo's geom size); the shape is a
//                               HeightField (height_field.hpp), collided prism by prism
#include "engine/core/platform.hpp"

namespace sg {

enum class GeomType : unsigned char { plane = 0, sphere, capsule, box, cylinder, ellipsoid, mesh, hfield };

SG_HD inline const char* geom_type_name(GeomType t) {
  switch (t) {
    case GeomType::plane:
      return "plane";
    case GeomType::sphere:
      return "sphere";
    case GeomType::capsule:
      return "capsule";
    case GeomType::box:
      return "box";
    case GeomType::cylinder:
      return "cylinder";
    case GeomType::ellipsoid:
      return "ellipsoid";
    case GeomType::mesh:
      return "mesh";
    case GeomType::hfield:
      return "hfield";
  }
  return "unknown";
}

}  // namespace sg
