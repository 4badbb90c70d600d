#include "mjcf/names.hpp"

namespace sg::mjcf {

std::string element(const mjModel* m, mjtObj type, int id, const char* kind) {
  const char* name = mj_id2name(m, type, id);
  if (name && *name) return std::string(kind) + " '" + name + "'";
  return std::string(kind) + " #" + std::to_string(id);
}

const char* geom_type_word(int type) {
  switch (type) {
    case mjGEOM_PLANE:
      return "plane";
    case mjGEOM_HFIELD:
      return "hfield";
    case mjGEOM_SPHERE:
      return "sphere";
    case mjGEOM_CAPSULE:
      return "capsule";
    case mjGEOM_ELLIPSOID:
      return "ellipsoid";
    case mjGEOM_CYLINDER:
      return "cylinder";
    case mjGEOM_BOX:
      return "box";
    case mjGEOM_MESH:
      return "mesh";
    default:
      return "unknown";
  }
}

const char* joint_type_word(int type) {
  switch (type) {
    case mjJNT_FREE:
      return "free";
    case mjJNT_BALL:
      return "ball";
    case mjJNT_SLIDE:
      return "slide";
    case mjJNT_HINGE:
      return "hinge";
    default:
      return "unknown";
  }
}

}  // namespace sg::mjcf
