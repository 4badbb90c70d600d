#pragma once
// How errors name MJCF elements: the element's kind and its name from the XML, or its index when unnamed.
#include <mujoco/mujoco.h>

#include <string>

namespace sg::mjcf {

// "geom 'floor'", or "geom #3" for an unnamed one.
std::string element(const mjModel* m, mjtObj type, int id, const char* kind);

// MJCF's type attribute values.
const char* geom_type_word(int type);   // "plane", "box", "mesh", ...
const char* joint_type_word(int type);  // "free", "ball", "slide", "hinge"

}  // namespace sg::mjcf
